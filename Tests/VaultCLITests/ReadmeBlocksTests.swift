import Foundation
import Testing

/// The README's shell blocks, typed in order: `Support/readme-blocks.py` runs each ```sh block on a
/// pseudo-terminal in one throwaway HOME, answering vault's prompts as a person would, and fails at
/// the first line that does not exit as the README says. A block that cannot run here carries the
/// visible first line `# not run by the README test: REASON`; the script prints each such skip
/// with its reason, and this test prints that output.
@Suite struct ReadmeBlocksTests {
    @Test func everyShellBlockOfTheReadmeRunsAsTyped() throws {
        let sandbox = try Sandbox()
        // What the README takes its reader to bring: the tokens it stores, and the file the tour's update reads.
        try sandbox.write("new-token.txt", Array("ghp_readme_new_token".utf8))
        let brought = ["GITHUB_TOKEN": "ghp_readme_token", "DEPLOY_TOKEN": "dtok_readme", "TOKEN": "readme-token"]
        let result = try sandbox.run("/usr/bin/python3", [Sandbox.packageRoot + "/Tests/VaultCLITests/Support/readme-blocks.py",
                                                          Sandbox.packageRoot + "/README.md"], environment: brought)
        for line in result.stdoutText.split(separator: "\n") where line.hasPrefix("skipped the README block") { print(line) }
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
        #expect(result.stdoutText.contains("ran the README block at line"), "no block ran: \(result.stdoutText)")
    }
}
