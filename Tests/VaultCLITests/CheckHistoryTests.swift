import Foundation
import Testing

/// `vault check-history`, the pre-receive hook shipped in contrib/hooks and the GitHub Actions job
/// in docs/TEAMS.md, against a bare repository: every ordinary push is accepted, and a push that
/// brings a commit whose vault file drops team log entries — a revert of a removal, a merge
/// `-s ours`, a forced update — is refused, with no key at hand.
@Suite struct CheckHistoryTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    /// The remote's pre-receive hook: contrib's, with this build's vault.
    static func installHook(in remote: String) throws {
        let hook = remote + "/hooks/pre-receive"
        let script = "#!/bin/sh\nVAULT_BIN='\(Sandbox.vaultBinary)' exec '\(Sandbox.packageRoot)/contrib/hooks/pre-receive'\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: hook))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook)
    }

    /// The job of docs/TEAMS.md's "A guard for git servers and CI" (the yaml block after its marker).
    static func workflow() throws -> String {
        let teams = try String(contentsOfFile: Sandbox.packageRoot + "/docs/TEAMS.md", encoding: .utf8)
        let afterMarker = try #require(teams.range(of: "<!-- check-history job -->"), "docs/TEAMS.md lacks the check-history job")
        let rest = teams[afterMarker.upperBound...]
        let start = try #require(rest.range(of: "```yaml\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    /// The job run in `person`'s clone as a pull request into main, vault on PATH.
    static func runJob(_ person: Person) throws -> RunResult {
        try person.sandbox.write("check.yml", Array(try workflow().utf8))
        let bin = URL(fileURLWithPath: Sandbox.vaultBinary).deletingLastPathComponent().path
        return try person.sandbox.run(
            "/bin/sh",
            ["-c", "cd \(person.project) && python3 \(Sandbox.packageRoot)/Tests/VaultCLITests/Support/run-github-job.py ../check.yml"],
            environment: person.environment(
                without: ["VAULT_PASSPHRASE_FILE", "VAULT_IDENTITY"],
                adding: ["PATH": "\(bin):/usr/bin:/bin", "GITHUB_BASE_REF": "main"]))
    }

    @Test func theHookAndTheJobRefuseWhatDropsTeamLogEntriesAndAcceptTheRest() throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        try Self.installHook(in: team.remote)
        _ = try TeamLogSyncTests.addCarol(team)
        // Ordinary pushes: a member's sync, the owner's removal, a new branch.
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-2"])
        try Sync.sync(bob)
        try Sync.sync(alice)
        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove carol")
        try Sync.sync(alice)
        try Sync.sync(bob)
        try bob.mustGit(["push", "-q", "origin", "HEAD:refs/heads/topic"])
        Sync.expectStatus(
            try bob.vault(["check-history"], without: ["VAULT_IDENTITY"]), 0, "bob: vault check-history of a clean branch, no key")
        Sync.expectStatus(try Self.runJob(bob), 0, "the GitHub job on a clean branch")

        // A revert of the removal, pushed plainly: refused, the remote as it was.
        let before = try team.remoteHead()
        try bob.mustGit(["revert", "--no-edit", "HEAD"])
        let check = try bob.vault(["check-history"], without: ["VAULT_IDENTITY"])
        Sync.expectStatus(check, 49, "bob: vault check-history of a revert of the removal, no key")
        let revert = String(try bob.head().prefix(7))
        #expect(check.stderr.contains("drops team log entries") && check.stderr.contains(revert), "\(check.stderr)")
        Sync.expectStatus(try Self.runJob(bob), 49, "the GitHub job on a revert of the removal")
        let push = try bob.git(["push", "origin", "HEAD:main"])
        #expect(
            push.status != 0 && push.stderr.contains("drops team log entries"), "the hook lets the revert in: \(push.status) \(push.stderr)"
        )
        #expect(try team.remoteHead() == before, "the refused push moved the remote")
        let newBranch = try bob.git(["push", "origin", "HEAD:refs/heads/other"])
        #expect(newBranch.status != 0, "the hook lets the revert in on a new branch: \(newBranch.stderr)")

        // A branch cut before the removal that merges main with -s ours (its own file kept): refused too.
        try bob.mustGit(["reset", "-q", "--hard", "origin/main"])
        try bob.mustGit(["checkout", "-q", "-b", "old", "HEAD~1"])
        try bob.sandbox.write("project/NOTES.md", Array("old branch\n".utf8), mode: 0o644)
        try bob.mustGit(["add", "NOTES.md"])
        try bob.mustGit(["commit", "-q", "-m", "notes on the old branch"])
        try bob.mustGit(["merge", "-q", "-s", "ours", "--no-edit", "main"])
        let ours = try bob.git(["push", "origin", "old:main"])
        #expect(
            ours.status != 0 && ours.stderr.contains("drops team log entries"),
            "the hook lets a merge that drops the removal in: \(ours.stderr)")

        // A forced update back to before the removal: refused.
        let forced = try bob.git(["push", "-f", "origin", "main~1:main"])
        #expect(forced.status != 0 && forced.stderr.contains("forced update"), "the hook lets a forced update in: \(forced.stderr)")
        #expect(try team.remoteHead() == before, "a refused push moved the remote")

        // After all that, ordinary work goes on.
        try bob.mustGit(["checkout", "-q", "main"])
        try bob.mustGit(["reset", "-q", "--hard", "origin/main"])
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-3"])
        try Sync.sync(bob)
        try Sync.sync(alice)
        try Sync.expectSecret(alice, "api", "shared", "api-3")
    }
}
