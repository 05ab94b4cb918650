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
        for arguments in [["add", "-s", "new", "-a", "x"], ["update", "-s", "github", "-a", "ci"], ["delete", "-s", "github", "-a", "ci"],
                          ["passwd", "--new-passphrase-file", sandbox.path("passphrase")]] {
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

    init(in sandbox: Sandbox, kilobytes: Int) throws {
        self.sandbox = sandbox
        path = sandbox.path("disk")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = try sandbox.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=700", "tmpfs", path])
        guard result.status == 0 else { throw SandboxError.setupFailed("mount: \(result.stderr)") }
    }

    func remountReadOnly() throws {
        let result = try sandbox.run("/bin/mount", ["-o", "remount,ro", path])
        guard result.status == 0 else { throw SandboxError.setupFailed("remount: \(result.stderr)") }
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
              try sandbox.vault(["--vault", vault, "--key-file", sandbox.path("key"), "add", "-s", "github", "-a", "ci"],
                                stdin: Array("token".utf8)).status == 0 else {
            throw SandboxError.setupFailed("could not make a vault in \(directory)")
        }
        sandbox.environment["VAULT_KEY_FILE"] = sandbox.path("key")
        sandbox.environment["CI"] = "true"
        return vault
    }
}
