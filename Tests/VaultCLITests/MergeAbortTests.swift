import Foundation
import Testing

/// `git merge --abort` puts the clone back as it was before the merge: the vault file, HEAD and the
/// index. vault must then work on it as before: the merge driver, which git runs on a temporary copy
/// of the file, must leave nothing behind on this machine (seen counters above the file's, say) that
/// makes the file git restored look rolled back (docs/TEAMS.md, "How a merge works": "A merge records
/// nothing as seen (git may abort it and put the older file back)"). End to end with the built binary
/// and real git, on the team of `TeamSyncTests.makeTeam()`.
@Suite struct MergeAbortTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    /// Exit 0 and no "rolled back" on stderr.
    static func expectWorks(_ result: RunResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            result.status == 0,
            "\(what): exit \(result.status), want 0; stdout \(String(reflecting: result.stdoutText)); stderr: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            !result.stderr.contains("rolled back"), "\(what) says the vault was rolled back: \(result.stderr)",
            sourceLocation: sourceLocation)
    }

    /// `vault sync --accept-log`: the owner reviews the team log entries a join signs, and a test has no
    /// terminal to review them on (for a member, who joins nothing, the flag changes nothing).
    static func syncArguments(_ person: Person) throws -> [String] {
        ["sync", "--accept-log"]
    }

    /// carol, a read-only member of group prod, added by alice and pushed.
    static func addCarol(_ team: TeamSyncTests.Team) throws {
        let carol = try Person("carol")
        try team.alice.mustVault(["member", "add", "carol", try carol.makeIdentity(), "--group", "prod", "--read-only"])
        try Sync.sync(team.alice)
    }

    /// `person` writes NOTES.md (`text`) and commits it, with whatever of team.vault is staged by `paths`.
    static func commitNotes(_ person: Person, _ text: String, with paths: [String] = []) throws {
        try person.sandbox.write("project/NOTES.md", Array(text.utf8), mode: 0o644)
        try person.mustGit(["add", "NOTES.md"] + paths)
        try person.mustGit(["commit", "-q", "-m", "\(person.name)'s notes"])
    }

    /// `puller` runs `git pull` with the merge driver configured: the driver runs on team.vault (it merges,
    /// or leaves it conflicted) and git stops on NOTES.md, which both sides added differently. Then
    /// `git merge --abort`, which must put HEAD and team.vault back as they were.
    static func pullStopsAndIsAborted(_ puller: Person, sourceLocation: SourceLocation = #_sourceLocation) throws {
        Sync.expectDriver(
            try puller.git(["config", "--local", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines),
            sourceLocation: sourceLocation)
        let headBefore = try puller.head()
        let fileBefore = try #require(puller.sandbox.read("project/team.vault"), sourceLocation: sourceLocation)
        let pull = try puller.git(["pull", "--no-rebase", "--no-edit"])
        #expect(
            pull.status != 0, "\(puller.name): git pull should stop on NOTES.md; exit \(pull.status): \(pull.stdoutText)\(pull.stderr)",
            sourceLocation: sourceLocation)
        try #require(
            try puller.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status == 0,
            "git did not stop the merge, so there is nothing to abort: \(pull.stdoutText)\(pull.stderr)", sourceLocation: sourceLocation)
        #expect(
            try puller.git(["ls-files", "-u", "--", "NOTES.md"]).stdoutText != "", "NOTES.md should be in conflict",
            sourceLocation: sourceLocation)

        Sync.expectStatus(try puller.git(["merge", "--abort"]), 0, "\(puller.name): git merge --abort", sourceLocation: sourceLocation)
        #expect(
            try puller.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status != 0, "a merge is still in progress after --abort",
            sourceLocation: sourceLocation)
        #expect(try puller.head() == headBefore, "git merge --abort moved HEAD", sourceLocation: sourceLocation)
        #expect(
            puller.sandbox.read("project/team.vault") == fileBefore, "git merge --abort did not restore team.vault",
            sourceLocation: sourceLocation)
        #expect(try puller.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "", sourceLocation: sourceLocation)
    }

    /// After the abort the clone works as before the pull: `vault list`, `vault add`, and (NOTES.md
    /// settled by taking the remote's) `vault sync`, which merges and pushes. Returns whether sync exited 0.
    @discardableResult
    static func expectCloneWorks(_ puller: Person, _ team: TeamSyncTests.Team, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> Bool
    {
        expectWorks(try puller.vault(["list"]), "\(puller.name): vault list after git merge --abort", sourceLocation: sourceLocation)
        expectWorks(
            try puller.vault(["add", "-s", "after-abort", "-a", puller.name, "-w", "added-after-abort"]),
            "\(puller.name): vault add after git merge --abort", sourceLocation: sourceLocation)
        // NOTES.md: take the remote's, committed alone (team.vault stays for vault sync to commit).
        try puller.mustGit(["checkout", "origin/main", "--", "NOTES.md"], sourceLocation: sourceLocation)
        try puller.mustGit(["commit", "-q", "-m", "the remote's notes win", "--", "NOTES.md"], sourceLocation: sourceLocation)
        let sync = try puller.vault(try syncArguments(puller))
        expectWorks(sync, "\(puller.name): vault sync after git merge --abort", sourceLocation: sourceLocation)
        guard sync.status == 0 else { return false }
        try Sync.expectSettled(puller, team, sourceLocation: sourceLocation)
        try Sync.expectSecret(puller, "after-abort", puller.name, "added-after-abort", sourceLocation: sourceLocation)
        return true
    }

    /// The owner works on two machines, each a clone with the merge driver: on her desktop she removes
    /// carol and revokes group prod (the key epoch rises twice), and pushes; on her laptop, which has
    /// not fetched since, she revokes group ci (once) and commits an item change with git. Her `git
    /// pull` on the laptop runs the driver, which merges onto the desktop's keys (the higher epoch) and
    /// revokes ci there again, on git's temporary copy; git stops on NOTES.md and she aborts. The
    /// laptop's file is back at its own key epoch, below the merged copy's: vault must still open it.
    @Test func afterGitMergeAbortTheOwnersCloneWorksAsBefore() throws {
        let team = try Sync.makeTeam()
        let laptop = team.alice
        try Self.addCarol(team)

        // The same owner on another machine: her passphrase, a HOME and a clone of its own, the driver set up.
        let desktop = try Person("alice-desktop")
        try desktop.sandbox.write("pass", Array("alice's passphrase".utf8))
        desktop.env["VAULT_PASSPHRASE_FILE"] = desktop.sandbox.path("pass")
        try desktop.clone(team.remote)
        Sync.expectStatus(try desktop.vault(["sync", "--setup"]), 0, "alice's desktop: vault sync --setup")
        try Sync.expectSecret(desktop, "github", "alice", "gh-1")

        try Self.commitNotes(desktop, "notes from the desktop\n")
        Sync.expectStatus(
            try desktop.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "desktop: vault member remove carol")
        Sync.expectStatus(try desktop.vault(["revoke", "--group", "prod"]), 0, "desktop: vault revoke --group prod")
        try Sync.sync(desktop)

        Sync.expectStatus(try laptop.vault(["revoke", "--group", "ci"]), 0, "laptop: vault revoke --group ci")
        try laptop.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-from-the-laptop"])
        try Self.commitNotes(laptop, "notes from the laptop\n", with: ["team.vault"])

        try Self.pullStopsAndIsAborted(laptop)
        try Sync.expectSecret(laptop, "api", "shared", "api-from-the-laptop")
        guard try Self.expectCloneWorks(laptop, team) else { return }
        // The desktop gets the laptop's work.
        Self.expectWorks(try desktop.vault(try Self.syncArguments(desktop)), "desktop: vault sync after the laptop's")
        try Sync.expectSecret(desktop, "after-abort", laptop.name, "added-after-abort")
        try Sync.expectSecret(desktop, "api", "shared", "api-from-the-laptop")
    }

    /// The same with a full member pulling: alice removes carol and pushes; bob, who has not fetched,
    /// commits an item change with git and pulls through the driver (which merges onto alice's keys,
    /// and re-keys nothing: a member could not), then aborts.
    @Test func afterGitMergeAbortAMembersCloneWorksAsBefore() throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        try Self.addCarol(team)
        Sync.expectStatus(try bob.vault(["sync", "--setup"]), 0, "bob: vault sync --setup")
        try bob.mustGit(["pull", "-q", "--no-rebase", "--no-edit"])
        try Sync.expectSecret(bob, "github", "alice", "gh-1")

        try Self.commitNotes(alice, "alice's notes\n")
        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove carol")
        try Sync.sync(alice)

        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try Self.commitNotes(bob, "bob's notes\n", with: ["team.vault"])

        try Self.pullStopsAndIsAborted(bob)
        try Sync.expectSecret(bob, "api", "shared", "api-by-bob")
        guard try Self.expectCloneWorks(bob, team) else { return }
        Self.expectWorks(try alice.vault(["sync"]), "alice: vault sync after bob's")
    }
}
