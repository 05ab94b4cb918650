import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Hostile input to every command: each row is a shell command line run in a
/// sandbox that holds a vault with one item, the exit code it must give, and
/// words its error must hold. Every row must leave the vault's bytes as they
/// were and print no raw control character on stderr.
@Suite struct BadInputMatrixTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let command: String
        let status: Int32
        let message: String
        var testDescription: String { command.count > 70 ? String(command.prefix(67)) + "..." : command }

        init(_ command: String, _ status: Int32, _ message: String) {
            self.command = command
            self.status = status
            self.message = message
        }
    }

    /// A value of N bytes, made by the shell so argv and stdin can hold it.
    static func big(_ bytes: Int) -> String { "\"$(head -c \(bytes) /dev/zero | tr '\\0' a)\"" }
    static let invalidUTF8 = "\"$(printf 'bad\\377name')\""
    static let escape = "\"$(printf 'esc\\033[2Jname')\""

    static let rows: [Row] = [
        // Huge values.
        Row("head -c 2000000 /dev/zero | vault add -s huge -a x", 2, "invalid secret: it is 2000000 bytes"),
        Row("head -c 2000000 /dev/zero >big; vault add -s huge -a x --secret-file big", 2, "the limit is"),
        Row("head -c 2000000 /dev/zero | vault update -s github -a ci", 2, "invalid secret"),
        Row("vault add -s \(big(70_000)) -a x -w s", 2, "invalid service: it is 70000 bytes"),
        Row("vault add -s huge -a \(big(70_000)) -w s", 2, "invalid account"),
        Row("vault add -s huge -a x -l \(big(70_000)) -w s", 2, "invalid label"),
        Row("vault update -s github -a ci -j \(big(70_000))", 2, "invalid comment"),
        Row("vault get -s \(big(100_000)) -a x", 44, "no item"),
        Row("vault add -s huge -a x --generate --length 99999999999999999999", 2, "--length"),
        // Names that are not UTF-8, or hold control characters.
        Row("vault add -s \(invalidUTF8) -a x -w s", 2, "not valid UTF-8"),
        Row("vault get -s github -a \(invalidUTF8)", 2, "not valid UTF-8"),
        Row("vault update -s \(invalidUTF8) -a ci --label x", 2, "not valid UTF-8"),
        Row("vault delete -s \(invalidUTF8) -a ci", 2, "not valid UTF-8"),
        Row("vault list --service \(invalidUTF8)", 2, "not valid UTF-8"),
        Row("vault \(invalidUTF8)", 2, "not valid UTF-8"),
        Row("vault get -s \(escape) -a nobody", 44, "no item for service \"esc\\u{1b}[2Jname\""),
        Row("vault delete -s \(escape) -a nobody", 44, "no item"),
        Row("vault \(escape)", 2, "unknown command"),
        Row("vault get --\(escape)", 2, "unknown option"),
        Row("vault add -s github -a ci --group \(escape) -w s", 2, "group"),
        // Missing files.
        Row("vault --key-file missing get -s github -a ci", 1, "no such file"),
        Row("unset VAULT_KEY_FILE; vault --passphrase-file missing get -s github -a ci", 1, "\"missing\": no such file"),
        Row("vault add -s new -a x --secret-file missing", 1, "\"missing\": no such file"),
        Row("vault --vault missing/x.vault get -s github -a ci", 50, "no vault at"),
        Row("vault --vault missing/x.vault list", 50, "no vault at"),
        Row("vault --vault missing/x.vault status", 50, "no vault at"),
        Row("vault --vault missing/x.vault unlock --raw", 50, "no vault at"),
        Row("vault passwd --new-passphrase-file missing", 1, "\"missing\": no such file"),
        // Directories where files belong.
        Row("mkdir -p d; vault --key-file d get -s github -a ci", 1, "\"d\": it is a directory"),
        Row("mkdir -p d; unset VAULT_KEY_FILE; vault --passphrase-file d get -s github -a ci", 1, "\"d\": it is a directory"),
        Row("mkdir -p d; vault add -s new -a x --secret-file d", 1, "\"d\": it is a directory"),
        Row("mkdir -p d; vault --vault d get -s github -a ci", 2, "\"d\" is a directory, not a vault file"),
        Row("mkdir -p d; vault --vault d add -s new -a x -w s", 2, "\"d\" is a directory, not a vault file"),
        Row("mkdir -p d; vault --vault new/x.vault init --key-file d", 1, "\"d\": it is a directory"),
        Row("mkdir -p d; vault --vault d/x.vault init --key-file d", 1, "\"d\": it is a directory"),
        // No credential and no terminal; a bad session token.
        Row("unset VAULT_KEY_FILE; vault add -s new -a x -w s", 36, "the vault is locked"),
        Row("unset VAULT_KEY_FILE; VAULT_SESSION=garbage vault get -s github -a ci", 36, "VAULT_SESSION"),
        Row("unset VAULT_KEY_FILE; vault unlock --raw", 36, "prompt"),
        Row("vault lock --bogus", 2, "unknown option"),
        Row("vault status --json --bogus", 2, "unknown option"),
        Row("vault help \(escape)", 2, "unknown command"),
        // Clipboard, edit, generator rules, one-time codes, fields.
        Row("vault get -s github -a ci --field \(escape)", 2, "invalid value"),
        Row("vault add -s new -a x --generate --charset \(escape)", 2, "unknown class"),
        Row("vault add -s new -a x --generate --charset \"[$(printf '\\033')]\"", 2, "printable ASCII"),
        Row("vault add -s new -a x --generate --require \(escape)", 2, "unknown class"),
        Row("vault add -s new -a x --generate --words \(escape)", 2, "invalid --words"),
        Row("printf 'esc\\033[2J' | vault add --otp -s new -a x", 2, "not a one-time code secret"),
        Row("vault otp -s github -a ci", 1, "holds no one-time code secret"),
        Row("vault otp -s github -a ci --at \(escape)", 2, "invalid --at"),
        Row("vault run --env X=vault://github/ci?totp -- true", 2, "is not a query"),
        Row("vault run --env X=\"vault://github/ci?$(printf '\\033')\" -- true", 2, "control character"),
        Row("CI=1 vault edit -s github -a ci", 36, "interaction is off"),
        Row("vault get -s github -a ci --clip --clip-timeout \(escape)", 2, "invalid --clip-timeout"),
        Row("CI=1 vault get -s github -a ci --clip", 1, "--clip is off when CI is set")
    ]

    @Test(arguments: rows)
    func hostileInputLeavesTheVaultAlone(row: Row) throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        sandbox.environment["CI"] = "true"
        try sandbox.vault(["add", "-s", "github", "-a", "ci"], stdin: Array("token".utf8))
        let before = sandbox.read(sandbox.vaultPath)
        let result = try sandbox.run("/bin/sh", ["-c", row.command])
        #expect(result.status == row.status, "exit \(result.status), expected \(row.status): \(result.stderr)")
        #expect(result.stderr.contains(row.message), "stderr lacks \(row.message.debugDescription): \(result.stderr)")
        #expect(result.stderr.contains("vault: error: ") && result.stderr.contains("vault: hint: "), "\(result.stderr)")
        #expect(
            !result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" },
            "raw control character on stderr: \(result.stderr.debugDescription)")
        let unchanged = sandbox.read(sandbox.vaultPath) == before
        #expect(unchanged, "the vault changed")
    }
}
