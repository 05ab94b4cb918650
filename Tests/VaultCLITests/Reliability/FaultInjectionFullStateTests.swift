import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue #37: what a revoke must remember is recorded before its file is in place.
///
/// With the state directory (`$XDG_STATE_HOME`, where the seen key epoch lives) on a full file
/// system, `vault revoke` exited 0 without recording the new key epoch, and the pre-revoke copy
/// put back opened for the owner and for the revoked credential. Now the new epoch is recorded,
/// synced, before the rename: a state write that fails leaves the old vault and exits 1.
@Suite struct FaultInjectionFullStateTests {
    @Test(.enabled(if: FaultDisk.canMount, "mounting a tmpfs needs root and CAP_SYS_ADMIN"))
    func revokeWithAFullStateDirectoryKeepsTheOldVault() throws {
        let sandbox = try Sandbox()
        let disk = try FaultDisk(in: sandbox, name: "state", kilobytes: 64)
        defer { disk.unmount() }
        sandbox.environment["XDG_STATE_HOME"] = disk.path
        try sandbox.initWithKeyFile()
        #expect(try sandbox.vault(["add", "-s", "db", "-a", "ci", "--group", "ci"], stdin: Array("ci-secret".utf8)).status == 0)
        #expect(try sandbox.vault(["grant", "--group", "ci", "--out", sandbox.path("ci.cred")]).status == 0)
        let credential = String(decoding: sandbox.read("ci.cred") ?? [], as: UTF8.self)

        // Revoke, rekey and a member's removal raise the key epoch the same way: each must record it first.
        let recipient = sandbox.recipient("gone")
        #expect(try sandbox.vault(["member", "add", "gone", recipient, "--group", "ci"]).status == 0)
        let beforeAll = try #require(sandbox.read(sandbox.vaultPath))
        disk.fill(sandbox)
        for arguments in [["revoke", "--group", "ci"], ["rekey", "--yes"], ["member", "remove", "gone", "--yes"]] {
            let full = try sandbox.vault(arguments)
            #expect(full.status == 1, "\(arguments[0]) with a full state directory exited \(full.status): \(full.stderr)")
            #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
            let unchanged = sandbox.read(sandbox.vaultPath) == beforeAll
            #expect(unchanged, "\(arguments[0]) with a full state directory changed the vault")
            // Whatever it said, a write that exited 0 must keep the copy from before it out.
            if full.status == 0 {
                try expectPreRevokeCopyRefused(sandbox, beforeAll, credential, after: "\(arguments[0]) on a full state directory")
            }
        }

        disk.empty(sandbox)
        let revoked = try sandbox.vault(["revoke", "--group", "ci"])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        try expectPreRevokeCopyRefused(sandbox, beforeAll, credential, after: "revoke")
    }

    /// A seen record that is there but cannot be read (here a directory in its place; an I/O error or a
    /// denied open alike) fails the command: taken for no record, it let a pre-revoke copy in.
    @Test func anUnreadableSeenRecordFailsRatherThanForgets() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        #expect(try sandbox.vault(["add", "-s", "db", "-a", "ci", "--group", "ci"], stdin: Array("ci-secret".utf8)).status == 0)
        let preRevoke = try #require(sandbox.read(sandbox.vaultPath))
        #expect(try sandbox.vault(["revoke", "--group", "ci"]).status == 0)
        let seen = sandbox.path(".local/state/vault/seen")
        let record = try #require(try FileManager.default.contentsOfDirectory(atPath: seen).first { !$0.contains(".") })
        try FileManager.default.removeItem(atPath: seen + "/" + record)
        try FileManager.default.createDirectory(atPath: seen + "/" + record, withIntermediateDirectories: false)
        try sandbox.write(sandbox.vaultPath, preRevoke)
        let read = try sandbox.vault(["get", "-s", "db", "-a", "ci", "--group", "ci"])
        #expect(read.status != 0, "with its seen record unreadable, the pre-revoke copy opened: \(read.stdoutText)")
        #expect(read.stderr.contains(record), "\(read.stderr)")
    }

    /// Puts `preRevoke` back in place: neither the owner's key file nor the revoked credential opens it.
    private func expectPreRevokeCopyRefused(_ sandbox: Sandbox, _ preRevoke: [UInt8], _ credential: String, after: String) throws {
        let current = sandbox.read(sandbox.vaultPath)
        try sandbox.write(sandbox.vaultPath, preRevoke)
        defer { if let current { try? sandbox.write(sandbox.vaultPath, current) } }
        let owner = try sandbox.vault(["get", "-s", "db", "-a", "ci", "--group", "ci"])
        #expect(owner.status != 0, "after \(after), the pre-revoke copy opened for the owner")
        let revoked = try sandbox.vault(
            ["get", "-s", "db", "-a", "ci", "--group", "ci"],
            environment: ["VAULT_KEY_FILE": "", "VAULT_CREDENTIAL": credential])
        #expect(revoked.status != 0, "after \(after), the pre-revoke copy opened for the revoked credential")
    }
}

/// A small tmpfs inside a sandbox, for a state or runtime directory that fills up.
struct FaultDisk {
    let path: String

    static let canMount: Bool = {
        guard geteuid() == 0, let sandbox = try? Sandbox(), let disk = try? FaultDisk(in: sandbox, name: "probe", kilobytes: 64) else {
            return false
        }
        disk.unmount()
        return true
    }()

    init(in sandbox: Sandbox, name: String, kilobytes: Int) throws {
        path = sandbox.path(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = try sandbox.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=700", "tmpfs", path])
        guard result.status == 0 else { throw SandboxError.setupFailed("mount: \(result.stderr)") }
    }

    /// Fills the disk to its last byte (a file as large as it goes, then one-byte files while any fits).
    func fill(_ sandbox: Sandbox) {
        _ = try? sandbox.run(
            "/bin/sh",
            [
                "-c",
                "dd if=/dev/zero of=\(path)/.filler bs=1k 2>/dev/null; i=0; while printf x > \(path)/.filler-$i 2>/dev/null && [ $i -lt 64 ]; do i=$((i+1)); done"
            ])
    }

    func empty(_ sandbox: Sandbox) {
        _ = try? sandbox.run("/bin/sh", ["-c", "rm -f \(path)/.filler*"])
    }

    func unmount() {
        _ = try? Sandbox.spawn(
            "/bin/umount", [path], environment: ["PATH": "/usr/bin:/bin"], directory: "/",
            stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null")
    }
}
