import Foundation
import Testing

/// `vault sync` and the team log (issue 32) end to end, with real git and the built binary, on the
/// team of `TeamSyncTests.makeTeam()` (alice the owner, bob a full member without the merge driver
/// in his clone, ci-runner a read-only member): a write while git holds a merge unfinished, a stale
/// merge `vault sync` cannot finish, a hand-resolved merge that drops a removal, what a merge says
/// it did to members and keys, and diverged team logs, which only the owner joins.
@Suite struct TeamLogSyncTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    // MARK: - Helpers

    /// Whether git holds a merge unfinished in the person's clone (MERGE_HEAD exists).
    static func mergeInProgress(_ person: Person) throws -> Bool {
        try person.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status == 0
    }

    /// `vault member list --json` of `person`: name → recipient.
    static func members(_ person: Person, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: String] {
        let result = try person.vault(["member", "list", "--json"])
        #expect(
            result.status == 0, "\(person.name): vault member list --json exited \(result.status): \(result.stderr)",
            sourceLocation: sourceLocation)
        guard result.status == 0 else { return [:] }
        guard let array = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [[String: Any]] else {
            Issue.record(
                "\(person.name): vault member list --json printed no JSON array: \(String(reflecting: result.stdoutText))",
                sourceLocation: sourceLocation)
            return [:]
        }
        var found: [String: String] = [:]
        for object in array {
            if let name = object["name"] as? String, let recipient = object["recipient"] as? String { found[name] = recipient }
        }
        return found
    }

    /// What the remote's main points at, as `git ls-remote` run in the person's clone says.
    static func lsRemote(_ person: Person) throws -> String {
        try person.mustGit(["ls-remote", "origin", "refs/heads/main"]).stdoutText
    }

    /// carol, a full member with an identity of her own, added by alice and synced; bob takes it (a fast-forward).
    static func addCarol(_ team: TeamSyncTests.Team) throws -> Person {
        let carol = try Person("carol")
        try team.alice.mustVault(["member", "add", "carol", try carol.makeIdentity()])
        try Sync.sync(team.alice)
        try team.bob.mustGit(["pull", "-q", "--no-rebase", "--no-edit"])
        try #require(try members(team.bob)["carol"] != nil, "bob's clone should list carol after the pull")
        return carol
    }

    /// A person who clones the team's remote and reads with an identity and the pin.
    static func cloneAndPin(_ person: Person, _ team: TeamSyncTests.Team) throws {
        try person.clone(team.remote)
        person.env["VAULT_TRUST"] = team.trust
    }

    // MARK: - 1. A write while git holds a merge unfinished

    /// git stops a `git pull` on an ordinary file both sides changed: MERGE_HEAD exists. A change to
    /// the vault now would be lost to `git merge --abort`, so vault refuses it (2), says why and names
    /// 'vault sync', and leaves the file as it was; once the merge is aborted, the same add works.
    @Test func aWriteDuringAnUnfinishedMergeIsRefused() throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        try alice.sandbox.write("project/NOTES.md", Array("alice's notes\n".utf8), mode: 0o644)
        try alice.mustGit(["add", "NOTES.md"])
        try alice.mustGit(["commit", "-q", "-m", "alice's notes"])
        try alice.mustGit(["push", "-q"])
        try bob.sandbox.write("project/NOTES.md", Array("bob's notes\n".utf8), mode: 0o644)
        try bob.mustGit(["add", "NOTES.md"])
        try bob.mustGit(["commit", "-q", "-m", "bob's notes"])

        let pull = try bob.git(["pull", "--no-rebase", "--no-edit"])
        #expect(pull.status != 0, "bob: git pull should stop on NOTES.md; exit \(pull.status): \(pull.stdoutText)\(pull.stderr)")
        try #require(try Self.mergeInProgress(bob), "git did not leave the merge unfinished: \(pull.stdoutText)\(pull.stderr)")
        let before = try #require(bob.sandbox.read("project/team.vault"))

        let add = try bob.vault(["add", "-s", "during-merge", "-a", "bob", "-w", "added-during-merge"])
        Sync.expectStatus(add, 2, "bob: vault add while git holds a merge unfinished")
        #expect(add.stderr.contains("unfinished"), "the refusal says the merge is unfinished: \(add.stderr)")
        #expect(add.stderr.contains("'vault sync'"), "the refusal names 'vault sync': \(add.stderr)")
        #expect(bob.sandbox.read("project/team.vault") == before, "a refused add changed the vault file")
        // The other writes are refused the same way.
        Sync.expectStatus(
            try bob.vault(["update", "-s", "api", "-a", "shared", "-w", "api-during-merge"]), 2,
            "bob: vault update while git holds a merge unfinished")
        Sync.expectStatus(try bob.vault(["delete", "-s", "api", "-a", "shared"]), 2, "bob: vault delete while git holds a merge unfinished")
        #expect(bob.sandbox.read("project/team.vault") == before, "a refused update or delete changed the vault file")
        try Sync.expectSecret(bob, "api", "shared", "api-1")

        Sync.expectStatus(try bob.git(["merge", "--abort"]), 0, "bob: git merge --abort")
        #expect(try !Self.mergeInProgress(bob), "a merge is still in progress after git merge --abort")
        let again = try bob.vault(["add", "-s", "during-merge", "-a", "bob", "-w", "added-during-merge"])
        Sync.expectStatus(again, 0, "bob: the same vault add after git merge --abort")
        try Sync.expectSecret(bob, "during-merge", "bob", "added-during-merge")
    }

    // MARK: - 2. A stale merge vault sync cannot finish

    /// bob's clone (no merge driver) holds git's merge of the vault file unfinished, its other side a
    /// file from after alice removed him: his identity opens nothing of it (51). alice adds him back.
    /// bob's next `vault sync` must not retry the stale merge forever: it aborts it with a one-line
    /// warning, fetches and merges afresh, and exits 0 (his branch from before his removal comes in as
    /// conflicts); the sync after that exits 0 too, and no merge is left in progress.
    @Test func syncAbandonsAStaleMergeItCannotFinish() throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        let bobRecipient = try #require(try Self.members(alice)["bob"], "bob's recipient from alice's member list")
        #expect(try bob.git(["config", "merge.vault.driver"]).status != 0, "bob's clone should have no merge driver")

        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try bob.mustGit(["commit", "-q", "-m", "bob's change", "--", "team.vault"])
        Sync.expectStatus(
            try alice.vault(["member", "remove", "bob", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove bob")
        try Sync.sync(alice)

        let pull = try bob.git(["pull", "--no-rebase", "--no-edit"])
        #expect(
            pull.status != 0,
            "bob: git pull without the driver should stop on team.vault; exit \(pull.status): \(pull.stdoutText)\(pull.stderr)")
        try #require(try Self.mergeInProgress(bob), "git did not leave the merge unfinished: \(pull.stdoutText)\(pull.stderr)")
        #expect(try bob.git(["ls-files", "-u", "--", "team.vault"]).stdoutText != "", "team.vault should be conflicted in the index")

        // Removed, bob cannot finish it: alice's side opens with nothing he holds. (sync aborts the
        // merge it cannot finish and fails before starting another: git's pull leaves it again.)
        let stuck = try bob.vault(["sync"])
        Sync.expectStatus(stuck, 51, "bob, removed: vault sync of the merge of alice's side")
        if try !Self.mergeInProgress(bob) { _ = try bob.git(["pull", "--no-rebase", "--no-edit"]) }
        try #require(
            try Self.mergeInProgress(bob), "the scenario needs git's merge of alice's side left unfinished in bob's clone: \(stuck.stderr)")

        // alice adds bob back; the merge in bob's clone is now stale.
        let pushedBefore = try team.remoteHead()
        try alice.mustVault(["member", "add", "bob", bobRecipient])
        try Sync.sync(alice)
        #expect(try team.remoteHead() != pushedBefore, "alice's sync pushed nothing")

        let again = try bob.vault(["sync"])
        Sync.expectStatus(again, 0, "bob, added back: vault sync with the stale merge in his clone")
        let aborted = again.stderr.split(separator: "\n").filter { $0.contains("aborted it") }
        #expect(
            aborted.count == 1 && aborted.allSatisfy { $0.hasPrefix("vault: warning:") },
            "one warning line saying the stale merge was aborted: \(again.stderr)")
        #expect(try !Self.mergeInProgress(bob), "a merge is still in progress after bob's sync: \(again.stderr)")
        guard again.status == 0 else { return }
        #expect(try bob.head() == team.remoteHead(), "bob's sync did not push: \(again.stderr)")
        // bob's change from before his removal comes in as a conflict, both versions readable; nothing is lost.
        let listed = try Sync.conflicts(bob)
        if again.stderr.contains("in conflict") || !listed.isEmpty {
            #expect(listed.contains(TeamSyncTests.Conflict(service: "api", account: "shared", group: "default")), "conflicts: \(listed)")
            let seen = Set(
                [try Sync.get(bob, "api", "shared"), try Sync.get(bob, "api", "shared", theirs: true)].filter { $0.status == 0 }.map(
                    \.stdoutText))
            #expect(seen == ["api-1", "api-by-bob"], "both versions readable: \(seen)")
        } else {
            try Sync.expectSecret(bob, "api", "shared", "api-by-bob")
        }
        try Sync.expectSecret(bob, "github", "alice", "gh-1")
        #expect(try Self.members(bob)["bob"] == bobRecipient, "bob is a member again in his clone")

        let second = try bob.vault(["sync"])
        Sync.expectStatus(second, 0, "bob: a second vault sync")
        #expect(!second.stderr.contains("aborted it"), "the second sync found another merge to abort: \(second.stderr)")
        #expect(try !Self.mergeInProgress(bob), "a merge is in progress after bob's second sync")
        try Sync.expectSettled(bob, team)
        Sync.expectStatus(try alice.vault(["sync"]), 0, "alice: vault sync after bob's")
        try Sync.expectSecret(alice, "github", "alice", "gh-1")
    }

    // MARK: - 3. A hand-resolved merge that drops a removal

    /// alice removed carol; bob's clone (no driver) stops a `git pull` on team.vault and bob resolves it
    /// by hand keeping his side, which lacks the removal. `vault sync` refuses to push that merge (49,
    /// "drops team log entries") and the remote is left as it was; undoing the merge as the hint says
    /// and syncing again keeps carol removed.
    @Test func aHandResolvedMergeThatDropsARemovalIsNotPushed() throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        let carol = try Self.addCarol(team)
        #expect(try bob.git(["config", "merge.vault.driver"]).status != 0, "bob's clone should have no merge driver")

        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove carol")
        try Sync.sync(alice)
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try bob.mustGit(["commit", "-q", "-m", "bob's change", "--", "team.vault"])

        let pull = try bob.git(["pull", "--no-rebase", "--no-edit"])
        #expect(
            pull.status != 0,
            "bob: git pull without the driver should stop on team.vault; exit \(pull.status): \(pull.stdoutText)\(pull.stderr)")
        try #require(
            try bob.git(["ls-files", "-u", "--", "team.vault"]).stdoutText != "",
            "team.vault should be conflicted: \(pull.stdoutText)\(pull.stderr)")
        // By hand: bob's side kept, the removal dropped.
        try bob.mustGit(["checkout", "--ours", "team.vault"])
        try bob.mustGit(["add", "team.vault"])
        try bob.mustGit(["commit", "-q", "--no-edit"])
        try #require(try bob.git(["rev-parse", "-q", "--verify", "HEAD^2"]).status == 0, "bob's hand resolution should be a merge commit")

        // The first change after that merge commit is refused too, and changes nothing; so is every
        // later one (the refusal is not remembered as checked).
        let fileBefore = try Data(contentsOf: URL(fileURLWithPath: bob.vaultFile))
        for attempt in 1...2 {
            let write = try bob.vault(["update", "-s", "api", "-a", "shared", "-w", "after-the-hand-merge"])
            Sync.expectStatus(write, 49, "bob: change \(attempt) to a merge commit's file that drops alice's removal of carol")
            #expect(write.stderr.contains("drops team log entries") && write.stderr.contains("nothing was changed"), "\(write.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: bob.vaultFile)) == fileBefore, "a refused change wrote the file")

        let remoteBefore = try Self.lsRemote(bob)
        let sync = try bob.vault(["sync"])
        Sync.expectStatus(sync, 49, "bob: vault sync of a merge that drops alice's removal of carol")
        #expect(sync.stderr.contains("drops team log entries"), "the refusal says the merge drops team log entries: \(sync.stderr)")
        #expect(try Self.lsRemote(bob) == remoteBefore, "something was pushed: \(sync.stderr)")
        #expect(try Self.members(alice)["carol"] == nil, "carol stays removed in alice's clone")

        // The hint's way out: undo the merge commit and let vault sync merge.
        try bob.mustGit(["reset", "-q", "--hard", "HEAD^"])
        let redo = try bob.vault(["sync"])
        Sync.expectStatus(redo, 0, "bob: vault sync after undoing the hand-resolved merge")
        guard redo.status == 0 else { return }
        // A merge commit made by vault's own merge keeps both logs: changes go on.
        Sync.expectStatus(
            try bob.vault(["update", "-s", "api", "-a", "shared", "-w", "after-the-sync"]), 0,
            "bob: a change after vault sync's merge")
        try Sync.sync(bob)
        try Sync.expectSettled(bob, team)
        #expect(try Self.members(bob)["carol"] == nil, "bob's sync brought carol back")
        try Self.cloneAndPin(carol, team)
        Sync.expectStatus(try Sync.get(carol, "github", "alice"), 51, "carol, removed, reading the remote's file")
    }

    // MARK: - 4. What a merge did to members and keys

    /// alice removes carol (a full member: the vault is re-keyed) and adds dave; bob, with a change of
    /// his own committed, syncs: a real merge, in which the team log of alice's side wins. bob's
    /// `vault sync` says on stderr that carol was removed, that dave was added, and that the vault is
    /// under new keys — whether his clone merges through the driver or from git's stages.
    @Test(arguments: [false, true]) func syncSaysWhatItsMergeDidToMembersAndKeys(driver: Bool) throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        _ = try Self.addCarol(team)
        if driver {
            Sync.expectStatus(try bob.vault(["sync", "--setup"]), 0, "bob: vault sync --setup")
            Sync.expectDriver(
                try bob.git(["config", "--local", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let dave = try Person("dave")
        let daveRecipient = try dave.makeIdentity()

        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try bob.mustGit(["commit", "-q", "-m", "bob's change", "--", "team.vault"])
        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove carol")
        try alice.mustVault(["member", "add", "dave", daveRecipient])
        try Sync.sync(alice)

        let merged = try Sync.sync(bob)
        #expect(
            try bob.git(["rev-parse", "-q", "--verify", "HEAD^2"]).status == 0,
            "bob's sync should have made a merge commit (not a fast-forward)")
        #expect(merged.stderr.contains("the member \"carol\" was removed"), "bob's sync names carol as removed: \(merged.stderr)")
        #expect(merged.stderr.contains("the member \"dave\" was added"), "bob's sync names dave as added: \(merged.stderr)")
        #expect(merged.stderr.contains("the vault is under new keys"), "bob's sync says the vault is under new keys: \(merged.stderr)")
        guard merged.status == 0 else { return }
        try Sync.expectSettled(bob, team)
        let listed = try Self.members(bob)
        #expect(
            listed["carol"] == nil && listed["dave"] == daveRecipient && listed["bob"] != nil, "bob's members after the merge: \(listed)")
        // dave reads what bob's merge pushed.
        try Self.cloneAndPin(dave, team)
        try Sync.expectSecret(dave, "github", "alice", "gh-1")
    }

    // MARK: - 5. Diverged team logs

    /// alice removes carol on her desk machine while, on her laptop (another clone, the same
    /// passphrase), she adds dave and syncs first: the two team logs diverged. bob, a full member who
    /// took the desk's commit, cannot join them (30) and pushes nothing. On the desk, `vault sync`
    /// with no terminal refuses to sign the laptop's entries unseen (2, naming --accept-log) and pushes
    /// nothing; with `--accept-log` it joins them: carol gone, dave there, and everyone syncs on.
    @Test func onlyTheOwnerJoinsDivergedTeamLogs() throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        let carol = try Self.addCarol(team)
        // alice's second machine: a HOME and a clone of its own, her passphrase.
        let laptop = try Person("alice")
        try laptop.sandbox.write("pass", Array("alice's passphrase".utf8))
        laptop.env["VAULT_PASSPHRASE_FILE"] = laptop.sandbox.path("pass")
        try laptop.clone(team.remote)
        let dave = try Person("dave")
        let daveRecipient = try dave.makeIdentity()

        // The desk: carol removed and committed, pushed to a branch of its own only.
        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice (desk): vault member remove carol")
        try alice.mustGit(["commit", "-q", "-m", "remove carol", "--", "team.vault"])
        try alice.mustGit(["push", "-q", "origin", "HEAD:refs/heads/alice-desk"])
        // The laptop: dave added and synced first.
        try laptop.mustVault(["member", "add", "dave", daveRecipient])
        try Sync.sync(laptop)

        // bob, a full member, takes the desk's commit and syncs with the laptop's: two diverged logs.
        try bob.mustGit(["fetch", "-q", "origin"])
        try bob.mustGit(["merge", "-q", "--ff-only", "origin/alice-desk"])
        let laptopPushed = try team.remoteHead()
        let bobSync = try bob.vault(["sync"])
        Sync.expectStatus(bobSync, 30, "bob: vault sync of two diverged team logs")
        #expect(bobSync.stderr.contains("only the owner joins diverged team logs"), "bob's refusal: \(bobSync.stderr)")
        #expect(try team.remoteHead() == laptopPushed, "bob's refused sync pushed: \(bobSync.stderr)")

        // The desk, with no terminal and without --accept-log: refused, nothing pushed.
        let unasked = try alice.vault(["sync"])
        Sync.expectStatus(unasked, 2, "alice (desk): vault sync joining diverged logs with no terminal")
        #expect(unasked.stderr.contains("--accept-log"), "the refusal names --accept-log: \(unasked.stderr)")
        #expect(try team.remoteHead() == laptopPushed, "alice's refused sync pushed: \(unasked.stderr)")

        let accepted = try alice.vault(["sync", "--accept-log"])
        Sync.expectStatus(accepted, 0, "alice (desk): vault sync --accept-log")
        guard accepted.status == 0 else { return }
        #expect(accepted.stderr.contains("joined the two branches of the team log"), "the sync says it joined the logs: \(accepted.stderr)")
        try Sync.expectSettled(alice, team)
        let listed = try Self.members(alice)
        #expect(listed["carol"] == nil, "carol is back after the join: \(listed)")
        #expect(listed["dave"] == daveRecipient, "dave is missing after the join: \(listed)")
        #expect(listed["bob"] != nil && listed["ci-runner"] != nil, "a member is missing after the join: \(listed)")

        // Everyone syncs on: the laptop and bob take the join (a descendant of both), dave reads, carol does not.
        Sync.expectStatus(try laptop.vault(["sync"]), 0, "alice (laptop): vault sync after the join")
        #expect(try Self.members(laptop) == listed, "the laptop's members after the join")
        let bobAfter = try bob.vault(["sync"])
        Sync.expectStatus(bobAfter, 0, "bob: vault sync after alice joined the logs")
        #expect(try !Self.mergeInProgress(bob), "a merge is still in progress in bob's clone: \(bobAfter.stderr)")
        if bobAfter.status == 0 { try Sync.expectSettled(bob, team) }
        #expect(try Self.members(bob) == listed, "bob's members after the join")
        try Sync.expectSecret(bob, "github", "alice", "gh-1")
        try Self.cloneAndPin(dave, team)
        try Sync.expectSecret(dave, "github", "alice", "gh-1")
        try Self.cloneAndPin(carol, team)
        Sync.expectStatus(try Sync.get(carol, "github", "alice"), 51, "carol, removed, reading the joined file")
    }
}
