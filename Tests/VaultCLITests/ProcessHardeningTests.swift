import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The vault process itself runs without core dumps and not dumpable (which
/// also keeps other processes of the user from reading its memory). Checked
/// in a running vault, from the child of `vault run`, which reads its parent's
/// /proc entries:
/// - `/proc/PPID/limits`: "Max core file size" is 0, soft and hard;
/// - dumpable: no /proc file shows the flag, but the kernel gives every
///   /proc/PID file of a non-dumpable process to root (proc(5)), so the owner
///   of `/proc/PPID/status` is 0 although vault runs as another user. As root
///   (CI) that tells nothing, so vault runs as `nobody` there (setpriv); a
///   non-root run is another user already.
@Suite struct VaultProcessHardeningTests {
    @Test func theRunningVaultHasNoCoreDumpsAndIsNotDumpable() throws {
        let home = FileManager.default.temporaryDirectory.path + "/vault-hardening-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: home) }
        let nobody: uid_t = 65534
        if geteuid() == 0 { chown(home, nobody, nobody) }
        let child = #"grep 'Max core file size' /proc/$PPID/limits; echo "vault-owner=$(stat -c %u /proc/$PPID/status) me=$(id -u)""#
        let command = [Sandbox.vaultBinary, "run", "--", "/bin/sh", "-c", child]
        let asUser = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"] : []
        let out = home + "/out", err = home + "/err"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        let status = try Sandbox.spawn(
            (asUser + command)[0], Array((asUser + command).dropFirst()),
            environment: ["HOME": home, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": home + "/run"],
            directory: home, stdin: "/dev/null", stdout: out, stderr: err)
        let text = String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self)
        let errors = String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self)
        #expect(status == 0, "\(errors)")
        let limits = text.split(separator: "\n").first { $0.hasPrefix("Max core file size") }?.split(separator: " ")
        #expect(limits?.dropFirst(4).prefix(2) == ["0", "0"], "the core limit of vault: \(text)")
        #expect(text.contains("vault-owner=0 "), "vault is dumpable: its /proc files belong to its own user: \(text)")
        #expect(!text.contains(" me=0"), "the check needs vault to run as a user other than root: \(text)")
    }
}
