import Foundation
import Testing
import VaultTestSupport

/// git pull (and pull --rebase) with and without the merge driver, locked and unlocked.
extension TeamSyncTests {
    // MARK: - 4. git pull and the merge driver

    /// alice changes github/alice, bob deploy/ci.
    static let edits: [String: (String, String, String)] = [
        "alice": ("github", "alice", "gh-by-alice"), "bob": ("deploy", "ci", "ci-by-bob")
    ]

    /// `other` changes its item and syncs; `puller` changes its item and commits it with git.
    static func divergeForPull(puller: Person, other: Person) throws {
        let (otherService, otherAccount, otherSecret) = edits[other.name]!
        try other.mustVault(["update", "-s", otherService, "-a", otherAccount, "-w", otherSecret])
        try sync(other)
        let (service, account, secret) = edits[puller.name]!
        try puller.mustVault(["update", "-s", service, "-a", account, "-w", secret])
        try puller.mustGit(["commit", "-q", "-m", "\(puller.name)'s change", "--", "team.vault"])
    }

    static func expectBothEdits(_ person: Person, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (service, account, secret) in edits.values {
            try expectSecret(person, service, account, secret, sourceLocation: sourceLocation)
        }
        try expectSecret(person, "api", "shared", "api-1", sourceLocation: sourceLocation)
        try expectNoConflicts(person, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["alice", "bob"]) func gitPullWithTheDriverMergesWhenUnlocked(pullerName: String) throws {
        let team = try Self.makeTeam()
        let (puller, other) = pullerName == "alice" ? (team.alice, team.bob) : (team.bob, team.alice)
        if pullerName == "bob" {
            // bob configures the driver in his clone: .gitattributes already says it, so nothing is committed.
            let before = try puller.head()
            let setup = try puller.vault(["sync", "--setup"])
            Self.expectStatus(setup, 0, "bob: vault sync --setup")
            #expect(try puller.head() == before, "bob's vault sync --setup made a commit")
            Self.expectDriver(
                try puller.git(["config", "--local", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try Self.divergeForPull(puller: puller, other: other)
        let pull = try puller.git(["pull", "--no-rebase", "--no-edit"])
        Self.expectStatus(pull, 0, "\(puller.name): git pull with the merge driver and the key")
        #expect(try puller.git(["ls-files", "-u"]).stdoutText == "", "nothing left conflicted")
        #expect(try puller.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "")
        try Self.expectBothEdits(puller)
        try Self.sync(puller)
        try Self.expectSettled(puller, team)
        try Self.sync(other)
        try Self.expectBothEdits(other)
    }

    /// A pull git stops with the vault file conflicted, then `vault sync` (with the key) finishes it.
    static func finishStoppedPull(_ team: Team, puller: Person, other: Person, pull: RunResult) throws {
        #expect(
            pull.status != 0, "\(puller.name): git pull should stop with a conflict; exit \(pull.status): \(pull.stdoutText)\(pull.stderr)")
        #expect(try puller.git(["ls-files", "-u", "--", "team.vault"]).stdoutText != "", "team.vault should be conflicted in the index")
        let finish = try sync(puller)
        #expect(!finish.stderr.contains("in conflict"), "different items merge cleanly: \(finish.stderr)")
        #expect(
            try puller.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status != 0, "the merge is still in progress: \(finish.stderr)")
        #expect(try puller.git(["ls-files", "-u"]).stdoutText == "", "still conflicted in the index")
        #expect(try puller.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "")
        let parents = try puller.git(["log", "-1", "--format=%P"]).stdoutText.split(separator: " ")
        #expect(parents.count == 2, "the stopped merge is committed as a merge: parents \(parents)")
        try expectBothEdits(puller)
        // The same run goes on to push the merge it finished.
        #expect(try puller.head() == team.remoteHead(), "vault sync finished the merge but did not push it: \(finish.stderr)")
        try expectSettled(puller, team)
        try expectBothEdits(puller)
        try sync(other)
        try expectBothEdits(other)
    }

    @Test func gitPullWithTheDriverWhileLockedStopsAndSyncFinishes() throws {
        let team = try Self.makeTeam()
        try Self.divergeForPull(puller: team.alice, other: team.bob)
        let pull = try team.alice.git(["pull", "--no-rebase", "--no-edit"], without: ["VAULT_PASSPHRASE_FILE"])
        #expect(
            (pull.stderr + pull.stdoutText).contains("vault sync"),
            "the driver's message names vault sync: \(pull.stderr)\(pull.stdoutText)")
        try Self.finishStoppedPull(team, puller: team.alice, other: team.bob, pull: pull)
    }

    @Test func gitPullWithoutTheDriverStopsAndSyncFinishes() throws {
        let team = try Self.makeTeam()
        // bob's clone has .gitattributes but never ran vault sync --setup: no driver, git's binary merge stops.
        #expect(try team.bob.git(["config", "merge.vault.driver"]).status != 0)
        try Self.divergeForPull(puller: team.bob, other: team.alice)
        let pull = try team.bob.git(["pull", "--no-rebase", "--no-edit"])
        try Self.finishStoppedPull(team, puller: team.bob, other: team.alice, pull: pull)
    }

    /// In a rebase git swaps the sides: the driver's "ours" is the upstream, "theirs" the commit replayed.
    @Test func gitPullRebaseWithTheDriverMergesAndSwapsTheSides() throws {
        let team = try Self.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        try Self.divergeForPull(puller: alice, other: bob)
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try Self.sync(bob)
        try alice.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-alice"])
        try alice.mustGit(["commit", "-q", "-m", "alice's api", "--", "team.vault"])
        let pull = try alice.git(["pull", "--rebase"])
        Self.expectStatus(pull, 0, "alice: git pull --rebase with the merge driver and the key")
        #expect(try alice.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "")
        for (service, account, secret) in Self.edits.values { try Self.expectSecret(alice, service, account, secret) }
        // The item both changed: the upstream's (bob's) version is current, alice's own is "theirs".
        #expect(try Self.conflicts(alice) == [Conflict(service: "api", account: "shared", group: "default")])
        try Self.expectSecret(alice, "api", "shared", "api-by-bob")
        try Self.expectSecret(alice, "api", "shared", theirs: true, "api-by-alice")
        Self.expectStatus(try alice.vault(["resolve", "-s", "api", "-a", "shared", "--theirs"]), 0, "resolve --theirs after a rebase")
        try Self.expectSecret(alice, "api", "shared", "api-by-alice")
        try Self.sync(alice)
        try Self.expectSettled(alice, team)
        try Self.sync(bob)
        try Self.expectSecret(bob, "api", "shared", "api-by-alice")
        try Self.expectNoConflicts(bob)
    }
}
