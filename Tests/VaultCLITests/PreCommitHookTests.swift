import Foundation
import Testing

/// The repository's `.pre-commit-hooks.yaml`, run by Debian's `pre-commit` the way
/// its users run it (`pre-commit try-repo` against this checkout, offline): a staged
/// file holding a secret fails the commit, and so does a locked vault.
@Suite struct PreCommitHookTests {
    /// A sandbox whose vault holds LeakPreventionTests' secrets, and a repository `repo` with `app.env` staged.
    static func repository(staging content: String) throws -> Sandbox {
        let sandbox = try LeakPreventionTests.sandbox()
        try LeakPreventionTests.repository(sandbox, appEnv: content)
        return sandbox
    }

    static func tryHook(_ sandbox: Sandbox, environment: [String: String] = [:]) throws -> RunResult {
        try sandbox.run(
            "/bin/sh", ["-c", "cd repo && pre-commit try-repo \"$HOOKS\" vault-scan"],
            environment: ["HOOKS": Sandbox.packageRoot, "PRE_COMMIT_HOME": sandbox.path("pre-commit-cache")]
                .merging(environment) { $1 })
    }

    @Test func aStagedSecretFailsTheHookAndACleanFilePassesIt() throws {
        let leaking = try Self.repository(staging: "GITHUB_TOKEN=\(LeakPreventionTests.token)\n")
        let refused = try Self.tryHook(leaking)
        #expect(refused.status == 1, "\(refused.stdoutText)\(refused.stderr)")
        #expect(refused.stdoutText.contains("app.env"))
        #expect(!refused.stdoutText.contains(LeakPreventionTests.token), "the hook printed the secret")

        let clean = try Self.repository(staging: "DEBUG=1\n")
        let passed = try Self.tryHook(clean)
        #expect(passed.status == 0, "\(passed.stdoutText)\(passed.stderr)")
    }

    @Test func aLockedVaultFailsTheHookWithItsHint() throws {
        let sandbox = try Self.repository(staging: "DEBUG=1\n")
        sandbox.environment["VAULT_KEY_FILE"] = nil
        let locked = try Self.tryHook(sandbox, environment: ["CI": "true"])
        #expect(locked.status != 0, "a locked vault passed the hook: \(locked.stdoutText)")
        #expect(locked.stdoutText.contains("vault: hint:"), "\(locked.stdoutText)")
    }
}
