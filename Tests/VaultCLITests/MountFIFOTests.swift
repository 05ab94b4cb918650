import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `vault run --mount PATH` against someone who may change the directory the
/// pipe is in (issue 34): the pipe is refused in a directory other users can
/// write, and vault writes only into the FIFO it made, never into what a
/// link or a file put in its place leads to. The tests run as root, so
/// "another user can write it" is a directory of mode 0777 or 01777, one of
/// mode 0770 whose group is not root's own, or one that belongs to another uid.
@Suite struct MountFIFOTests {
    /// Modes and owners of a directory that someone other than vault's user can write.
    static let openDirectories: [(mode: Int, user: uid_t?, group: gid_t?)] = [
        (0o777, nil, nil), (0o1777, nil, nil), (0o770, nil, 65534), (0o755, 65534, nil)
    ]

    @Test(arguments: 0..<openDirectories.count)
    func mountRefusesADirectoryOtherUsersCanWrite(_ index: Int) throws {
        let (mode, user, group) = MountFIFOTests.openDirectories[index]
        let sandbox = try LeakPreventionTests.sandbox()
        let directory = sandbox.path("shared")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        #expect(chmod(directory, mode_t(mode)) == 0)
        if user != nil || group != nil { #expect(chown(directory, user ?? getuid(), group ?? getgid()) == 0) }
        let result = try sandbox.vault([
            "run", "--env", "TOKEN=vault://github/ci", "--mount", "shared/x.env",
            "--", "touch", sandbox.path("ran")
        ])
        let described = String(mode, radix: 8) + (user.map { " uid \($0)" } ?? "") + (group.map { " gid \($0)" } ?? "")
        #expect(result.status == 2, "\(described): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(described): \(result.stderr)")
        let error = lines.first.map(String.init) ?? ""
        #expect(
            error.hasPrefix("vault: error: ") && error.contains("\"\(directory)\"") && error.contains("other users")
                && !error.hasSuffix("."), "\(described): \(error)")
        let hint = lines.count > 1 ? String(lines[1]) : ""
        #expect(hint.hasPrefix("vault: hint: ") && hint.contains("bare name"), "\(described): \(hint)")
        #expect(sandbox.read("ran") == nil, "\(described): the command ran")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: directory)) == [], "\(described): something was made there")
        LeakPreventionTests.expectNoSecret(in: result)
    }

    @Test func mountServesADirectoryOnlyItsOwnerCanWrite() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("mine"), withIntermediateDirectories: false)
        #expect(chmod(sandbox.path("mine"), 0o755) == 0)
        let run = try sandbox.vault([
            "run", "--no-masking", "--env", "TOKEN=vault://github/ci", "--mount", "mine/x.env",
            "--", "sh", "-c", "stat -c %F \"$VAULT_MOUNT_PATH\"; cat \"$VAULT_MOUNT_PATH\""
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText == "fifo\nTOKEN='\(LeakPreventionTests.token)'\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("mine/x.env")))
    }

    /// The race of the issue made certain: the first reader reads slowly, so
    /// vault is still writing to it when the fresh pipe for the next reader is
    /// at PATH; the child swaps that pipe for a symbolic link to a regular file
    /// (or for a regular file), then finishes reading. vault must not write the
    /// next copy into what now stands at PATH.
    @Test(arguments: ["symlink", "file"])
    func mountWritesOnlyIntoTheFIFOItMade(_ swap: String) throws {
        let sandbox = try LeakPreventionTests.sandbox()
        let padding = String(repeating: "x", count: 200_000)
        try sandbox.write("big.tpl", Array((padding + "{{ vault://github/ci }}\n").utf8))
        let replace =
            swap == "symlink"
            ? ": > stolen; ln -s \"$PWD/stolen\" \"$P\"; W=stolen"
            : ": > \"$P\"; W=\"$P\""
        let script = """
            P="$VAULT_MOUNT_PATH"; tries=0
            until [ -p "$P" ] || [ $tries -ge 3000 ]; do sleep 0.01; tries=$((tries + 1)); done
            first=$(stat -c %i "$P")
            exec 3<"$P"
            tries=0
            until { [ -p "$P" ] && [ "$(stat -c %i "$P" 2>/dev/null)" != "$first" ]; } || [ $tries -ge 3000 ]; do sleep 0.01; tries=$((tries + 1)); done
            rm -f "$P"; \(replace)
            cat <&3 > first.out; exec 3<&-
            tries=0
            until [ -s "$W" ] || [ $tries -ge 100 ]; do sleep 0.02; tries=$((tries + 1)); done
            cat "$W" > landed
            """
        let run = try sandbox.vault(["run", "--no-masking", "--mount", "./k.env=big.tpl", "--", "sh", "-c", script])
        #expect(run.status == 0, "\(swap): \(run.stderr)")
        #expect(
            String(decoding: sandbox.read("first.out") ?? [], as: UTF8.self) == padding + LeakPreventionTests.token + "\n",
            "\(swap): the first reader did not get the whole content")
        let landed = String(decoding: sandbox.read("landed") ?? [], as: UTF8.self)
        #expect(landed.isEmpty, "\(swap): vault wrote \(landed.count) bytes into a file it did not make")
        #expect(!landed.contains(LeakPreventionTests.token), "\(swap): the secret landed in a file it did not make")
        #expect(run.stderr.contains("vault: warning: ") && run.stderr.contains("replaced"), "\(swap): \(run.stderr)")
        LeakPreventionTests.expectNoSecret(in: run)
        // What the child put at PATH is not vault's to remove.
        var left = stat()
        #expect(lstat(sandbox.path("k.env"), &left) == 0, "\(swap): vault removed what the child put at PATH")
    }
}
