import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Writes to a full disk and to a read-only vault directory fail with exit 1
/// and the system's reason, leave the vault as it was and leave no temp file;
/// reads still work. The disk is a tiny tmpfs, which needs root and a kernel
/// that lets this process mount; a non-root run gets a read-only directory
/// from chmod instead, and the full disk is skipped.
@Suite struct FullAndReadOnlyDiskTests {
    /// Whether this process may mount a tmpfs (tried once).
    static let canMount: Bool = {
        guard geteuid() == 0, let sandbox = try? Sandbox(), let disk = try? TinyDisk(in: sandbox, kilobytes: 64) else { return false }
        disk.unmount()
        return true
    }()

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root and CAP_SYS_ADMIN; no loop device either without them"))
    func fullDisk() throws {
        let sandbox = try Sandbox()
        let disk = try TinyDisk(in: sandbox, kilobytes: 256)
        defer { disk.unmount() }
        let vault = try disk.makeVault(sandbox)
        _ = try sandbox.run("/bin/sh", ["-c", "dd if=/dev/zero of=\(disk.path)/filler bs=1k 2>/dev/null"])
        let before = sandbox.read(vault)
        let big = String(repeating: "s", count: 100_000)
        for arguments in [["add", "-s", "big", "-a", "x"], ["update", "-s", "github", "-a", "ci"], ["delete", "-s", "github", "-a", "ci"]] {
            let result = try sandbox.vault(["--vault", vault] + arguments, stdin: Array(big.utf8))
            #expect(result.status == 1, "\(arguments[0]) on a full disk exited \(result.status): \(result.stderr)")
            #expect(result.stderr.contains("No space left on device") && result.stderr.contains("vault: hint: "), "\(result.stderr)")
            let unchanged = sandbox.read(vault) == before
            #expect(unchanged, "\(arguments[0]) on a full disk changed the vault")
        }
        #expect(try sandbox.vault(["--vault", vault, "get", "-s", "github", "-a", "ci"]).stdoutText == "token")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: disk.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "temp files left on the full disk: \(leftovers)")
        try FileManager.default.removeItem(atPath: disk.path + "/filler")
        #expect(try sandbox.vault(["--vault", vault, "add", "-s", "big", "-a", "x"], stdin: Array(big.utf8)).status == 0)
    }

    /// How a file system is full: no byte left for data, or (also) no inode left for a new file.
    enum Fill: String, CaseIterable {
        case bytes = "no byte left", inodes = "no byte or inode left"
    }

    /// Both in `make reliability`; the bytes alone in `make test`.
    static var fills: [Fill] { ReliabilityScale.isFull ? Fill.allCases : [.bytes] }

    /// Where a full file system is put: the vault's directory (with the device keys), the state
    /// directory (seen counters, first-run marker) and the runtime directory (sessions, locks).
    enum Place: String, CaseIterable {
        case vaultDirectory = ".local/share/vault", stateDirectory = ".local/state", runtimeDirectory = "run"
    }

    /// Every writing command with each of the three directories on a tmpfs filled to the last byte:
    /// it exits 0 only when its change is there (the same reader's view as the command gives on a disk
    /// with room, and the seen counters recording its key epoch and generation); otherwise the vault
    /// reads as before or as after, never a mix; `vault verify` passes; and once space is freed the
    /// next write works.
    @Test(.enabled(if: canMount, "mounting a tmpfs needs root and CAP_SYS_ADMIN"))
    func everyWriteOnEachFullDirectory() throws {
        var runs = 0, acknowledged = 0, refusedUnchanged = 0, refusedChanged = 0, failures = 0
        var statuses: [String] = []
        for command in WritingCommand.sample {
            // What the command leaves on a disk with room: the "after" a successful run must match.
            let twin = try Sandbox()
            try WritingCommand.makeVault(twin)
            let (twinArguments, twinStdin) = try command.prepare(twin)
            let twinRun = try twin.vault(twinArguments, stdin: Array(twinStdin.utf8))
            try WritingCommand.keepSessionToken(twinRun, twin)
            try #require(twinRun.status == 0, "\(command.name) on a disk with room exited \(twinRun.status): \(twinRun.stderr)")
            let expectedCounters = SeenCountersFile.read(twin)
            let expected = try VaultObservation.take(twin, probes: command.probes)
            for (place, fill) in Place.allCases.flatMap({ place in Self.fills.map { (place, $0) } }) {
                let sandbox = try Sandbox()
                let disk = try TinyDisk(in: sandbox, at: place.rawValue, kilobytes: 1024, inodes: 256)
                defer { disk.unmount() }
                try WritingCommand.makeVault(sandbox)
                let (arguments, stdin) = try command.prepare(sandbox)
                let before = try VaultObservation.take(sandbox, probes: command.probes)
                let countersBefore = SeenCountersFile.read(sandbox)
                try disk.fill(fill)
                let result = try sandbox.vault(arguments, stdin: Array(stdin.utf8))
                // Read before anything else opens the vault: a read raises the counters to what it sees.
                let counters = SeenCountersFile.read(sandbox)
                disk.free()
                try WritingCommand.keepSessionToken(result, sandbox)
                let seen = try VaultObservation.take(sandbox, probes: command.probes)
                runs += 1
                statuses.append("\(command.name) \(place.rawValue) \(fill.rawValue) \(result.status)")
                var problems: [String] = []
                if result.status == 0 {
                    acknowledged += 1
                    if seen != expected { problems.append("exited 0, but reads:\n\(seen)\n-- expected:\n\(expected)") }
                    // The key epoch is what keeps a revoked credential revoked against a restored old file:
                    // a write that raised it is acknowledged only once this machine has recorded it.
                    if counters.epoch != expectedCounters.epoch {
                        // A command that raises the key epoch records it before its rename: a full state
                        // directory fails it, leaving the old vault (failed before, exit 0 with nothing recorded).
                        problems.append(
                            "exited 0, but the seen counters hold key epoch \(counters.epoch ?? "none"), not \(expectedCounters.epoch ?? "none")"
                        )
                    }
                } else {
                    if seen == before { refusedUnchanged += 1 } else { refusedChanged += 1 }
                    if seen != before && seen != expected,
                        let left = try VaultObservation.resumed(sandbox, command, arguments: arguments, stdin: stdin, after: expected)
                    {
                        problems.append("exited \(result.status) and reads neither as before nor after:\n\(seen)\n\(left)")
                    }
                    if !result.stderr.contains("No space left on device") {
                        problems.append("exited \(result.status) without naming the full disk: \(result.stderr)")
                    }
                }
                if counters != countersBefore && counters != expectedCounters {
                    problems.append(
                        "the seen counters hold \(counters), neither as before (\(countersBefore)) nor as after (\(expectedCounters))")
                }
                if !seen.readable { problems.append("the vault does not verify or read:\n\(seen)") }
                if let problem = try VaultObservation.nextCommandWorks(sandbox) { problems.append(problem) }
                failures += problems.count
                let label = "\(command.name) with \(place.rawValue) full (\(fill.rawValue))"
                for problem in problems { Issue.record(Comment(rawValue: "\(label): \(problem)")) }
            }
        }
        print(
            "FullAndReadOnlyDiskTests: \(WritingCommand.sample.count) commands x \(Place.allCases.count) full directories x \(Self.fills.count) (\(Self.fills.map(\.rawValue).joined(separator: "; "))) = \(runs) runs: \(acknowledged) exited 0 with the change there, \(refusedUnchanged) refused leaving the vault as before, \(refusedChanged) refused after the change landed; \(failures) failures (exit statuses: \(statuses.joined(separator: ", ")))"
        )
    }

    @Test(.enabled(if: canMount || geteuid() != 0, "root ignores directory modes, and this process may not mount a read-only tmpfs"))
    func readOnlyVaultDirectory() throws {
        let sandbox = try Sandbox()
        let disk = Self.canMount ? try TinyDisk(in: sandbox, kilobytes: 1024) : nil
        defer { disk?.unmount() }
        let directory = disk?.path ?? sandbox.path("readonly")
        let vault = try TinyDisk.makeVault(sandbox, in: directory)
        if let disk {
            try disk.remountReadOnly()
        } else {
            chmod(directory, 0o500)
        }
        defer { chmod(directory, 0o700) }
        let before = sandbox.read(vault)
        for arguments in [
            ["add", "-s", "new", "-a", "x"], ["update", "-s", "github", "-a", "ci"], ["delete", "-s", "github", "-a", "ci"],
            ["passwd", "--new-passphrase-file", sandbox.path("passphrase")]
        ] {
            let result = try sandbox.vault(["--vault", vault] + arguments, stdin: Array("new".utf8))
            #expect(result.status == 1, "\(arguments[0]) in a read-only directory exited \(result.status): \(result.stderr)")
            #expect(result.stderr.contains("Read-only file system") || result.stderr.contains("Permission denied"), "\(result.stderr)")
            let unchanged = sandbox.read(vault) == before
            #expect(unchanged, "\(arguments[0]) in a read-only directory changed the vault")
        }
        #expect(try sandbox.vault(["--vault", vault, "get", "-s", "github", "-a", "ci"]).stdoutText == "token")
        // A session lives in the runtime directory, not beside the vault.
        #expect(try sandbox.vault(["--vault", vault, "unlock", "--raw"]).status == 0)
    }
}

/// A tmpfs mounted inside a sandbox for one test.
struct TinyDisk {
    let path: String
    private let sandbox: Sandbox

    init(in sandbox: Sandbox, at relativePath: String = "disk", kilobytes: Int, inodes: Int? = nil) throws {
        self.sandbox = sandbox
        path = sandbox.path(relativePath)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = try sandbox.run(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=700" + (inodes.map { ",nr_inodes=\($0)" } ?? ""), "tmpfs", path])
        guard result.status == 0 else { throw SandboxError.setupFailed("mount: \(result.stderr)") }
    }

    func remountReadOnly() throws {
        let result = try sandbox.run("/bin/mount", ["-o", "remount,ro", path])
        guard result.status == 0 else { throw SandboxError.setupFailed("remount: \(result.stderr)") }
    }

    /// Fills the file system to the last byte (and, for `.inodes`, its last inode): no write of
    /// even one byte more succeeds, nor (then) the creation of an empty file.
    func fill(_ how: FullAndReadOnlyDiskTests.Fill = .bytes) throws {
        _ = try sandbox.run(
            "/bin/sh",
            [
                "-c",
                "dd if=/dev/zero of=\"$1\"/.filler bs=4k 2>/dev/null; dd if=/dev/zero of=\"$1\"/.filler bs=1 oflag=append conv=notrunc 2>/dev/null",
                "sh", path
            ])
        if how == .inodes {
            _ = try sandbox.run(
                "/bin/sh",
                ["-c", "mkdir \"$1\"/.inodes && i=0 && while : > \"$1\"/.inodes/$i 2>/dev/null; do i=$((i + 1)); done", "sh", path])
            guard try sandbox.run("/bin/sh", ["-c", ": > \"$1\"/.probe", "sh", path]).status != 0 else {
                throw SandboxError.setupFailed("\(path) has inodes left after filling them")
            }
        }
        let probe = try sandbox.run("/bin/sh", ["-c", "printf x > \"$1\"/.probe", "sh", path])
        try? FileManager.default.removeItem(atPath: path + "/.probe")
        guard probe.status != 0 else { throw SandboxError.setupFailed("\(path) is not full after filling it") }
    }

    /// Frees what `fill` took.
    func free() {
        try? FileManager.default.removeItem(atPath: path + "/.filler")
        try? FileManager.default.removeItem(atPath: path + "/.inodes")
    }

    func unmount() {
        _ = try? sandbox.run("/bin/umount", [path])
    }

    func makeVault(_ sandbox: Sandbox) throws -> String {
        try TinyDisk.makeVault(sandbox, in: path)
    }

    /// A vault in `directory` unlocked by the sandbox's key file, holding github/ci = "token"; returns its path.
    static func makeVault(_ sandbox: Sandbox, in directory: String) throws -> String {
        let vault = directory + "/test.vault"
        try sandbox.write("passphrase", Array("a new passphrase".utf8))
        guard try sandbox.vault(["--vault", vault, "init", "--key-file", sandbox.path("key")]).status == 0,
            try sandbox.vault(
                ["--vault", vault, "--key-file", sandbox.path("key"), "add", "-s", "github", "-a", "ci"],
                stdin: Array("token".utf8)
            ).status == 0
        else {
            throw SandboxError.setupFailed("could not make a vault in \(directory)")
        }
        sandbox.environment["VAULT_KEY_FILE"] = sandbox.path("key")
        sandbox.environment["CI"] = "true"
        return vault
    }
}
