import Foundation
import Testing

/// The README's CI-from-a-repository flow with real git: a laptop commits a
/// vault to a bare remote, a fresh clone under umask 022 in another HOME runs
/// the README's GitHub Actions job and shell job exactly as written.
@Suite struct RepositoryFlowTests {
    static let deployToken = "dtok_9f8e7d6c5b4a39281706"

    /// The fenced block after `<!-- ci-recipe: NAME -->` in README.md.
    static func recipe(_ name: String) throws -> String {
        let readme = try String(contentsOfFile: Sandbox.packageRoot + "/README.md", encoding: .utf8)
        let marker = try #require(readme.range(of: "<!-- ci-recipe: \(name) -->"))
        let afterMarker = readme[marker.upperBound...]
        let fenceStart = try #require(afterMarker.range(of: "```"))
        let bodyStart = try #require(afterMarker[fenceStart.upperBound...].firstIndex(of: "\n"))
        let fenceEnd = try #require(afterMarker[bodyStart...].range(of: "\n```"))
        return String(afterMarker[afterMarker.index(after: bodyStart)..<fenceEnd.lowerBound]) + "\n"
    }

    /// Runs `script` with sh in `directory` (relative to HOME) under umask 022.
    @discardableResult
    static func sh(
        _ sandbox: Sandbox, _ script: String, in directory: String = ".",
        environment: [String: String] = [:], expect status: Int32 = 0
    ) throws -> RunResult {
        let result = try sandbox.run("/bin/sh", ["-c", "umask 022 && cd \(directory) && \(script)"], environment: environment)
        #expect(result.status == status, "\(script): exit \(result.status); stderr: \(result.stderr)")
        return result
    }

    static let gitIdentity = [
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"
    ]

    /// A laptop HOME with a bare remote and a clone holding the job's files, pushed.
    static func laptopWithProject() throws -> Sandbox {
        let laptop = try Sandbox()
        try sh(
            laptop,
            "git init -q --bare -b main remote.git && git clone -q remote.git project 2>/dev/null && mkdir -p project/.github/workflows",
            environment: gitIdentity)
        let deploy = """
            #!/bin/sh
            echo "deploying with $DEPLOY_TOKEN"
            if env | grep -E '^VAULT_(SESSION|CREDENTIAL|KEY_FILE|PASSPHRASE_FILE|IDENTITY)='; then exit 9; fi
            vault get -s postgres -a ci --group ci >/dev/null 2>&1 && exit 8
            vault get -s postgres -a ci --group ci >/dev/null 2>&1 || echo "child: vault get exit $?"
            """
        try laptop.write("project/deploy.sh", Array(deploy.utf8), mode: 0o755)
        try laptop.write("project/config.yml.tpl", Array("token: {{ vault://ci/deploy/ci }}\n".utf8), mode: 0o644)
        try laptop.write("project/.gitignore", Array(try recipe("gitignore").utf8), mode: 0o644)
        try laptop.write("project/.github/workflows/deploy.yml", Array(try recipe("github-actions").utf8), mode: 0o644)
        try laptop.write("project/ci-job.sh", Array(try recipe("shell-job").utf8), mode: 0o755)
        try sh(
            laptop, "git add -A && git commit -q -m project && git push -q origin main 2>/dev/null", in: "project", environment: gitIdentity
        )
        try laptop.write("pass", Array("laptop passphrase".utf8))
        return laptop
    }

    @Test func readmeRecipeRunsFromAFreshClone() throws {
        let laptop = try Self.laptopWithProject()
        var owner = RepositoryFlowTests.gitIdentity
        owner["VAULT_PASSPHRASE_FILE"] = laptop.path("pass")
        owner["DEPLOY_TOKEN"] = RepositoryFlowTests.deployToken
        try Self.sh(laptop, try Self.recipe("laptop"), in: "project", environment: owner)
        #expect(try Self.sh(laptop, "git status --porcelain --ignored", in: "project").stdoutText == "")
        let credential = String(decoding: try #require(laptop.read("ci.cred")), as: UTF8.self)
        #expect(credential.hasPrefix("vault-credential-v1:"))

        let runner = try Sandbox()
        let remote = laptop.path("remote.git")
        try Self.sh(runner, "git clone -q \(remote) project 2>/dev/null")
        #expect(try Self.sh(runner, "stat -c %a .vault/ci.vault", in: "project").stdoutText == String("644\n"))
        let runJob =
            "python3 \(Sandbox.packageRoot)/Tests/VaultCLITests/Support/run-github-job.py .github/workflows/deploy.yml "
            + "--secret \"VAULT_CREDENTIAL=$CREDENTIAL\" --dump-env ../exported.json"
        let job = try runner.run("/bin/sh", ["-c", "umask 022 && cd project && " + runJob], environment: ["CREDENTIAL": credential])
        #expect(job.status == 0, "GitHub job: \(job.stderr)\n\(job.stdoutText)")
        Self.expectMaskedDeploy(job)
        let exported = String(decoding: try #require(runner.read("exported.json")), as: UTF8.self)
        #expect(exported.contains(Self.deployToken), "vault env --format github gave later steps: \(exported)")
        #expect(job.stdoutText.contains("::add-mask::"))
        try Self.expectConfig(runner)

        try Self.sh(runner, "rm config.yml", in: "project")
        let shellJob = try Self.sh(runner, "./ci-job.sh", in: "project", environment: ["VAULT_CREDENTIAL": credential])
        Self.expectMaskedDeploy(shellJob)
        try Self.expectConfig(runner)

        let history = try Self.sh(runner, "git log --all --stat --format=%H", in: "project").stdoutText
        for leak in ["device.key", ".lock", ".session", ".afu", "ci.cred"] {
            #expect(!history.contains(leak), "git history holds \(leak): \(history)")
        }
    }

    static func expectMaskedDeploy(_ result: RunResult) {
        #expect(result.stdoutText.contains("deploying with <concealed by vault>"), "\(result.stdoutText)\n\(result.stderr)")
        #expect(result.stdoutText.contains("child: vault get exit 36"), "\(result.stdoutText)")
        // GitHub hides its ::add-mask:: commands from the log; every other line must not hold the token.
        let logged = result.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("::add-mask::") }
        #expect(!logged.contains { $0.contains(deployToken) } && !result.stderr.contains(deployToken), "\(logged)")
    }

    static func expectConfig(_ runner: Sandbox) throws {
        #expect(runner.read("project/config.yml") == Array("token: \(deployToken)\n".utf8))
        #expect(try sh(runner, "stat -c %a config.yml", in: "project").stdoutText == "600\n")
        #expect(try sh(runner, "git status --porcelain", in: "project").stdoutText == "", "only ignored outputs")
    }

    /// Earlier versions kept device.key beside the vault, and the README's flow
    /// committed it: the owner's first unlock moves every device-bound item to a
    /// new key outside the work tree, and the committed key opens nothing more.
    @Test func deviceKeyCommittedByAnEarlierVersionIsReplaced() throws {
        let laptop = try Sandbox()
        try laptop.write("pass", Array("laptop passphrase".utf8))
        var owner = Self.gitIdentity
        owner["VAULT_PATH"] = laptop.path("project/.vault/ci.vault")
        owner["VAULT_PASSPHRASE_FILE"] = laptop.path("pass")
        try Self.sh(
            laptop,
            """
            git init -q project && vault init --kdf-cost testing && \
            printf bound-secret | vault add -s disk -a me --class when-unlocked-this-device-only && \
            printf always-secret | vault add -s cron -a me --class always-this-device-only && \
            mv .local/share/vault/device-keys/*.key project/.vault/device.key && \
            cd project && git add -A && git commit -q -m "as earlier versions left it"
            """, environment: owner)
        let committedKey = try #require(laptop.read("project/.vault/device.key"))
        try Self.sh(laptop, "chmod 644 project/.vault/device.key")  // as a checkout makes it
        // Reading uses the committed key, changes nothing, and says what will happen.
        let get = try Self.sh(laptop, "vault get -s disk -a me", environment: owner)
        #expect(get.stdoutText == "bound-secret")
        #expect(get.stderr.contains("lies in a git work tree, so it is public; the owner's next change"), "\(get.stderr)")
        #expect(try Self.sh(laptop, "git status --porcelain", in: "project").stdoutText == "")
        // The first change moves the vault off it, in the same write.
        let add = try Self.sh(laptop, "printf later | vault add -s later -a me --class always", environment: owner)
        #expect(
            add.stderr.contains("lay in a git work tree; made a new one outside it, sealed 2 device-bound or always items again"),
            "\(add.stderr)")
        let status = try Self.sh(laptop, "git status --porcelain", in: "project").stdoutText
        #expect(status == " M .vault/ci.vault\n D .vault/device.key\n", "\(status)")
        let keyName = try Self.sh(laptop, "ls .local/share/vault/device-keys").stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(keyName.hasSuffix(".key") && !keyName.hasSuffix(".pending"))
        #expect(laptop.read(".local/share/vault/device-keys/" + keyName) != committedKey)
        #expect(try Self.sh(laptop, "vault get -s cron -a me", environment: owner).stdoutText == "always-secret")
        let again = try Self.sh(laptop, "vault get -s disk -a me", environment: owner)
        #expect(again.stdoutText == "bound-secret" && again.stderr == "", "moved once: \(again.stderr)")

        // Whoever holds the committed key and the current file, with the passphrase even, opens no device-bound item.
        let thief = try Sandbox()
        try thief.write("pass", Array("laptop passphrase".utf8))
        try thief.write("stolen.vault", try #require(laptop.read("project/.vault/ci.vault")))
        try Self.sh(thief, "mkdir -p .local/share/vault/device-keys")
        try thief.write(".local/share/vault/device-keys/" + keyName, committedKey)
        let stolen = ["VAULT_PATH": thief.path("stolen.vault"), "VAULT_PASSPHRASE_FILE": thief.path("pass")]
        for service in ["disk", "cron"] {
            let result = try thief.vault(["get", "-s", service, "-a", "me"], environment: stolen)
            #expect(result.status == 93 && result.stdout.isEmpty, "\(service): \(result.status) \(result.stdoutText)")
        }
    }
}
