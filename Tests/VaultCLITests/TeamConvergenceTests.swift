import Foundation
import Testing
import VaultTestSupport

/// Convergence of a team working on one vault through git, end to end with the built binary and
/// real git, on the harness of `TeamSyncTests` (a bare remote; a HOME, a clone and keys of their own
/// for each person). The team: the owner alice on two machines (her laptop, `makeTeam()`'s alice,
/// and her desk: another HOME and clone, the same passphrase file), bob and carol (full members,
/// writers), dave (a full member who never writes items), erin (a full member the owner adds during
/// the run), ci-runner (a read-only member of group ci, which only pulls and reads), and frank (a
/// read-write member of group ci, who pushes a branch an owner machine merges when his sync needs a
/// merge: TeamConvergenceTests+ScopedWriter).
///
/// Each round every person, in a random order, does one random thing: the writers add, update,
/// delete, rename or resolve items of a small pool (groups default and ci), or move an item they list
/// into another group (default, ci, tmp: `rename --to-group`); the owner's machines also remove members
/// and add them back (erin: add), revoke a group and delete group tmp with its items
/// (TeamConvergenceTests+Groups); a full member's `member add` must get 30;
/// people sync, some with `vault sync` (a merge), some with `git pull --rebase` followed by `vault
/// sync` (which, in a rebase, merges the vault file at each stop and finishes the rebase); the
/// owner's syncs carry `--accept-log` (a join of diverged team logs asks otherwise, and a test has
/// no terminal); ci-runner pulls and reads group ci. The owner's machines and the writers also move
/// the file with git by hand (TeamConvergenceTests+GitWork): a rebase conflict resolved with
/// `git checkout --ours` or `--theirs`, `git revert` of the last change of the file (often a
/// removal), an old file checked out and committed, a cherry-pick, `git merge -s ours` and a plain
/// `git push` (no hook on the remote), `vault sync` killed (SIGKILL; dave too) and the merge
/// driver killed in a `git pull`; a write while git holds a stopped operation must get 2, one on a
/// file that drops team log entries 49, and such a file pushed with plain git (a rolled-back head)
/// may only be left by the owner's sync, which repairs it. Then two rounds of `vault sync` by
/// everyone still a member. What must hold:
///
/// - every clone still a member at one commit, the remote's; the same items (every item listed,
///   its secret, and every version its conflicts keep) and the same roster in every clone of the
///   owner and of a full member; ci-runner, still a member, reads group ci as the owner does;
/// - no acknowledged write lost without a conflict: a write is acknowledged when a `vault sync` of
///   its author after it exited 0 (writes made after the author's removal, before it synced again
///   as a member, never are). An acknowledged write no later write in the final file replaced
///   (one whose author had it when writing) keeps its secret readable (`get`, `get --theirs`,
///   `get --conflict N`); an item in no conflict holds the secret of a write no other replaced,
///   and an item whose last write was an acknowledged deletion is gone or in conflict;
/// - a removed member's identity opens nothing written after its removal: after every sync of
///   the owner that pushed, and at the end, `vault get` of an item of the remote's file with the
///   identity of each person its roster lacks fails; and at the end, over every commit of the remote
///   and of every clone (TeamConvergenceTests+EveryCommit), a member out at the end opens nothing
///   first written after its removal reached the remote, neither with its identity through the CLI
///   nor with the keys of every slot it ever had through the independent reader `vault_v3.py`
///   (seen biting: with sync's fetch-first merge taken out, seed 7 has ci-runner open two later
///   secrets in a remote commit);
/// - a sync refused is refused for a reason the docs give: a person no longer in the remote's
///   roster (removed; its later writes are not acknowledged), a member's while the remote holds a
///   rolled-back head (49, naming the owner), a write while git holds an operation unfinished (2),
///   a full member's `member add` (30), a change in a clone that fast-forwarded
///   onto its author's removal (51: a sync that only fast-forwards opens no file but the clone's,
///   so a removed member's can exit 0). Any other failure is a finding; a sync that pushed a file
///   whose roster lacks the person who pushed it is one too.
///
/// The owner's syncs also carry `--kdf-cost testing`: a join that re-keys re-makes the passphrase
/// keyslot, at the interactive scrypt cost otherwise (a second for every later command).
///
/// The seeds, the rounds and the time budget: TeamConvergenceTests+Seeds.
@Suite struct TeamConvergenceTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    /// An item by group, service and account.
    struct Key: Hashable, Comparable, CustomStringConvertible {
        let group: String
        let service: String
        let account: String
        var description: String { "\(group)/\(service)/\(account)" }
        static func < (a: Key, b: Key) -> Bool { (a.group, a.service, a.account) < (b.group, b.service, b.account) }
    }

    /// One change of items that exited 0: what it removed from a name and what it put under one.
    struct Write: CustomStringConvertible {
        let id: Int
        let author: String
        let step: Int
        let removes: Key?
        let sets: (key: Key, value: String)?
        /// The writes the author's clone held when it made this one.
        let knows: Set<Int>
        /// Made while the author was a member as far as the owner's changes go (not after a removal), on a
        /// file vault writes on: a sync of its author can acknowledge it.
        let eligible: Bool
        /// For a delete or a resolve, which drop every version of the item: the secrets the author's clone
        /// showed under that name just before (`get`, `get --conflict N`), a concurrent rename's among them.
        var dropped: Set<String> = []
        func touches(_ key: Key) -> Bool { removes == key || sets?.key == key }
        var description: String {
            "w\(id) by \(author) at step \(step): "
                + [removes.map { "removes \($0)" }, sets.map { "sets \($0.key) = \($0.value)" }]
                .compactMap { $0 }.joined(separator: ", ")
        }
    }

    enum Role { case owner, writer, reader, ci, scoped }

    final class Member {
        let person: Person
        let role: Role
        var hasClone: Bool
        var recipient: String?
        /// `member add` arguments after the recipient.
        let scope: [String]
        /// The writes this clone holds (what its file was merged from), over-approximated after a failed sync.
        var knows: Set<Int> = []
        /// Its writes not yet acknowledged.
        var pending: [Int] = []
        /// Removed by an owner machine, and not yet synced as a member since it was added back.
        var out = false
        var addedBack = false
        var removedAtStep: Int?
        /// The step of the first sync that exited 0 with the remote's roster lacking it, since `removedAtStep`.
        var removalPublishedAtStep: Int?
        var name: String { person.name }

        init(_ person: Person, _ role: Role, hasClone: Bool, scope: [String] = []) {
            self.person = person
            self.role = role
            self.hasClone = hasClone
            self.scope = scope
        }
    }

    /// What `vault` shows of one item: its current secret, whether `vault conflicts` lists it, and every other version it keeps.
    struct Observed: Equatable, CustomStringConvertible {
        var getStatus: Int32
        var current: String?
        var conflicted: Bool
        var theirsStatus: Int32
        var theirs: String?
        var versions: [String?] = []
        var visible: Set<String> { Set(([current, theirs] + versions).compactMap { $0 }) }
        var description: String {
            "get \(getStatus) \(current ?? "-")\(conflicted ? ", in conflict" : ""), --theirs \(theirsStatus) \(theirs ?? "-")"
                + (versions.isEmpty ? "" : ", --conflict \(versions.map { $0 ?? "deleted" })")
        }
    }

    /// The remote's file as the owner's passphrase reads it (on a machine of its own, which only reads).
    struct Audit {
        var roster: [String: String]  // name → scope
        var items: [Key]
    }

}
