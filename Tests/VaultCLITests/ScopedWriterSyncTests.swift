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
        Sync.expectStatus(try alice.git(["merge", "-q", "--no-edit", "origin/carol-ci"]), 0, "alice: git merge of carol's branch through the driver")
        try Sync.sync(alice)
        try Sync.expectSecret(alice, "deploy", "ci", group: "ci", "ci-token-by-carol")
        try carol.mustGit(["fetch", "-q", "origin"])
        try carol.mustGit(["reset", "-q", "--hard", "origin/main"])
        try Sync.expectSecret(carol, "deploy", "ci", group: "ci", "ci-token-by-carol")
    }
}
