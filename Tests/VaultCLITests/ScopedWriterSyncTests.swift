import Foundation
import Testing

/// A read-write scoped member cannot merge (its keys open its groups only): when the remote moved
/// on, its `vault sync` exits 30 saying so in its own words, before it commits anything, and the
/// documented way forward — a branch of its own, which the owner merges — brings its change in
/// (docs/TEAMS.md, "A scoped writer's changes"). End to end on the team of `TeamSyncTests.makeTeam()`.
@Suite struct ScopedWriterSyncTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    @Test func aScopedWritersSyncThatNeedsAMergeStrandsNothing() throws {
        let team = try Sync.makeTeam()
        let alice = team.alice
        let carol = try Person("carol")
        try alice.mustVault(["member", "add", "carol", try carol.makeIdentity(), "--group", "ci"])
        try Sync.sync(alice)
        try TeamLogSyncTests.cloneAndPin(carol, team)

        try carol.mustVault(["update", "-s", "deploy", "-a", "ci", "--group", "ci", "-w", "ci-token-by-carol"])
        try alice.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-2"])
        try Sync.sync(alice)
        let headBefore = try carol.head()
        let sync = try carol.vault(["sync"])
        Sync.expectStatus(sync, 30, "carol, a scoped writer: vault sync that needs a merge")
        #expect(sync.stderr.contains("cannot merge") && !sync.stderr.contains("trust fingerprint"), "sync's own words: \(sync.stderr)")
        #expect(sync.stderr.contains("nothing was committed") && sync.stderr.contains("refs/heads/"), "the way forward: \(sync.stderr)")
        #expect(try carol.head() == headBefore, "carol's refused sync committed")
        #expect(try carol.git(["status", "--porcelain", "--", "team.vault"]).stdoutText != "", "carol's change left the work tree")

        // The way the hint gives: a branch of her own, which the owner merges.
        try carol.mustGit(["commit", "-q", "-m", "carol rotates the ci token", "--", "team.vault"])
        try carol.mustGit(["push", "-q", "origin", "HEAD:refs/heads/carol-ci"])
        try alice.mustGit(["fetch", "-q", "origin"])
        Sync.expectStatus(
            try alice.git(["merge", "-q", "--no-edit", "origin/carol-ci"]), 0, "alice: git merge of carol's branch through the driver")
        try Sync.sync(alice)
        try Sync.expectSecret(alice, "deploy", "ci", group: "ci", "ci-token-by-carol")
        try carol.mustGit(["fetch", "-q", "origin"])
        try carol.mustGit(["reset", "-q", "--hard", "origin/main"])
        try Sync.expectSecret(carol, "deploy", "ci", group: "ci", "ci-token-by-carol")
    }

    /// `vault sync --branch NAME`: the scoped writer's change committed and pushed to a branch of its
    /// own, merging nothing; the owner merges it; the writer's next plain sync fast-forwards. A name
    /// git does not take is 2, and a change made on a file the remote has since re-keyed is refused
    /// before anything is committed.
    @Test func aScopedWriterPushesToABranchTheOwnerMerges() throws {
        let team = try Sync.makeTeam()
        let alice = team.alice
        let carol = try Person("carol")
        try alice.mustVault(["member", "add", "carol", try carol.makeIdentity(), "--group", "ci"])
        try Sync.sync(alice)
        try TeamLogSyncTests.cloneAndPin(carol, team)

        try carol.mustVault(["update", "-s", "deploy", "-a", "ci", "--group", "ci", "-w", "ci-token-by-carol"])
        try alice.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-2"])
        try Sync.sync(alice)
        let badName = try carol.vault(["sync", "--branch", "no..name"])
        Sync.expectStatus(badName, 2, "carol: vault sync --branch with a name git refuses")
        #expect(badName.stderr.contains("not a branch name"), "\(badName.stderr)")
        let pushed = try carol.vault(["sync", "--branch", "carol-ci"])
        Sync.expectStatus(pushed, 0, "carol: vault sync --branch carol-ci")
        #expect(pushed.stderr.contains("origin/carol-ci") && pushed.stderr.contains("merge"), "\(pushed.stderr)")
        #expect(try carol.git(["status", "--porcelain", "--", "team.vault"]).stdoutText == "", "the change is committed")

        try alice.mustGit(["fetch", "-q", "origin"])
        Sync.expectStatus(try alice.git(["merge", "-q", "--no-edit", "origin/carol-ci"]), 0, "alice: git merge of carol's branch")
        try Sync.sync(alice)
        try Sync.expectSecret(alice, "deploy", "ci", group: "ci", "ci-token-by-carol")
        try Sync.expectSecret(alice, "github", "alice", "gh-2")
        Sync.expectStatus(try carol.vault(["sync"]), 0, "carol: vault sync once the owner merged her branch (a fast-forward)")
        try Sync.expectSecret(carol, "deploy", "ci", group: "ci", "ci-token-by-carol")

        // The remote re-keys ci; carol's change made on the file from before is refused, nothing committed.
        try carol.mustVault(["update", "-s", "deploy", "-a", "ci", "--group", "ci", "-w", "ci-token-3"])
        try alice.mustVault(["revoke", "--group", "ci"])
        try Sync.sync(alice)
        let head = try carol.head()
        let stale = try carol.vault(["sync", "--branch", "carol-ci-2"])
        Sync.expectStatus(stale, 1, "carol: vault sync --branch on a file the remote re-keyed since")
        #expect(stale.stderr.contains("retired") && stale.stderr.contains("nothing was committed"), "\(stale.stderr)")
        #expect(try carol.head() == head, "the refused sync committed")
    }
}
