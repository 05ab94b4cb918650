import Foundation
import Testing

/// A change to a vault file while git holds an operation unfinished in its work tree — a rebase
/// (`git pull --rebase`), `git am`, a cherry-pick, a revert, as well as a merge — would be lost
/// when the operation goes on (its next step merges from the index over the work-tree file) or is
/// aborted: vault refuses it (2) from git's files, names the operation and how to finish it, and
/// leaves the file as it was. A `REBASE_HEAD` left behind by a finished rebase is no such operation.
/// End to end with real git, on the team of `TeamSyncTests.makeTeam()` (bob's clone has no driver).
@Suite struct UnfinishedGitOperationTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    /// bob tries `vault add` and `vault update`: both exit 2 naming `operation` and its way out, the file unchanged.
    static func expectWritesRefused(
        _ bob: Person, during operation: String, hint: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try #require(bob.sandbox.read("project/team.vault"), sourceLocation: sourceLocation)
        let add = try bob.vault(["add", "-s", "during", "-a", "bob", "-w", "lost-otherwise"])
        Sync.expectStatus(add, 2, "bob: vault add during \(operation)", sourceLocation: sourceLocation)
        #expect(
            add.stderr.contains("git holds \(operation)") && add.stderr.contains("nothing was changed"),
            "the refusal names \(operation): \(add.stderr)", sourceLocation: sourceLocation)
        #expect(
            add.stderr.contains("vault: hint:") && add.stderr.contains(hint), "the hint names \(hint): \(add.stderr)",
            sourceLocation: sourceLocation)
        Sync.expectStatus(
            try bob.vault(["update", "-s", "api", "-a", "shared", "-w", "lost-otherwise"]), 2,
            "bob: vault update during \(operation)", sourceLocation: sourceLocation)
        let unchanged = bob.sandbox.read("project/team.vault") == before
        #expect(unchanged, "a refused write changed the vault file", sourceLocation: sourceLocation)
    }

    /// bob commits a change of team.vault; alice changes it too and syncs; bob fetches. Every way of
    /// bringing one onto the other now stops on team.vault (bob's clone has no merge driver).
    static func divergedTeam() throws -> TeamSyncTests.Team {
        let team = try Sync.makeTeam()
        try team.bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try team.bob.mustGit(["commit", "-q", "-m", "bob's change", "--", "team.vault"])
        try team.alice.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-by-alice"])
        try Sync.sync(team.alice)
        try team.bob.mustGit(["fetch", "-q", "origin"])
        return team
    }

    @Test func writesAreRefusedDuringAStoppedRebaseAmCherryPickOrRevert() throws {
        let team = try Self.divergedTeam()
        let bob = team.bob

        let rebase = try bob.git(["pull", "--rebase"])
        #expect(rebase.status != 0, "bob: git pull --rebase should stop on team.vault: \(rebase.stdoutText)\(rebase.stderr)")
        try Self.expectWritesRefused(bob, during: "a rebase", hint: "git rebase --abort")
        try bob.mustGit(["rebase", "--abort"])

        let apply = try bob.git(["rebase", "--apply", "origin/main"])
        #expect(apply.status != 0, "bob: git rebase --apply should stop on team.vault: \(apply.stdoutText)\(apply.stderr)")
        try Self.expectWritesRefused(bob, during: "a rebase", hint: "git rebase --abort")
        try bob.mustGit(["rebase", "--abort"])

        try bob.sandbox.write("bob.patch", try bob.mustGit(["format-patch", "-1", "--binary", "--stdout", "HEAD"]).stdout)
        try bob.mustGit(["reset", "-q", "--hard", "origin/main"])
        let am = try bob.git(["am", "-3", bob.sandbox.path("bob.patch")])
        #expect(am.status != 0, "bob: git am should stop on team.vault: \(am.stdoutText)\(am.stderr)")
        try Self.expectWritesRefused(bob, during: "a 'git am'", hint: "git am --abort")
        try bob.mustGit(["am", "--abort"])

        let pick = try bob.git(["cherry-pick", "ORIG_HEAD"])
        #expect(pick.status != 0, "bob: git cherry-pick should stop on team.vault: \(pick.stdoutText)\(pick.stderr)")
        try Self.expectWritesRefused(bob, during: "a cherry-pick", hint: "git cherry-pick --abort")
        try bob.mustGit(["cherry-pick", "--abort"])

        // Reverting alice's older change under her newer one stops too.
        try bob.mustGit(["reset", "-q", "--hard", "origin/main"])
        try team.alice.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-by-alice-2"])
        try Sync.sync(team.alice)
        try bob.mustGit(["pull", "-q", "--ff-only"])
        let revert = try bob.git(["revert", "--no-edit", "HEAD~1"])
        #expect(revert.status != 0, "bob: git revert should stop on team.vault: \(revert.stdoutText)\(revert.stderr)")
        try Self.expectWritesRefused(bob, during: "a revert", hint: "git revert --abort")
        try bob.mustGit(["revert", "--abort"])

        // Nothing unfinished: writes go through.
        try bob.mustVault(["add", "-s", "after", "-a", "bob", "-w", "after-1"])
        try Sync.expectSecret(bob, "after", "bob", "after-1")
    }

    /// git 2.39 leaves `REBASE_HEAD` behind after `git rebase --continue`: alone, it is no rebase in progress.
    @Test func aStaleRebaseHeadAloneDoesNotRefuseWrites() throws {
        let team = try Sync.makeTeam()
        let bob = team.bob
        let gitDirectory = try bob.mustGit(["rev-parse", "--absolute-git-dir"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data((try bob.head() + "\n").utf8).write(to: URL(fileURLWithPath: gitDirectory + "/REBASE_HEAD"))
        let add = try bob.vault(["add", "-s", "after-rebase", "-a", "bob", "-w", "kept"])
        Sync.expectStatus(add, 0, "bob: vault add with a stale REBASE_HEAD alone")
        try Sync.expectSecret(bob, "after-rebase", "bob", "kept")
    }
}
