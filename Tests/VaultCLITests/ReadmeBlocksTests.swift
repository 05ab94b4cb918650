import Foundation
import Testing

/// The README's shell blocks, typed in order: `Support/readme-blocks.py` runs each ```sh block on a
/// pseudo-terminal in one throwaway HOME, answering vault's prompts as a person would, and fails at
/// the first line that does not exit as the README says. A block that cannot run here carries the
/// visible first line `# not run by the README test: REASON`; the script prints each such skip
/// with its reason, and this test prints that output and counts them: the count may only go down.
/// The blocks run in a login of their own (a session keyring, as pam_keyinit gives one), as the
/// README's reader types them. A block the README shows run somewhere else (a CI job, a runner, a
/// teammate's clone, a desktop keyring) runs in that place's context, made by `readme-test:` HTML
/// comments above it (not rendered; the script documents them), so its lines still run as written.
@Suite struct ReadmeBlocksTests {
    /// The blocks that carry "# not run by the README test" today (7 of 23, each naming why: the
    /// whole suite, sudo twice, a TPM, other managers' stores, the project's own programs, gh and a
    /// placeholder recipient); lower it when one comes to run.
    static let skippedBlocksAtMost = 7

    @Test func everyShellBlockOfTheReadmeRunsAsTyped() throws {
        let sandbox = try Sandbox()
        try sandbox.login("readme")
        // What the README takes its reader to bring: the tokens it stores, and the file the tour's update reads.
        try sandbox.write("new-token.txt", Array("ghp_readme_new_token".utf8))
        let brought = ["GITHUB_TOKEN": "ghp_readme_token", "DEPLOY_TOKEN": "dtok_readme", "TOKEN": "readme-token"]
        let result = try sandbox.run(
            "/usr/bin/python3",
            [
                Sandbox.packageRoot + "/Tests/VaultCLITests/Support/readme-blocks.py",
                Sandbox.packageRoot + "/README.md"
            ], environment: brought)
        let skipped = result.stdoutText.split(separator: "\n").filter { $0.hasPrefix("skipped the README block") }
        for line in skipped { print(line) }
        print("skipped \(skipped.count) README blocks")
        #expect(skipped.count <= Self.skippedBlocksAtMost, "more README blocks are skipped than before")
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
        #expect(result.stdoutText.contains("ran the README block at line"), "no block ran: \(result.stdoutText)")
    }
}
