import Foundation
import Testing

/// The one git runner: git runs in the C locale, and a git that writes much to
/// stderr before its stdout ends never stalls vault (both streams are read together).
@Suite struct GitRunnerTests {
    /// A `git` first on PATH that records its LC_ALL, writes 1 MiB to stderr, then runs the real git.
    static func noisyGit(in sandbox: Sandbox) throws -> [String: String] {
        let bin = sandbox.path("noisy-bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try sandbox.write(
            "noisy-bin/git",
            Array(
                """
                #!/bin/sh
                printf '%s\\n' "${LC_ALL-unset}" >> "$HOME/git-locales"
                head -c 1048576 /dev/zero | tr '\\0' 'w' >&2
                exec /usr/bin/git "$@"

                """.utf8), mode: 0o755)
        return ["PATH": bin + ":" + (sandbox.environment["PATH"] ?? "/usr/bin:/bin"), "LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"]
    }

    @Test func gitRunsInTheCLocaleAndItsStderrNeverStallsAScan() throws {
        let sandbox = try LeakPreventionTests.sandbox()
        try LeakPreventionTests.repository(sandbox, appEnv: "GITHUB_TOKEN=\(LeakPreventionTests.token)\n", commit: "leak")
        let environment = try GitRunnerTests.noisyGit(in: sandbox)

        // ls-files through the runner that waits for git to end.
        let files = try sandbox.vault(["scan", "--skip-ignored", sandbox.path("repo")], environment: environment)
        #expect(files.status == 1, "\(files.stderr.prefix(300))")
        #expect(files.stdoutText.contains("app.env"))
        // rev-list piped into cat-file, then log: the streaming runner.
        let history = try sandbox.vault(["scan", "--git-history", sandbox.path("repo")], environment: environment)
        #expect(history.status == 1, "\(history.stderr.prefix(300))")
        #expect(history.stdoutText.contains("app.env"))

        let locales = String(decoding: sandbox.read("git-locales") ?? [], as: UTF8.self).split(separator: "\n")
        #expect(locales.count >= 4)
        #expect(locales.allSatisfy { $0 == "C" }, "\(locales)")
    }
}
