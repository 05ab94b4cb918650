import Foundation
import Testing

/// A variable name an item's writer chose reaches a job's environment only when the job named it
/// (`--only NAME,…`, `--prefix PREFIX`): a deny-list of dangerous names cannot be complete, and
/// PYTHONWARNINGS with BROWSER makes the next `python3` run the writer's command.
@Suite struct EnvAllowListTests {
    /// A vault whose group ci holds a deploy token and two items a writer of ci planted: their
    /// derived names are PYTHONWARNINGS and BROWSER, which together make python3 run a command.
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let planted = [
            ("pythonwarnings", "", "ignore::antigravity.x"),
            ("browser", "", "/bin/sh -c \"touch \(sandbox.path("pwned"))\" #%s"),
            ("app", "token", "tok-1234-abcd")
        ]
        for (service, account, secret) in planted {
            let add = try sandbox.vault(["add", "-s", service, "-a", account, "--group", "ci"], stdin: Array(secret.utf8))
            guard add.status == 0 else { throw SandboxError.setupFailed(add.stderr) }
        }
        return sandbox
    }

    static func job(_ envStep: String) -> [UInt8] {
        Array(
            """
            name: deploy
            on: push
            jobs:
              deploy:
                runs-on: ubuntu-latest
                steps:
                  - name: secrets
                    run: \(envStep) || echo "$?" > "$HOME/env-status"
                  - name: later step
                    run: python3 -c 'import os; print("token=" + os.environ.get("APP_TOKEN", "unset"))' > "$HOME/later"

            """.utf8)
    }

    static func runJob(_ sandbox: Sandbox) throws -> RunResult {
        try sandbox.run("/usr/bin/python3", [Sandbox.packageRoot + "/Tests/VaultCLITests/Support/run-github-job.py", "job.yml"])
    }

    @Test func aGitHubJobThatNamesNothingExportsNothing() throws {
        let sandbox = try Self.sandbox()
        try sandbox.write("job.yml", Self.job("vault env --group ci --format github"))
        let job = try Self.runJob(sandbox)
        #expect(job.status == 0, "\(job.stderr)")
        #expect(sandbox.read("pwned") == nil, "the next step's python3 ran the planted BROWSER command")
        #expect(String(decoding: sandbox.read("env-status") ?? [], as: UTF8.self) == "2\n")
        #expect(String(decoding: sandbox.read("later") ?? [], as: UTF8.self) == "token=unset\n", "nothing was exported")
        #expect(job.stderr.contains("--only") && job.stderr.contains("--prefix"), "\(job.stderr)")
    }

    @Test func aGitHubJobGetsOnlyTheNamesItAccepts() throws {
        for accepted in ["--only APP_TOKEN", "--prefix APP_"] {
            let sandbox = try Self.sandbox()
            try sandbox.write("job.yml", Self.job("vault env --group ci \(accepted) --format github"))
            let job = try Self.runJob(sandbox)
            #expect(job.status == 0, "\(job.stderr)")
            #expect(sandbox.read("pwned") == nil, "\(accepted): the next step's python3 ran the planted BROWSER command")
            #expect(sandbox.read("env-status") == nil, "\(accepted): \(job.stderr)")
            #expect(String(decoding: sandbox.read("later") ?? [], as: UTF8.self) == "token=tok-1234-abcd\n", "\(accepted)")
        }
    }

    @Test func runEnvGroupSetsOnlyTheNamesTheJobAccepts() throws {
        let sandbox = try Self.sandbox()
        let script = "import os; print('token=' + os.environ.get('APP_TOKEN', 'unset'))"
        let refused = try sandbox.vault(["run", "--env-group", "ci", "--", "python3", "-c", script])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("vault: hint:") && refused.stderr.contains("--only"), "\(refused.stderr)")
        #expect(sandbox.read("pwned") == nil, "python3 under vault run ran the planted BROWSER command")
        let accepted = try sandbox.vault(["run", "--env-group", "ci", "--only", "APP_TOKEN", "--", "python3", "-c", script])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdoutText == "token=<concealed by vault>\n")
        #expect(sandbox.read("pwned") == nil, "python3 under vault run ran the planted BROWSER command")
    }

    @Test func theDenyListStaysASecondLine() throws {
        let sandbox = try Self.sandbox()
        // Accepting a name the deny-list holds is not enough: --allow-env-name must say it too.
        let env = try sandbox.vault(["env", "--group", "ci", "--only", "PYTHONWARNINGS,BROWSER,APP_TOKEN", "--format", "shell"])
        #expect(env.status == 1, "\(env.stderr)")
        #expect(!env.stdoutText.contains("PYTHONWARNINGS") && !env.stdoutText.contains("BROWSER"))
        #expect(env.stdoutText.contains("APP_TOKEN"))
        for name in [
            "PYTHONWARNINGS", "BROWSER", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "RUBYLIB", "PERLLIB", "NODE_PATH",
            "ZDOTDIR", "PYTHONHOME", "LESSOPEN", "OPENSSL_CONF", "CC", "MAKEFLAGS", "GOFLAGS", "RUSTC_WRAPPER",
            "ACTIONS_ALLOW_UNSECURE_COMMANDS"
        ] {
            let add = try sandbox.vault(["add", "-s", "x", "-a", name.lowercased(), "--env-name", name], stdin: Array("v".utf8))
            #expect(add.status == 2, "\(name) was accepted as an env name")
        }
    }

    @Test func aNameTheJobAcceptsThatNoItemSetsIsAWarning() throws {
        let sandbox = try Self.sandbox()
        let env = try sandbox.vault(["env", "--group", "ci", "--only", "APP_TOKEN", "--only", "DB_PASSWORD", "--format", "shell"])
        #expect(env.status == 0, "\(env.stderr)")
        #expect(env.stdoutText == "export APP_TOKEN='tok-1234-abcd'\n")
        #expect(env.stderr.contains("vault: warning: no item of group \"ci\" sets DB_PASSWORD"), "\(env.stderr)")
    }

    @Test func badAllowListsAreUsageErrors() throws {
        let sandbox = try Self.sandbox()
        for bad in [["--only", "APP-TOKEN"], ["--only", ""], ["--prefix", ""], ["--prefix", "9A"]] {
            let env = try sandbox.vault(["env", "--group", "ci", "--format", "shell"] + bad)
            #expect(env.status == 2, "\(bad)")
            #expect(env.stderr.hasPrefix("vault: error: "), "\(bad): \(env.stderr)")
            #expect(env.stderr.contains("vault: hint: "), "\(bad): \(env.stderr)")
            #expect(env.stdoutText.isEmpty)
        }
    }

    @Test func jsonPrintsDataAndNeedsNoAllowList() throws {
        let sandbox = try Self.sandbox()
        let env = try sandbox.vault(["env", "--group", "ci", "--format", "json"])
        // The protected names are still left out (exit 1), the rest printed.
        #expect(env.status == 1, "\(env.stderr)")
        #expect(env.stdoutText.contains("\"APP_TOKEN\"") && !env.stdoutText.contains("BROWSER"))
    }
}
