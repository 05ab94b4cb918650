import Foundation
import Testing

/// `vault env` read back by the programs that consume each format, and
/// `vault inject`'s all-or-nothing output file.
@Suite struct EnvInjectTests {
    /// Values that trip up quoting: quotes of both kinds, $, backslashes,
    /// newlines, #, spaces, Unicode, a delimiter look-alike.
    static let values: [(service: String, account: String, envName: String?, value: String)] = [
        ("github", "ci-bot", nil, "ghp_plainToken123"),
        ("quotes", "x", "QUOTES", #"it's "quoted" `cmd` $(x) $HOME \n \\ end"#),
        ("pem", "key", "PEM_KEY", "-----BEGIN KEY-----\nline 'two' \"x\"\n\n-----END KEY-----"),
        ("hash", "x", nil, "value # not a comment  "),
        ("unicode", "", nil, "café ☕ EOF\nEOF"),
        ("crlf", "x", nil, "ghadelimiter_\r\nwindows")
    ]

    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        for item in values {
            var arguments = ["add", "-s", item.service, "-a", item.account, "--group", "ci"]
            if let name = item.envName { arguments += ["--env-name", name] }
            let add = try sandbox.vault(arguments, stdin: Array(item.value.utf8))
            guard add.status == 0 else { throw SandboxError.setupFailed(add.stderr) }
        }
        // An item of another group that `--group ci` must leave out.
        _ = try sandbox.vault(["add", "-s", "other", "-a", "x"], stdin: Array("other-secret".utf8))
        return sandbox
    }

    static var expected: [String: String] {
        var result: [String: String] = [:]
        for item in values {
            // The default name: SERVICE_ACCOUNT upper-cased, other characters as _.
            let derived = (item.account.isEmpty ? item.service : "\(item.service)_\(item.account)").uppercased().replacingOccurrences(
                of: "-", with: "_")
            result[item.envName ?? derived] = item.value
        }
        return result
    }

    /// The names these tests' job accepts: every one it expects.
    static var accepted: [String] { ["--only", expected.keys.sorted().joined(separator: ",")] }

    @Test func shellFormatIsReadBackByBashSource() throws {
        let sandbox = try EnvInjectTests.sandbox()
        let env = try sandbox.vault(["env", "--group", "ci", "--format", "shell"] + EnvInjectTests.accepted)
        #expect(env.status == 0, "\(env.stderr)")
        try sandbox.write("env.sh", env.stdout)
        for (name, value) in EnvInjectTests.expected {
            let read = try sandbox.run("/bin/bash", ["-c", "source ./env.sh && printf %s \"$\(name)\""])
            #expect(read.stdoutText == value, "\(name)")
        }
        #expect(!env.stdoutText.contains("other-secret"))
    }

    @Test func jsonFormatIsValidForPythonAndExact() throws {
        let sandbox = try EnvInjectTests.sandbox()
        let env = try sandbox.vault(["env", "--group", "ci", "--format", "json"])
        #expect(env.status == 0, "\(env.stderr)")
        let tool = try sandbox.run("/usr/bin/python3", ["-m", "json.tool"], stdin: env.stdout)
        #expect(tool.status == 0, "\(tool.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(tool.stdout)) as? [String: String]
        #expect(object == EnvInjectTests.expected)
    }

    @Test func dotenvRefusesValuesItCannotQuoteForEveryReaderAndPrintsNothing() throws {
        let sandbox = try EnvInjectTests.sandbox()
        let env = try sandbox.vault(["env", "--group", "ci"] + EnvInjectTests.accepted)
        #expect(env.status == 2)
        #expect(env.stdout.isEmpty)
        #expect(
            env.stderr.contains(
                "vault: error: 4 secrets hold a ', a \\, a line break or ${, which --format dotenv cannot write so that bash and python-dotenv read the same value; nothing was printed"
            ), "\(env.stderr)")
        for name in ["QUOTES", "PEM_KEY", "UNICODE", "CRLF_X"] { #expect(env.stderr.contains("  \(name)\n")) }
        #expect(env.stderr.contains("vault: hint: use --format shell (for sh, bash, zsh) or --format json"))
        for item in EnvInjectTests.values { #expect(!env.stderr.contains(item.value)) }

        // What it does print is single-quoted: `vault run --env-file` reads it back.
        let plain = try sandbox.vault(["env", "--group", "default", "--only", "OTHER_X"])
        #expect(plain.stdoutText == "OTHER_X='other-secret'\n", "\(plain.stderr)")
    }

    @Test func githubFormatMasksAndAppendsHeredocsToGitHubEnv() throws {
        let sandbox = try EnvInjectTests.sandbox()
        try sandbox.write("github_env", Array("EARLIER=kept\n".utf8))
        let env = try sandbox.vault(
            ["env", "--group", "ci", "--format", "github"] + EnvInjectTests.accepted,
            environment: ["GITHUB_ENV": sandbox.path("github_env")])
        #expect(env.status == 0, "\(env.stderr)")
        let file = String(decoding: sandbox.read("github_env") ?? [], as: UTF8.self)
        var expected = EnvInjectTests.expected
        expected["EARLIER"] = "kept"
        #expect(try parseGitHubEnv(file) == expected)
        // Every value, and every line of a multi-line value that holds secret, is masked before it
        // is exported; the armour lines, the same in every key, are not (the runner splits a
        // multi-line mask into its lines, so the whole value is not sent either).
        let masks = Set(env.stdoutText.split(separator: "\n").map(String.init))
        #expect(masks.contains("::add-mask::ghp_plainToken123"))
        #expect(masks.contains("::add-mask::line 'two' \"x\""))
        #expect(!masks.contains { $0.contains("-----BEGIN KEY-----") || $0.contains("-----END KEY-----") }, "\(masks)")
        #expect(env.stdoutText.split(separator: "\n").allSatisfy { $0.hasPrefix("::add-mask::") && $0.count >= "::add-mask::".count + 4 })
        // Two runs choose different delimiters.
        let again = try sandbox.vault(
            ["env", "--group", "ci", "--format", "github"] + EnvInjectTests.accepted,
            environment: ["GITHUB_ENV": sandbox.path("github_env2")])
        #expect(again.status == 0)
        let delimiters = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("PEM_KEY<<") } }
        #expect(delimiters(file) != delimiters(String(decoding: sandbox.read("github_env2") ?? [], as: UTF8.self)))

        let unset = try sandbox.vault(["env", "--format", "github", "--prefix", "GITHUB_"])
        #expect(unset.status == 2)
        #expect(unset.stderr.contains("$GITHUB_ENV, which is not set"))
    }

    @Test func clashingNamesAndBadNamesAreRefused() throws {
        let sandbox = try EnvInjectTests.sandbox()
        _ = try sandbox.vault(["add", "-s", "github", "-a", "ci-bot"], stdin: Array("second".utf8))
        let clash = try sandbox.vault(["env", "--format", "json"])
        #expect(clash.status == 2)
        #expect(clash.stderr.contains("2 items would set GITHUB_CI_BOT"))
        let bad = try sandbox.vault(["add", "-s", "x", "-a", "y", "--env-name", "1BAD", "-w", "v"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("invalid --env-name \"1BAD\""))
        let unknown = try sandbox.vault(["env", "--format", "yaml"])
        #expect(unknown.status == 2)
        #expect(try sandbox.vault(["update", "-s", "github", "-a", "ci-bot", "--group", "default", "--env-name", "GH2"]).status == 0)
        #expect(try sandbox.vault(["env", "--format", "shell", "--only", "GH2"]).stdoutText.contains("export GH2='second'"))
    }

    // MARK: inject

    @Test func injectWritesA0600FileAtomically() throws {
        let sandbox = try EnvInjectTests.sandbox()
        try sandbox.write(
            "config.tpl", Array("token: {{ vault://ci/github/ci-bot }}\nkey: {{vault://ci/pem/key}}\nkeep: {{ not.a.reference }}\n".utf8))
        try sandbox.write("config.yml", Array("old".utf8), mode: 0o644)
        let result = try sandbox.vault(["inject", "-i", sandbox.path("config.tpl"), "-o", sandbox.path("config.yml")])
        #expect(result.status == 0, "\(result.stderr)")
        let pem = EnvInjectTests.values[2].value
        #expect(sandbox.read("config.yml") == Array("token: ghp_plainToken123\nkey: \(pem)\nkeep: {{ not.a.reference }}\n".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.path("config.yml"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let toStdout = try sandbox.vault(["inject", "-i", "-"], stdin: Array("x={{ vault://ci/github/ci-bot }}".utf8))
        #expect(toStdout.stdoutText == "x=ghp_plainToken123")
    }

    @Test func injectWithMissingReferencesLeavesNoFile() throws {
        let sandbox = try EnvInjectTests.sandbox()
        try sandbox.write("t.tpl", Array("a={{ vault://ci/github/ci-bot }}\nb={{ vault://nope/x }}\nc={{ vault://ci/nope/y }}\n".utf8))
        let result = try sandbox.vault(["inject", "-i", sandbox.path("t.tpl"), "-o", sandbox.path("out.txt")])
        #expect(result.status == 44)
        #expect(result.stderr.contains("2 secret references cannot be resolved; nothing was written"))
        #expect(result.stderr.contains("t.tpl:2: vault://nope/x: no such item"))
        #expect(result.stderr.contains("t.tpl:3: vault://ci/nope/y: no such item"))
        #expect(sandbox.read("out.txt") == nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.home)
        #expect(!files.contains { $0.hasPrefix("out.txt") }, "\(files)")

        try sandbox.write("bad.tpl", Array("x\n{{ vault://unclosed".utf8))
        let bad = try sandbox.vault(["inject", "-i", sandbox.path("bad.tpl"), "-o", sandbox.path("out.txt")])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.tpl:2: \"{{ vault://\" is never closed"))
        #expect(sandbox.read("out.txt") == nil)
    }
}

/// Reads a $GITHUB_ENV file the way the GitHub Actions runner does
/// (SetEnvFileCommandExtension): `NAME=VALUE` lines, and `NAME<<DELIMITER`
/// followed by lines up to one that is exactly DELIMITER.
func parseGitHubEnv(_ text: String) throws -> [String: String] {
    struct Malformed: Error { var line: String }
    var result: [String: String] = [:]
    var lines = text.components(separatedBy: "\n")[...]
    while let line = lines.popFirst() {
        if line.isEmpty { continue }
        let equals = line.range(of: "=")
        let heredoc = line.range(of: "<<")
        if let equals, heredoc == nil || equals.lowerBound < heredoc!.lowerBound {
            result[String(line[..<equals.lowerBound])] = String(line[equals.upperBound...])
        } else if let heredoc {
            let name = String(line[..<heredoc.lowerBound])
            let delimiter = String(line[heredoc.upperBound...])
            var value: [String] = []
            var closed = false
            while let next = lines.popFirst() {
                if next == delimiter {
                    closed = true
                    break
                }
                value.append(next)
            }
            guard closed else { throw Malformed(line: line) }
            result[name] = value.joined(separator: "\n")
        } else {
            throw Malformed(line: line)
        }
    }
    return result
}
