import Foundation
import Testing

/// Whoever may write a group chooses the names of the variables `vault env` and
/// `vault run --env-group` export; a name that changes what later programs do
/// (BASH_ENV, LD_PRELOAD, GIT_*, GITHUB_ENV …) must not turn that into running
/// code in the job. Names the job's author writes stay allowed.
@Suite struct ProtectedVariableTests {
    /// A vault whose group ci holds a token and an item named so that its derived
    /// variable is BASH_ENV, with a value bash would run when it starts.
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let planted = "$(touch \(sandbox.path("pwned")))"
        for (service, account, secret) in [("bash", "env", planted), ("deploy", "token", "tok-1234-abcd")] {
            let add = try sandbox.vault(["add", "-s", service, "-a", account, "--group", "ci"], stdin: Array(secret.utf8))
            guard add.status == 0 else { throw SandboxError.setupFailed(add.stderr) }
        }
        return sandbox
    }

    @Test func aGitHubJobNeverRunsAPlantedBashEnv() throws {
        let sandbox = try Self.sandbox()
        try sandbox.write(
            "job.yml",
            Array(
                """
                name: deploy
                on: push
                jobs:
                  deploy:
                    runs-on: ubuntu-latest
                    steps:
                      - name: secrets
                        run: vault env --group ci --only BASH_ENV,DEPLOY_TOKEN --format github || echo "$?" > "$HOME/env-status"
                      - name: later step
                        run: echo "token=${DEPLOY_TOKEN:-unset}" > "$HOME/later"

                """.utf8))
        let job = try sandbox.run("/usr/bin/python3", [Sandbox.packageRoot + "/Tests/VaultCLITests/Support/run-github-job.py", "job.yml"])
        #expect(job.status == 0, "\(job.stderr)")
        #expect(sandbox.read("pwned") == nil, "a later bash step ran the planted BASH_ENV")
        #expect(String(decoding: sandbox.read("env-status") ?? [], as: UTF8.self) == "1\n")
        #expect(String(decoding: sandbox.read("later") ?? [], as: UTF8.self) == "token=tok-1234-abcd\n", "the rest was exported")
        #expect(job.stderr.contains("skipped BASH_ENV") || job.stdoutText.contains("skipped BASH_ENV"))
    }

    @Test func anEvaluatedShellExportNeverSetsAPlantedBashEnv() throws {
        let sandbox = try Self.sandbox()
        let shell = try sandbox.run(
            "/bin/bash",
            ["-c", "eval \"$(vault env --group ci --only BASH_ENV,DEPLOY_TOKEN --format shell)\"; bash -c 'echo \"$DEPLOY_TOKEN\"'"])
        #expect(sandbox.read("pwned") == nil, "bash ran the planted BASH_ENV")
        #expect(shell.stdoutText == "tok-1234-abcd\n")
        #expect(shell.stderr.contains("vault: error: skipped 1 item whose variable name is protected: BASH_ENV"))
    }

    @Test func theJobAuthorMayStillAllowOrWriteAProtectedName() throws {
        let sandbox = try Self.sandbox()
        let allowed = try sandbox.vault(["env", "--group", "ci", "--format", "json", "--allow-env-name", "BASH_ENV"])
        #expect(allowed.status == 0)
        #expect(allowed.stdoutText.contains("\"BASH_ENV\""))
        // A name written by the job's author is the author's: references keep working under any name.
        let run = try sandbox.vault([
            "run", "--env", "GIT_ASKPASS_TOKEN=vault://ci/deploy/token", "--", "sh", "-c", "test \"$GIT_ASKPASS_TOKEN\" = tok-1234-abcd"
        ])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func runEnvGroupSkipsAProtectedNameAndFailsAfterTheCommand() throws {
        let sandbox = try Self.sandbox()
        let run = try sandbox.vault([
            "run", "--env-group", "ci", "--only", "BASH_ENV,DEPLOY_TOKEN", "--", "bash", "-c",
            "echo \"token=$DEPLOY_TOKEN\" > \"$HOME/ran\""
        ])
        #expect(run.status == 1)
        #expect(sandbox.read("pwned") == nil, "the child bash ran the planted BASH_ENV")
        #expect(String(decoding: sandbox.read("ran") ?? [], as: UTF8.self) == "token=tok-1234-abcd\n")
        #expect(run.stderr.contains("--allow-env-name BASH_ENV"))
    }

    @Test func addAndUpdateRefuseAProtectedEnvName() throws {
        let sandbox = try Self.sandbox()
        let before = sandbox.read(".local/share/vault/default.vault")
        for name in ["BASH_ENV", "LD_PRELOAD", "GIT_SSH_COMMAND", "GITHUB_ENV", "RUNNER_TEMP", "PATH", "NODE_OPTIONS"] {
            let add = try sandbox.vault(["add", "-s", "x", "-a", name.lowercased(), "--env-name", name], stdin: Array("v".utf8))
            #expect(add.status == 2, "\(name)")
            #expect(add.stderr.hasPrefix("vault: error: --env-name \(name) is protected"), "\(add.stderr)")
            let update = try sandbox.vault(["update", "-s", "deploy", "-a", "token", "--group", "ci", "--keep-secret", "--env-name", name])
            #expect(update.status == 2, "\(name)")
        }
        #expect(sandbox.read(".local/share/vault/default.vault") == before)
        let ordinary = try sandbox.vault(["add", "-s", "x", "-a", "y", "--env-name", "GITHUB_CI_BOT"], stdin: Array("v".utf8))
        #expect(ordinary.status == 0, "\(ordinary.stderr)")
    }
}
