import Foundation
import Testing

/// Files a command opens once: the config file, however many settings ask for it (a `get` read it
/// six times), and the vault file for `add`, whose group check, twin check and write share one
/// reading (it was opened five times). Counted with strace, as a person would check it.
@Suite struct ConfigReadOnceTests {
    @Test func aGetOpensTheConfigOnce() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let add = try sandbox.vault(["add", "-s", "db", "-a", "admin", "--group", "prod"], stdin: Array("s3cret".utf8))
        #expect(add.status == 0, "\(add.stderr)")
        try FileManager.default.createDirectory(
            atPath: sandbox.path(".config/vault"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try sandbox.write(".config/vault/config", Array("group = prod\nbackend = file\n".utf8))
        let traced = try sandbox.run(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-e", "trace=open,openat", "-o", sandbox.path("trace"),
                Sandbox.vaultBinary, "get", "-s", "db", "-a", "admin"
            ])
        #expect(traced.status == 0, "\(traced.stderr)")
        #expect(traced.stdoutText == "s3cret", "the config's group was not used")
        let opens = String(decoding: sandbox.read("trace") ?? [], as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("/.config/vault/config\"") }
        #expect(opens.count == 1, "\(opens.joined(separator: "\n"))")
    }

    @Test(arguments: [
        ["add", "-s", "db", "-a", "admin"],
        ["add", "-s", "db", "-a", "admin", "--group", "new"],
        ["add", "-s", "db", "-a", "admin", "--update"]
    ])
    func anAddOpensTheVaultFileForReadingOnce(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let first = try sandbox.vault(["add", "-s", "db", "-a", "admin", "--group", "prod"], stdin: Array("s3cret".utf8))
        #expect(first.status == 0, "\(first.stderr)")
        let traced = try sandbox.run(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-e", "trace=open,openat", "-o", sandbox.path("trace"),
                Sandbox.vaultBinary
            ] + arguments, stdin: Array("other".utf8))
        #expect(traced.status == 0, "\(traced.stderr)")
        let reads = String(decoding: sandbox.read("trace") ?? [], as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("/default.vault\"") && $0.contains("O_RDONLY") }
        #expect(reads.count == 1, "\(reads.joined(separator: "\n"))")
        #expect(
            try sandbox.vault(["get", "-s", "db", "-a", "admin", "--group", arguments.contains("--group") ? "new" : "default"]).stdoutText
                == "other")
    }
}
