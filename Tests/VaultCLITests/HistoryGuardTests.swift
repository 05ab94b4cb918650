import Foundation
import Testing

/// The team log guards every commit, whatever git does (docs/TEAMS.md, "Every head checked"):
/// after alice removes carol, bob brings the removal in and undoes it by hand with a linear commit —
/// `git revert` of the removal, or the old file checked out and committed. `vault sync` refuses to
/// push it and every change refuses to write on it (49, naming the commit); once a plain `git push`
/// got it onto the remote, dave (a full member) neither writes on it nor pushes, and alice's sync
/// repairs the remote's branch: every entry kept, carol still out, her clone still working.
@Suite struct HistoryGuardTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    /// The ways bob undoes alice's removal of carol by hand, in one linear commit.
    static let undoings: [String: [[String]]] = [
        "revert": [["revert", "--no-edit", "HEAD"]],
        "old file checked out": [["checkout", "HEAD~1", "--", "team.vault"], ["commit", "-q", "-m", "bob's file"]]
    ]

    @Test(arguments: ["revert", "old file checked out"]) func aLinearCommitThatDropsARemovalIsRefusedAndRepaired(undoing: String) throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        let carol = try TeamLogSyncTests.addCarol(team)
        let dave = try Person("dave")
        try alice.mustVault(["member", "add", "dave", try dave.makeIdentity()])
        try Sync.sync(alice)
        try TeamLogSyncTests.cloneAndPin(dave, team)
        try Sync.expectSecret(dave, "github", "alice", "gh-1")

        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove carol")
        try Sync.sync(alice)
        try bob.mustGit(["pull", "-q", "--ff-only"])
        for step in try #require(Self.undoings[undoing]) { try bob.mustGit(step) }
        let badCommit = String(try bob.head().prefix(7))

        let remoteBefore = try team.remoteHead()
        let sync = try bob.vault(["sync"])
        Sync.expectStatus(sync, 49, "bob: vault sync of a commit that drops alice's removal (\(undoing))")
        #expect(
            sync.stderr.contains("drops team log entries") && sync.stderr.contains(badCommit),
            "the refusal names the commit: \(sync.stderr)")
        #expect(try team.remoteHead() == remoteBefore, "bob's refused sync pushed")
        let write = try bob.vault(["add", "-s", "on-top", "-a", "bob", "-w", "on-top"])
        Sync.expectStatus(write, 49, "bob: a change on a commit that drops alice's removal (\(undoing))")
        #expect(write.stderr.contains("nothing was changed"), "\(write.stderr)")

        // A plain git push gets it past vault onto the remote.
        try bob.mustGit(["push", "-q"])
        let daveSync = try dave.vault(["sync"])
        Sync.expectStatus(daveSync, 49, "dave: vault sync onto the remote's rolled-back head")
        #expect(daveSync.stderr.contains("only the vault's owner repairs it"), "dave's refusal names the owner: \(daveSync.stderr)")
        try dave.mustGit(["pull", "-q", "--ff-only"])
        let daveOnTheRemotesHead = try dave.vault(["sync"])
        Sync.expectStatus(daveOnTheRemotesHead, 49, "dave: vault sync on the remote's rolled-back head, pulled")
        #expect(
            daveOnTheRemotesHead.stderr.contains("only the vault's owner repairs it"),
            "dave, on the remote's head already, is not told to drop the commit here: \(daveOnTheRemotesHead.stderr)")
        Sync.expectStatus(
            try dave.vault(["add", "-s", "dave-new", "-a", "dave", "-w", "written-by-dave"]), 49, "dave: a change on the rolled-back head")
        try TeamLogSyncTests.cloneAndPin(carol, team)
        Sync.expectStatus(try Sync.get(carol, "dave-new", "dave"), 44, "carol reads no secret dave wrote after her removal")

        // alice, the owner, repairs the remote's branch and keeps working.
        let repair = try alice.vault(["sync"])
        Sync.expectStatus(repair, 0, "alice: vault sync repairing the remote's branch")
        #expect(
            repair.stderr.contains("repaired") && !repair.stderr.contains(", merged, pushed"),
            "alice's sync says what it repaired: \(repair.stderr)")
        try Sync.expectSettled(alice, team)
        Sync.expectStatus(try alice.vault(["list"]), 0, "alice: vault list after the repair")
        #expect(try TeamLogSyncTests.members(alice)["carol"] == nil, "carol is back after the repair")
        try alice.mustVault(["add", "-s", "after-repair", "-a", "alice", "-w", "after-repair-1"])
        try Sync.sync(alice)

        // Everyone else goes on from the repaired head; carol reads nothing written since.
        try Sync.sync(dave)
        try Sync.expectSecret(dave, "after-repair", "alice", "after-repair-1")
        try dave.mustVault(["add", "-s", "dave-new", "-a", "dave", "-w", "written-by-dave"])
        try Sync.sync(dave)
        try Sync.sync(bob)
        try Sync.expectSecret(bob, "dave-new", "dave", "written-by-dave")
        try carol.mustGit(["pull", "-q", "--ff-only"])
        Sync.expectStatus(try Sync.get(carol, "dave-new", "dave"), 51, "carol, removed, opening the repaired head")
        let carolReader = try FetchFirstSyncTests.readerWithIdentity(of: carol, trust: team.trust)
        for (service, account, secret) in [("dave-new", "dave", "written-by-dave"), ("after-repair", "alice", "after-repair-1")] {
            let revealing = try FetchFirstSyncTests.commitsRevealing(
                secret, service: service, account: account, group: "default", in: team.remote, to: carolReader)
            #expect(revealing.isEmpty, "carol, removed, reads \(service) in the remote's commits \(revealing)")
        }
    }

    /// The machine that made the removal undoes it by hand (found by TeamConvergenceTests, seed 7: alice's
    /// revert of her own removal). That machine has seen the removal's key epoch, so the file put back
    /// is also older than what it saw: a change must still name the commit that dropped the entries and
    /// how to drop it (49), not ask for a `git pull` that brings nothing; done as the hint says, the
    /// change goes through.
    @Test(arguments: ["revert", "old file checked out"]) func aRemovalUndoneOnTheMachineThatMadeItNamesTheCommit(undoing: String) throws {
        let team = try Sync.makeTeam()
        let alice = team.alice
        _ = try TeamLogSyncTests.addCarol(team)
        try Sync.sync(alice)
        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove carol")
        try Sync.sync(alice)
        for step in try #require(Self.undoings[undoing]) { try alice.mustGit(step) }
        let badCommit = String(try alice.head().prefix(7))

        let write = try alice.vault(["add", "-s", "on-top", "-a", "alice", "-w", "on-top"])
        Sync.expectStatus(write, 49, "alice: a change on her own undoing of the removal (\(undoing))")
        #expect(
            write.stderr.contains("drops team log entries") && write.stderr.contains(badCommit)
                && write.stderr.contains("git reset --hard \(badCommit)^"),
            "the refusal names the commit and how to drop it: \(write.stderr)")
        let read = try alice.vault(["list"])
        Sync.expectStatus(read, 49, "alice: a read of her own undoing of the removal (\(undoing))")
        #expect(
            read.stderr.contains("drops team log entries") && read.stderr.contains(badCommit),
            "the read's refusal names the commit: \(read.stderr)")
        try alice.mustGit(["reset", "-q", "--hard", badCommit + "^"])
        try alice.mustVault(["add", "-s", "on-top", "-a", "alice", "-w", "on-top"])
        #expect(try TeamLogSyncTests.members(alice)["carol"] == nil, "carol is back")
    }

    /// The owner's repair committed but not pushed (here the remote refuses that push once): the next
    /// sync pushes the repair, and the owner's changes go on.
    @Test func aRepairNotYetPushedIsPushedByTheNextSync() throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        _ = try TeamLogSyncTests.addCarol(team)
        try Sync.sync(alice)
        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove carol")
        try Sync.sync(alice)
        try bob.mustGit(["pull", "-q", "--ff-only"])
        for step in try #require(Self.undoings["revert"]) { try bob.mustGit(step) }
        try bob.mustGit(["push", "-q"])

        let hook = team.remote + "/hooks/pre-receive"
        try Data("#!/bin/sh\necho 'refused once' >&2\nexit 1\n".utf8).write(to: URL(fileURLWithPath: hook))
        #expect(chmod(hook, 0o755) == 0)
        let refused = try alice.vault(["sync"])
        #expect(refused.stderr.contains("repaired"), "alice's sync repairs before its push is refused: \(refused.stderr)")
        try FileManager.default.removeItem(atPath: hook)

        let again = try alice.vault(["sync"])
        Sync.expectStatus(again, 0, "alice: the sync after her repair was not pushed")
        try Sync.expectSettled(alice, team)
        try alice.mustVault(["add", "-s", "after-repair", "-a", "alice", "-w", "after-repair-1"])
        #expect(try TeamLogSyncTests.members(alice)["carol"] == nil, "carol is back")
    }

    /// The owner's own machine rolled the remote back (found by TeamConvergenceTests seed
    /// 9122549999370491363): the desktop, which had not fetched the laptop's removal of carol, commits
    /// a change, `git merge -s ours` of the remote and a plain `git push`, then resets to its own
    /// commit. The remote's head then holds the desktop's file, its dropped side (the removal) only in
    /// a parent: the repair merged HEAD's file with that same file, kept no entry of the removal, and
    /// refused its own merge (49) on every sync after. The repair merges the dropped side in too.
    @Test func aRepairBringsInTheSideTheRemotesMergeDropped() throws {
        let (team, desktop) = try Self.carolRemovedUnseenByADesktop()
        let laptop = team.alice
        try desktop.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-from-the-desktop"])
        try desktop.mustGit(["commit", "-q", "-m", "desktop's change", "--", "team.vault"])
        try desktop.mustGit(["fetch", "-q"])
        try desktop.mustGit(["merge", "-s", "ours", "--no-edit", "@{u}"])
        let rolledBack = String(try desktop.head().prefix(7))
        try desktop.mustGit(["push", "-q"])
        try desktop.mustGit(["reset", "-q", "--hard", "HEAD^1"])

        try Self.expectDesktopRepairs(team, desktop, rolledBack, "repairing the remote's merge that dropped the removal")
        // The desktop's change came in with the dropped side, which has no merge base: kept as a conflict.
        let conflicts = try laptop.vault(["conflicts"])
        Sync.expectStatus(conflicts, 0, "laptop: vault conflicts after the repair")
        #expect(conflicts.stdoutText.contains("github"), "the desktop's change is listed in conflict: \(conflicts.stdoutText)")
    }

    /// The owner's other machine, which had not seen the removal, pulls with `git pull --rebase` onto a
    /// rolled-back head (found by TeamConvergenceTests seed 409866415124778821): its HEAD then builds on
    /// the commit that dropped the removal, and its sync refused it (49) on every run after. The
    /// owner's sync repairs it on HEAD, as it repairs the remote's branch.
    @Test func anOwnersPullOntoARolledBackHeadIsRepairedByItsSync() throws {
        let (team, desktop) = try Self.carolRemovedUnseenByADesktop()
        let bob = team.bob
        try bob.mustGit(["pull", "-q", "--ff-only"])
        for step in try #require(Self.undoings["revert"]) { try bob.mustGit(step) }
        let rolledBack = String(try bob.head().prefix(7))
        try bob.mustGit(["push", "-q"])
        try desktop.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-from-the-desktop"])
        try desktop.mustGit(["commit", "-q", "-m", "desktop's change", "--", "team.vault"])
        try desktop.mustGit(["pull", "-q", "--rebase"])

        try Self.expectDesktopRepairs(team, desktop, rolledBack, "on its pull onto the rolled-back head")
    }

    /// A team with carol; the owner's second machine (the desktop) clones it and sets up the driver,
    /// then the laptop removes carol and syncs, unseen by the desktop.
    static func carolRemovedUnseenByADesktop() throws -> (Sync.Team, desktop: Person) {
        let team = try Sync.makeTeam()
        _ = try TeamLogSyncTests.addCarol(team)
        try Sync.sync(team.alice)
        let desktop = try Person("alice-desktop")
        try desktop.sandbox.write("pass", Array("alice's passphrase".utf8))
        desktop.env["VAULT_PASSPHRASE_FILE"] = desktop.sandbox.path("pass")
        try desktop.clone(team.remote)
        Sync.expectStatus(try desktop.vault(["sync", "--setup"]), 0, "alice's desktop: vault sync --setup")
        Sync.expectStatus(
            try team.alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "laptop: vault member remove carol")
        try Sync.sync(team.alice)
        return (team, desktop)
    }

    /// The desktop's sync repairs (`rolledBack` named), the team settles with carol out, and what the
    /// desktop writes next reaches the laptop.
    static func expectDesktopRepairs(_ team: Sync.Team, _ desktop: Person, _ rolledBack: String, _ context: String) throws {
        let repair = try desktop.vault(["sync"])
        Sync.expectStatus(repair, 0, "desktop: vault sync \(context)")
        #expect(
            repair.stderr.contains("repaired") && repair.stderr.contains(rolledBack),
            "the desktop's sync says what it repaired: \(repair.stderr)")
        try Sync.expectSettled(desktop, team)
        #expect(try TeamLogSyncTests.members(desktop)["carol"] == nil, "carol is back after the repair")
        try desktop.mustVault(["add", "-s", "after-repair", "-a", "alice", "-w", "after-repair-1"])
        try Sync.sync(desktop)
        try Sync.sync(team.alice)
        try Sync.expectSecret(team.alice, "after-repair", "alice", "after-repair-1")
    }
}
