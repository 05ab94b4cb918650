import Foundation
import Testing
@testable import VaultCore
import VaultCrypto
import VaultTestSupport

/// A join entry has two parents, ordered by their hashes (random): what a log did since another
/// saw it is every entry it holds that the other lacks, on either parent's branch. Following first
/// parents only missed the second branch's removals and re-keys whenever its head hash sorted last
/// (GroupAuthorityPropertyTests seed 12618586244614644168 diverged between two equal worlds).
@Suite struct TeamLogBranchTests {
    static let prod = AccessGroup("prod")!

    /// An owner's vault with a team log, and that log opened.
    func openedLog() throws -> (vault: Vault, directory: TempDirectory, log: TeamLog) {
        let directory = try TempDirectory()
        let vault = try Vault.makeTest(at: directory.location("team.vault")).reconfigured { $0.acceptTeamLog = true }
        try vault.add("s", "acct", "first", group: Self.prod)
        try vault.add("t", "acct", "token", group: AccessGroup("ci")!)
        _ = try vault.addMember(name: "bob", recipient: try AgeIdentity.generate().recipient, groups: [], readOnly: false)
        return (vault, directory, try Self.openLog(fileBytes(vault.location.path)))
    }

    static func openLog(_ bytes: [UInt8]) throws -> TeamLog {
        var copy = WorkingCopy(try Snapshot.unlock(FileBytes(bytes), secret: testKeyFile, deviceKey: nil, path: ""))
        return try copy.openTeamLog()
    }

    /// `first` and `second` joined with the join entry's parents in the order given (a real join
    /// orders them by hash).
    static func join(_ first: TeamLog, _ second: TeamLog, secondParentFirst: Bool) throws -> TeamLog {
        var log = first
        for index in second.entries.indices where !log.hashes.contains(second.hashes[index]) {
            log.adopt(entryAt: index, of: second)
        }
        let roster = try first.state().members
        log.append(
            .joined(roster: roster), keyEpoch: max(first.headEpoch, second.headEpoch) + 1,
            parents: secondParentFirst ? [second.head, first.head] : [first.head, second.head])
        return log
    }

    @Test(arguments: [false, true]) func aReKeyOnEitherBranchOfAJoinIsUnseenByALogWithoutIt(secondParentFirst: Bool) throws {
        let (_, _, base) = try openedLog()
        let epoch = base.headEpoch
        let replaced = GroupID(7), revoked = GroupID(8), later = GroupID(9)
        var rekeyed = base, other = base
        rekeyed.append(.groupKeyReplaced(replaced), keyEpoch: epoch + 1)
        other.append(.groupKeyReplaced(revoked), keyEpoch: epoch + 1)
        let joined = try Self.join(rekeyed, other, secondParentFirst: secondParentFirst)
        var behind = other
        behind.append(.groupKeyReplaced(later), keyEpoch: epoch + 2)

        let unseen = try joined.changes(notIn: behind)
        #expect(unseen.contains(.groupKeyReplaced(replaced)), "the join's branch that re-keyed is unseen by the log without it: \(unseen)")
        #expect(!unseen.contains(.groupKeyReplaced(revoked)), "what both logs hold is seen: \(unseen)")
        #expect(try behind.changes(notIn: joined) == [.groupKeyReplaced(later)])
    }

    @Test(arguments: [false, true]) func aRemovalOnEitherBranchOfAJoinTouchesTheMember(secondParentFirst: Bool) throws {
        let (_, _, base) = try openedLog()
        let bob = try #require(try base.state().members.first { $0.name == "bob" })
        var removed = base, other = base
        removed.append(.memberRemoved(name: "bob", recipient: bob.recipient), keyEpoch: base.headEpoch + 1)
        other.append(.groupKeyReplaced(GroupID(8)), keyEpoch: base.headEpoch + 1)
        let joined = try Self.join(other, removed, secondParentFirst: secondParentFirst)
        var behind = other
        behind.append(.groupKeyReplaced(GroupID(9)), keyEpoch: base.headEpoch + 2)

        #expect(try joined.touchedRecipients(notIn: behind) == [bob.recipient])
        #expect(try behind.touchedRecipients(notIn: joined).isEmpty)
    }

    /// Through merges: the owner re-keys prod and joins a clone that revoked ci; a clone with only the
    /// ci revoke changes prod's item. The owner's merge of it keeps that change as a conflict (it may
    /// be a revoked credential's), whichever way the join ordered its parents: each round has fresh
    /// keys, so both orders come up.
    @Test func aChangeFromBeforeAReKeyIsAConflictWhicheverParentTheJoinListsFirst() throws {
        for round in 0..<8 {
            let (owner, directory, _) = try openedLog()
            let start = fileBytes(owner.location.path)
            let cloneDirectory = try TempDirectory()
            let clone = cloneDirectory.location("team.vault")
            writeBytes(start, to: clone.path)
            let revoker = Vault(location: clone, credential: testKeyFile).reconfigured { $0.acceptTeamLog = true }
            _ = try owner.revoke(group: Self.prod)
            _ = try revoker.revoke(group: AccessGroup("ci")!)
            let revokedCI = fileBytes(clone.path)
            _ = try owner.merge(base: start, theirs: revokedCI, origins: ("owner", "revoker"), kdf: .testing) { _ in }
            try revoker.update(
                matching: Query(service: "s", account: "acct", group: Self.prod),
                with: ItemChange(secret: SecretBytes(Array("changed-\(round)".utf8))))
            let report = try owner.merge(base: revokedCI, theirs: fileBytes(clone.path), origins: ("owner", "revoker"), kdf: .testing) {
                _ in
            }
            #expect(report.conflicts.map(\.service) == ["s"], "round \(round): prod's change from before its re-key is kept as a conflict")
            #expect(
                try owner.item(matching: Query(service: "s", account: "acct", group: Self.prod)).secret.text == "first", "round \(round)")
            withExtendedLifetime((directory, cloneDirectory)) {}
        }
    }
}
