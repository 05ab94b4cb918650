import Foundation
import Testing

/// `vault sync` finishes a rebase or cherry-pick git stopped on the vault file (a clone without
/// the merge driver), and abandons a stale one it cannot finish — a rebase stopped while the member
/// was removed — with one line, instead of failing on it forever (docs/TEAMS.md, "What vault sync
/// does"). End to end with real git, on the team of `TeamSyncTests.makeTeam()`.
@Suite struct StoppedOperationSyncTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    static func rebaseInProgress(_ person: Person) throws -> Bool {
        let directory = try person.mustGit(["rev-parse", "--absolute-git-dir"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.fileExists(atPath: directory + "/rebase-merge")
            || FileManager.default.fileExists(atPath: directory + "/rebase-apply")
    }

    /// bob's commit and alice's pushed change both touch team.vault: bob's `git pull --rebase`
    /// (or cherry-pick of his commit onto alice's) stops on it; `vault sync` merges it, goes on to
    /// the end of the operation and pushes: both changes arrive, nothing is left in progress.
    @Test(arguments: ["rebase", "cherry-pick"]) func syncFinishesAStoppedOperation(operation: String) throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try bob.mustGit(["commit", "-q", "-m", "bob's change", "--", "team.vault"])
        try alice.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-by-alice"])
        try Sync.sync(alice)
        if operation == "rebase" {
            #expect(try bob.git(["pull", "--rebase"]).status != 0, "bob: git pull --rebase should stop on team.vault")
            try #require(try Self.rebaseInProgress(bob), "git left no rebase in progress")
        } else {
            try bob.mustGit(["fetch", "-q"])
            try bob.mustGit(["reset", "-q", "--hard", "origin/main"])
            #expect(try bob.git(["cherry-pick", "ORIG_HEAD"]).status != 0, "bob: git cherry-pick should stop on team.vault")
        }

        let sync = try bob.vault(["sync"])
        Sync.expectStatus(sync, 0, "bob: vault sync of a stopped \(operation)")
        #expect(try !Self.rebaseInProgress(bob), "a rebase is still in progress after bob's sync: \(sync.stderr)")
        #expect(try bob.git(["rev-parse", "-q", "--verify", "CHERRY_PICK_HEAD"]).status != 0, "a cherry-pick is still in progress")
        try Sync.expectSettled(bob, team)
        try Sync.expectSecret(bob, "api", "shared", "api-by-bob")
        try Sync.expectSecret(bob, "github", "alice", "gh-by-alice")
        try Sync.sync(alice)
        try Sync.expectSecret(alice, "api", "shared", "api-by-bob")
    }

    /// carol's `git pull --rebase` stopped on team.vault while alice had removed her: its upstream side
    /// opens with nothing she holds. alice adds her back. carol's `vault sync` aborts the stale rebase
    /// in one line and syncs afresh (exit 0); the sync after that finds nothing to abort.
    @Test func syncAbandonsAStaleRebaseItCannotFinish() throws {
        let team = try Sync.makeTeam()
        let alice = team.alice
        let carol = try TeamLogSyncTests.addCarol(team)
        try TeamLogSyncTests.cloneAndPin(carol, team)
        let recipient = try #require(try TeamLogSyncTests.members(alice)["carol"])
        try carol.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-carol"])
        try carol.mustGit(["commit", "-q", "-m", "carol's change", "--", "team.vault"])
        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove carol")
        try Sync.sync(alice)

        #expect(try carol.git(["pull", "--rebase"]).status != 0, "carol: git pull --rebase should stop on team.vault")
        let stuck = try carol.vault(["sync"])
        #expect(stuck.status != 0, "carol, removed, synced: \(stuck.stderr)")
        if try !Self.rebaseInProgress(carol) { _ = try carol.git(["pull", "--rebase"]) }
        try #require(try Self.rebaseInProgress(carol), "the scenario needs carol's rebase stopped: \(stuck.stderr)")

        try alice.mustVault(["member", "add", "carol", recipient])
        try Sync.sync(alice)
        let again = try carol.vault(["sync"])
        Sync.expectStatus(again, 0, "carol, added back: vault sync with the stale rebase")
        let aborted = again.stderr.split(separator: "\n").filter { $0.contains("aborted it") }
        #expect(aborted.count == 1 && aborted.allSatisfy { $0.hasPrefix("vault: warning:") }, "one warning line: \(again.stderr)")
        #expect(try !Self.rebaseInProgress(carol), "a rebase is still in progress: \(again.stderr)")
        guard again.status == 0 else { return }
        try Sync.expectSettled(carol, team)
        let second = try carol.vault(["sync"])
        Sync.expectStatus(second, 0, "carol: a second vault sync")
        #expect(!second.stderr.contains("aborted it"), "the second sync aborted something: \(second.stderr)")
        let seen = Set(
            [try Sync.get(carol, "api", "shared"), try Sync.get(carol, "api", "shared", theirs: true)].filter { $0.status == 0 }.map(
                \.stdoutText))
        #expect(seen.contains("api-by-carol"), "carol's change is lost: \(seen)")
    }

    /// The merge driver killed after its write (found by TeamConvergenceTests, seed 11): git stops
    /// with the driver's merged file in the work tree. A read there (bob looks before he syncs) must not
    /// take that provisional file for the vault: `vault sync` finishes the merge from git's stages
    /// with a file at the same counters and another write id, and bob's next change must go through,
    /// not be refused as a sibling of what his machine has seen.
    @Test func aReadInAMergeTheKilledDriverLeftRecordsNothing() throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        Sync.expectStatus(try bob.vault(["sync", "--setup"]), 0, "bob: vault sync --setup")
        let driver = try bob.mustGit(["config", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        // The driver's whole merge written, then the process gone as SIGKILL leaves it (git sees a failure).
        try bob.sandbox.write("killed-after-write.sh", Array("#!/bin/sh\n\(driver.dropLast(12)) \"$@\"\nexit 137\n".utf8), mode: 0o755)
        try Sync.divergeForPull(puller: bob, other: alice)
        let pull = try bob.git([
            "-c", "merge.vault.driver=\(bob.sandbox.path("killed-after-write.sh")) %O %A %B %P", "pull", "--no-rebase", "--no-edit"
        ])
        #expect(pull.status != 0, "bob: git pull with the driver failing after its write should stop: \(pull.stderr)")
        try #require(try bob.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status == 0, "git left no merge in progress")

        Sync.expectStatus(try bob.vault(["list"]), 0, "bob: vault list in the stopped merge")
        try Sync.sync(bob)
        try Sync.expectSettled(bob, team)
        let change = try bob.vault(["add", "-s", "after-merge", "-a", "bob", "-w", "after-merge-1"])
        Sync.expectStatus(change, 0, "bob: a change after his sync finished the merge")
        try TeamSyncTests.expectBothEdits(bob)
    }
}
