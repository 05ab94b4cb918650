import Foundation
import Testing

/// The owner's side of the allow-list (`vault group allow-env`): names a group's items may set when
/// the job names none, kept in the team log, which only the owner's trust key signs, and taken only
/// by a reader that pins the trust fingerprint. A writer of ci — a read-write credential, or a full
/// member — can neither set them nor forge them: the names it planted stay refused.
@Suite struct OwnerAllowedEnvNamesTests {
    static let script =
        "import os; print('token=' + os.environ.get('APP_TOKEN', 'unset') + ' browser=' + os.environ.get('BROWSER', 'unset'))"

    /// The planted vault of `EnvAllowListTests`, with the owner's names `APP_*` for ci, a read-write
    /// credential of ci (ci.cred), and the trust fingerprint; the sandbox's environment has no key
    /// file after it: each command names its unlock (`job`).
    static func sandbox(allowing names: String? = "APP_*", fullMember: Bool = false) throws -> (Sandbox, trust: String) {
        let sandbox = try EnvAllowListTests.sandbox()
        func must(_ arguments: [String]) throws -> RunResult {
            let result = try sandbox.vault(arguments)
            guard result.status == 0 else { throw SandboxError.setupFailed("\(arguments): \(result.stderr)") }
            return result
        }
        if let names { _ = try must(["group", "allow-env", "ci", names]) }
        _ = try must(["grant", "--group", "ci", "--out", sandbox.path("ci.cred")])
        if fullMember {
            _ = try must(["identity", "new", "--out", sandbox.path("bob.id")])
            let recipient =
                try must(["identity", "show", "--identity", sandbox.path("bob.id")]).stdoutText
                .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            _ = try must(["member", "add", "bob", recipient])
        }
        let trust = try must(["trust"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        sandbox.environment["VAULT_KEY_FILE"] = nil
        return (sandbox, trust)
    }

    /// The environment of a job that reads with the read-write credential of ci, pinned to `trust` if given.
    static func job(_ sandbox: Sandbox, trust: String? = nil) -> [String: String] {
        var environment = ["VAULT_CREDENTIAL": sandbox.path("ci.cred")]
        environment["VAULT_TRUST"] = trust
        return environment
    }

    /// What the pinned job takes from ci with no --only or --prefix: `vault env` and `vault run`.
    static func expectJobTakesOnlyAppNames(_ sandbox: Sandbox, trust: String, _ comment: Comment) throws {
        let env = try sandbox.vault(["env", "--group", "ci", "--format", "shell"], environment: Self.job(sandbox, trust: trust))
        #expect(env.status == 0, "\(comment): \(env.stderr)")
        #expect(env.stdoutText.contains("APP_TOKEN="), "\(comment): \(env.stdoutText)")
        #expect(!env.stdoutText.contains("BROWSER") && !env.stdoutText.contains("PYTHONWARNINGS"), "\(comment): \(env.stdoutText)")
        let run = try sandbox.vault(
            ["run", "--env-group", "ci", "--", "python3", "-c", script], environment: Self.job(sandbox, trust: trust))
        #expect(run.status == 0, "\(comment): \(run.stderr)")
        #expect(run.stdoutText == "token=<concealed by vault> browser=unset\n", "\(comment): \(run.stdoutText)")
        #expect(sandbox.read("pwned") == nil, "\(comment): python3 ran the planted BROWSER command")
    }

    @Test func theOwnersNamesLetAPinnedJobTakeMatchingNamesOnly() throws {
        let (sandbox, trust) = try Self.sandbox()
        try Self.expectJobTakesOnlyAppNames(sandbox, trust: trust, "the owner's APP_*")
        // The job's own names still win: --only narrows to what it names (and the deny-list stays a second line).
        let only = try sandbox.vault(
            ["env", "--group", "ci", "--only", "BROWSER", "--format", "shell"], environment: Self.job(sandbox, trust: trust))
        #expect(
            only.status == 1 && !only.stdoutText.contains("APP_TOKEN") && !only.stdoutText.contains("BROWSER"),
            "\(only.stdoutText)\(only.stderr)")
    }

    @Test func withoutAPinTheOwnersNamesDoNotCount() throws {
        let (sandbox, _) = try Self.sandbox()
        let env = try sandbox.vault(["env", "--group", "ci", "--format", "shell"], environment: Self.job(sandbox))
        #expect(env.status == 2 && env.stdout.isEmpty, "\(env.stderr)")
        #expect(env.stderr.contains("vault: hint:") && env.stderr.contains("VAULT_TRUST"), "\(env.stderr)")
    }

    @Test func neitherTheJobNorTheOwnerNamedAnyIsRefusedWithBothWays() throws {
        let (sandbox, trust) = try Self.sandbox(allowing: nil)
        let env = try sandbox.vault(["env", "--group", "ci", "--format", "shell"], environment: Self.job(sandbox, trust: trust))
        #expect(env.status == 2 && env.stdout.isEmpty, "\(env.stderr)")
        for way in ["--only", "--prefix", "vault group allow-env ci"] { #expect(env.stderr.contains(way), "\(way): \(env.stderr)") }
    }

    @Test func aReadWriteCredentialOfCiCannotSetTheNames() throws {
        let (sandbox, trust) = try Self.sandbox()
        let set = try sandbox.vault(["group", "allow-env", "ci", "BROWSER,PYTHONWARNINGS"], environment: Self.job(sandbox, trust: trust))
        #expect(set.status == 30, "\(set.stderr)")
        let clear = try sandbox.vault(["group", "allow-env", "ci", ""], environment: Self.job(sandbox, trust: trust))
        #expect(clear.status == 30, "\(clear.stderr)")
        try Self.expectJobTakesOnlyAppNames(sandbox, trust: trust, "after the credential tried")
    }

    @Test func aFullMemberCannotSetTheNames() throws {
        let (sandbox, trust) = try Self.sandbox(fullMember: true)
        let bob = ["VAULT_IDENTITY": sandbox.path("bob.id"), "VAULT_TRUST": trust]
        let set = try sandbox.vault(["group", "allow-env", "ci", "BROWSER,PYTHONWARNINGS,APP_*"], environment: bob)
        #expect(set.status == 30, "\(set.stderr)")
        try Self.expectJobTakesOnlyAppNames(sandbox, trust: trust, "after the full member tried")
    }

    /// The names are in clear in the file, so a writer of ci can edit them (and the unkeyed header
    /// checksum) in its copy: the head the trust statement signs changes with them.
    @Test func namesForgedInTheFileAreRefused() throws {
        let (sandbox, trust) = try Self.sandbox()
        // A name the deny-list lets through, planted by the writer, which the forged names would take.
        let plant = try sandbox.vault(
            ["add", "-s", "evil", "-a", "", "--group", "ci"], stdin: Array("planted".utf8), environment: Self.job(sandbox))
        #expect(plant.status == 0, "\(plant.stderr)")
        let forge = """
            import hashlib, sys
            path = sys.argv[1]
            data = bytearray(open(path, 'rb').read())
            at = data.find(b'APP_*')
            assert at > 0 and data.find(b'APP_*', at + 1) < 0, 'the clear names appear once'
            end = next(p for p in range(at, len(data) - 32) if hashlib.sha256(data[:p]).digest() == data[p:p + 32])
            data[at:at + 5] = b'EVIL*'
            data[end:end + 32] = hashlib.sha256(data[:end]).digest()
            open(path, 'wb').write(data)
            """
        let forged = try sandbox.run("/usr/bin/python3", ["-c", forge, sandbox.vaultPath])
        #expect(forged.status == 0, "\(forged.stderr)")
        let pinned = try sandbox.vault(["env", "--group", "ci", "--format", "shell"], environment: Self.job(sandbox, trust: trust))
        #expect(!pinned.stdoutText.contains("EVIL"), "the forged names let the planted EVIL through: \(pinned.stdoutText)")
        #expect(pinned.status == 51, "\(pinned.stderr)")
        let evil = "import os; print('evil=' + os.environ.get('EVIL', 'unset'))"
        let run = try sandbox.vault(["run", "--env-group", "ci", "--", "python3", "-c", evil], environment: Self.job(sandbox, trust: trust))
        #expect(!run.stdoutText.contains("evil=<concealed"), "the forged names let the planted EVIL through: \(run.stdoutText)")
        #expect(run.status == 51, "\(run.stderr)")
        let unpinned = try sandbox.vault(["env", "--group", "ci", "--format", "shell"], environment: Self.job(sandbox))
        #expect(unpinned.status == 2 && unpinned.stdout.isEmpty, "\(unpinned.stderr)")
        #expect(sandbox.read("pwned") == nil)
    }

    @Test func malformedNamesAreUsageErrorsAndChangeNothing() throws {
        let sandbox = try EnvAllowListTests.sandbox()
        let before = sandbox.read(sandbox.vaultPath)
        for bad in [
            ["group", "allow-env", "ci"], ["group", "allow-env", "ci", "APP-*"], ["group", "allow-env", "ci", "A,,B"],
            ["group", "allow-env", "ci", "9*"], ["group", "create", "x", "APP_*"]
        ] {
            let result = try sandbox.vault(bad)
            #expect(result.status == 2, "\(bad): \(result.stderr)")
            #expect(result.stderr.hasPrefix("vault: error:") && result.stderr.contains("vault: hint:"), "\(bad): \(result.stderr)")
        }
        let missing = try sandbox.vault(["group", "allow-env", "nope", "APP_*"])
        #expect(missing.status != 0 && missing.stderr.contains("nope"), "\(missing.stderr)")
        #expect(sandbox.read(sandbox.vaultPath) == before, "a refused allow-env changed the vault")
    }
}
