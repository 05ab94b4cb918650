import Foundation
import Testing

/// No credential, key, passphrase or secret in any message: every failure path
/// is fed one, and its stdout and stderr are searched for it.
@Suite struct SecretLeakTests {
    static let secret = "s3cret-Value-Never-Shown"
    static let passphrase = "correct horse battery staple"

    /// Whether `output` holds `text` or a telling piece of it (any 12 characters of it in a row).
    static func leaks(_ text: String, in output: String) -> Bool {
        let characters = Array(text)
        guard characters.count > 12 else { return output.contains(text) }
        return (0...(characters.count - 12)).contains { output.contains(String(characters[$0..<($0 + 12)])) }
    }

    @Test func noFailurePathEchoesACredentialKeyPassphraseOrSecret() throws {
        let sandbox = try Sandbox()
        try sandbox.write("pass", Array(SecretLeakTests.passphrase.utf8))
        #expect(try sandbox.vault(["init", "--passphrase-file", sandbox.path("pass"), "--kdf-cost", "testing"]).status == 0)
        sandbox.environment["VAULT_PASSPHRASE_FILE"] = sandbox.path("pass")
        #expect(try sandbox.vault(["add", "-s", "db", "-a", "ci", "--group", "ci"], stdin: Array(SecretLeakTests.secret.utf8)).status == 0)
        #expect(try sandbox.vault(["grant", "--group", "ci", "--out", sandbox.path("ci.cred")]).status == 0)
        #expect(try sandbox.vault(["passwd", "--add-key-file", sandbox.path("key")]).status == 0)
        sandbox.environment["VAULT_PASSPHRASE_FILE"] = nil
        let credential = String(decoding: sandbox.read("ci.cred") ?? [], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let key = String(decoding: sandbox.read("key") ?? [], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let payload = String(credential.dropFirst("vault-credential-v1:".count))
        #expect(payload.count > 100)
        // A damaged copy: one base64 character changed in the middle.
        var damagedCharacters = Array(credential)
        let middle = damagedCharacters.count / 2
        damagedCharacters[middle] = damagedCharacters[middle] == "A" ? "B" : "A"
        let damaged = String(damagedCharacters)
        // `base64 ci.cred`: the file's text in base64, in 76-column lines.
        let wrapped = try sandbox.run("/usr/bin/base64", [sandbox.path("ci.cred")]).stdoutText
        #expect(wrapped.contains("\n") && wrapped.count > 80)
        try sandbox.write("damaged.cred", Array(damaged.utf8))
        let wrappedDamaged = try sandbox.run("/usr/bin/base64", [sandbox.path("damaged.cred")]).stdoutText
        try sandbox.write("wrong", Array("not the passphrase\n".utf8))
        try sandbox.write("short.key", Array("vault-key-v1:c2hvcnQ=\n".utf8))

        // Wrapped base64 of the credential text is accepted.
        let accepted = try sandbox.vault(["get", "-s", "db", "-a", "ci"], environment: ["VAULT_CREDENTIAL": wrapped])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdoutText == SecretLeakTests.secret)
        let asText = try sandbox.vault(["get", "-s", "db", "-a", "ci", "--credential", credential])
        #expect(asText.status == 0, "\(asText.stderr)")

        let get = ["get", "-s", "db", "-a", "ci"]
        let failures: [(arguments: [String], environment: [String: String], status: Int32)] = [
            (get, ["VAULT_CREDENTIAL": damaged], 93),
            (get, ["VAULT_CREDENTIAL": String(credential.prefix(credential.count - 7))], 93),
            (get, ["VAULT_CREDENTIAL": payload + "!"], 1),
            (get, ["VAULT_CREDENTIAL": wrappedDamaged], 93),
            (get, ["VAULT_CREDENTIAL": SecretLeakTests.secret], 1),
            (get, ["VAULT_CREDENTIAL": SecretLeakTests.passphrase], 1),
            (get + ["--credential", damaged], [:], 93),
            (get + ["--credential", SecretLeakTests.secret], [:], 1),
            (["get", "-s", "db", "-a", "ci", "--group", "prod"], ["VAULT_CREDENTIAL": credential], 30),
            (["add", "-s", "x", "-a", "y", "--group", "prod", "-w", SecretLeakTests.secret], ["VAULT_CREDENTIAL": credential], 30),
            (get, ["VAULT_SESSION": credential], 36),
            (get, ["VAULT_SESSION": SecretLeakTests.passphrase], 36),
            (get, ["VAULT_KEY_FILE": key], 1),
            (get, ["VAULT_KEY_FILE": credential], 1),
            (get, ["VAULT_PASSPHRASE_FILE": SecretLeakTests.passphrase], 1),
            (get + ["--key-file", sandbox.path("short.key")], [:], 51),
            (get + ["--passphrase-file", sandbox.path("wrong")], [:], 51),
            (
                ["add", "-s", "db", "-a", "ci", "--group", "ci", "-w", SecretLeakTests.secret, "--passphrase-file", sandbox.path("pass")],
                [:], 45
            ),
            (
                ["add", "-s", "x", "-a", "y", "-w", SecretLeakTests.secret, "--expires", "soon", "--passphrase-file", sandbox.path("pass")],
                [:], 2
            ),
            (["update", "-s", "nope", "-a", "y", "-w", SecretLeakTests.secret, "--passphrase-file", sandbox.path("pass")], [:], 44),
            (["add", "-s", "x", "-a", "y", "-w", SecretLeakTests.secret, "--key-file", sandbox.path("wrong")], [:], 51)
        ]
        for failure in failures {
            let result = try sandbox.vault(failure.arguments, environment: failure.environment)
            let context = "\(failure.arguments) \(failure.environment.keys.sorted()): \(result.stderr)"
            #expect(result.status == failure.status, "\(context)")
            for text in [credential, payload, key, SecretLeakTests.passphrase, SecretLeakTests.secret, wrapped] {
                #expect(!SecretLeakTests.leaks(text, in: result.stderr), "stderr of \(context)")
                #expect(!SecretLeakTests.leaks(text, in: result.stdoutText), "stdout of \(context)")
            }
        }
    }
}
