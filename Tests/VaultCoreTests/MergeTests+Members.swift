import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Merges that change members or the team log: removals, adding back, the owner's join, the pinned key.
extension MergeTests {
    @Test func aMemberRemovedOnOneSideStaysRemovedAndItsBranchsEditsAreConflicts() throws {
        let bob = try AgeIdentity.generate()
        let clones = try clones { try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false) }
        // They removed bob (a re-key); ours, cut before, edited a and added d.
        _ = try clones.theirs.removeMember(named: "bob", kdf: .testing) { _ in }
        try change(clones.ours, "a", to: "a-from-before-the-removal")
        try clones.ours.add("d", "x", "d-from-before-the-removal")
        let report = try clones.merge()
        #expect(Set(report.conflicts.map(\.service)) == ["a", "d"] && report.applied == 0)
        #expect(try clones.ours.secret("a", "x") == "a-base")
        #expect(try clones.ours.otherVersion(matching: Query(service: "a", account: "x")).item.secret.text == "a-from-before-the-removal")
        #expect(try clones.ours.members().map(\.name).isEmpty)
        // bob's identity opens nothing of the result.
        let asBob = Vault(
            location: clones.ours.location, keys: .identity([bob]), host: Vault.selfContainedHost(for: clones.ours.location),
            configuration: Vault.Configuration(trustedFingerprint: try clones.ours.trustFingerprint()))
        #expect(throws: VaultError.self) { try asBob.secret("b", "x") }
    }

    /// bob's identity, on the other side of a merge: a side he writes with it.
    func asBob(_ bob: AgeIdentity, on vault: Vault, pinned: String) -> Vault {
        Vault(
            location: vault.location, keys: .identity([bob]), host: Vault.selfContainedHost(for: vault.location),
            configuration: Vault.Configuration(trustedFingerprint: pinned))
    }

    /// A branch removed bob cut while he was a member, edited by him, merged after his removal: his
    /// side's log lacks the removal, so every change of his is kept as a conflict, whatever base git gives.
    @Test func aBranchFromBeforeARemovalComesInOnlyAsConflicts() throws {
        let bob = try AgeIdentity.generate()
        let clones = try clones()
        try clones.ours.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        let withBob = clones.ourBytes
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        writeBytes(withBob, to: clones.theirs.location.path)
        try change(asBob(bob, on: clones.theirs, pinned: try clones.ours.trustFingerprint()), "a", to: "bobs-a")
        let report = try clones.merge()
        #expect(report.membersAdded.isEmpty)
        #expect(try clones.ours.members().isEmpty)
        #expect(report.applied == 0 && report.conflicts.map(\.service) == ["a"])
        #expect(try clones.ours.secret("a", "x") == "a-base")
    }

    /// The other side moved an item from ci to prod and rotated it; ours changed it in ci. The version
    /// kept beside ours lived in prod: it is sealed under prod's keys, so a read-only credential of ci
    /// reads ours and never the prod secret, while the owner reads both.
    @Test func aVersionFromAnotherGroupIsSealedUnderThatGroupsKeys() throws {
        let prod = AccessGroup("prod")!
        let clones = try clones {
            try $0.add("db", "main", "db-base", group: ci)
            try $0.add("other", "prod", "p", group: prod)
        }
        try clones.ours.update(
            matching: Query(service: "db", account: "main", group: ci), with: ItemChange(secret: SecretBytes(Array("db-ours".utf8))))
        _ = try clones.theirs.move(matching: Query(service: "db", account: "main", group: ci), toGroup: prod)
        try clones.theirs.update(
            matching: Query(service: "db", account: "main", group: prod), with: ItemChange(secret: SecretBytes(Array("prod-secret".utf8))))
        let report = try clones.merge()
        #expect(report.conflicts.map(\.service) == ["db"])
        let ciReader = Vault(
            location: clones.ours.location, keys: .scoped(try clones.ours.grant(groups: [ci], readOnly: true, expires: nil)),
            host: Vault.selfContainedHost(for: clones.ours.location))
        #expect(try ciReader.secret("db", "main", group: ci) == "db-ours")
        #expect(throws: VaultError.otherVersionSealedElsewhere(ItemKey(group: ci, service: "db", account: "main"))) {
            try ciReader.otherVersion(matching: Query(service: "db", account: "main", group: ci))
        }
        #expect(try ciReader.conflicts().first?.otherIsSealedElsewhere == true)
        // The record's bytes hold no trace of the prod secret a ci key could open.
        let theirs = try clones.ours.otherVersion(matching: Query(service: "db", account: "main", group: ci))
        #expect(theirs.item.secret.text == "prod-secret" && theirs.item.attributes.group == prod)
        // A writer of ci cannot take a version it cannot read (nor delete the item for want of one).
        let ciWriter = Vault(
            location: clones.ours.location, keys: .scoped(try clones.ours.grant(groups: [ci], readOnly: false, expires: nil)),
            host: Vault.selfContainedHost(for: clones.ours.location))
        #expect(throws: VaultError.otherVersionSealedElsewhere(ItemKey(group: ci, service: "db", account: "main"))) {
            try ciWriter.resolve(matching: Query(service: "db", account: "main", group: ci), keeping: .theirs)
        }
    }

    /// Clones of a vault with a `ci` item, full member alice and read-only member runner (of `ci`);
    /// alice's identity, to rewrite slots with in her own build.
    private func clonesWithAliceAndARunner() throws -> (alice: AgeIdentity, clones: Clones) {
        let alice = try AgeIdentity.generate(), runner = try AgeIdentity.generate()
        let clones = try clones {
            try $0.add("deploy", "ci", "token", group: ci)
            try $0.addMember(name: "alice", recipient: alice.recipient, groups: [], readOnly: false)
            try $0.addMember(name: "runner", recipient: runner.recipient, groups: [ci], readOnly: true)
        }
        return (alice, clones)
    }

    /// A full member drops a slot in its own build (here the runner's): the slots are no longer the
    /// team log's members, so the side is damage to everyone who opens it, and a merge of it changes nothing.
    @Test func aSideWhoseSlotsAreNotItsLogsStopsTheMerge() throws {
        let (alice, clones) = try clonesWithAliceAndARunner()
        var shrunk = WorkingCopy(try Snapshot.open(FileBytes(clones.theirBytes), identities: [alice], deviceKey: nil, path: ""))
        shrunk.file.members.removeLast()
        shrunk.trustAsRead = TrustFields(of: shrunk.file)  // her build keeps the statement it read, as a full member's write must
        writeBytes(try shrunk.encode(), to: clones.theirs.location.path)
        let before = clones.ourBytes
        #expect(throws: VaultError.self) { try clones.merge() }
        #expect(clones.ourBytes == before)
        #expect(throws: VaultError.self) { try clones.theirs.attributes(matching: Query()) }
    }

    /// The owner removed members on two clones: the join keeps every removal.
    @Test func removalsOnTwoOwnerClonesBothStay() throws {
        let bob = try AgeIdentity.generate(), dave = try AgeIdentity.generate(), erin = try AgeIdentity.generate()
        let clones = try clones {
            try $0.add("deploy", "ci", "token", group: ci)
            try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
            try $0.addMember(name: "dave", recipient: dave.recipient, groups: [ci], readOnly: true)
            try $0.addMember(name: "erin", recipient: erin.recipient, groups: [ci], readOnly: false)
        }
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        _ = try clones.theirs.removeMember(named: "dave", kdf: .testing) { _ in }
        _ = try clones.theirs.removeMember(named: "erin", kdf: .testing) { _ in }
        let report = try clones.merge()
        #expect(report.joinedLogs)
        #expect(try clones.ours.members().isEmpty)
        #expect(throws: VaultError.self) { try asBob(bob, on: clones.ours, pinned: try clones.ours.trustFingerprint()).secret("b", "x") }
        #expect(throws: VaultError.self) {
            try asBob(erin, on: clones.ours, pinned: try clones.ours.trustFingerprint()).secret("deploy", "ci", group: ci)
        }
    }

    /// The file just after a removal, merged after the owner added the member back: its log is an
    /// ancestor of ours, so it changes no member.
    @Test func aReplayedRemovalDoesNotRemoveAMemberAddedBack() throws {
        let bob = try AgeIdentity.generate()
        let clones = try clones { try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false) }
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        writeBytes(clones.ourBytes, to: clones.theirs.location.path)  // the real file just after the removal, replayed
        try clones.ours.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        let report = try clones.merge()
        #expect(report.membersRemoved.isEmpty && !report.joinedLogs)
        #expect(try clones.ours.members().map(\.name) == ["bob"])
    }

    /// Adding bob back (read-only) keeps his branch from before the removal a branch of conflicts; a
    /// full member adds nobody: only the owner appends to the team log.
    @Test func addingBackKeepsABranchFromBeforeTheRemovalConflicts() throws {
        let bob = try AgeIdentity.generate(), bob2 = try AgeIdentity.generate()
        let clones = try clones {
            try $0.add("deploy", "ci", "token", group: ci)
            try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        }
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        try clones.ours.addMember(name: "bob", recipient: bob.recipient, groups: [ci], readOnly: true)
        let bobsBranch = asBob(bob, on: clones.theirs, pinned: try clones.ours.trustFingerprint())
        try change(bobsBranch, "a", to: "bobs-a")
        #expect(throws: VaultError.trustKeyNeeded(.addMembers)) {
            try bobsBranch.addMember(name: "bob2", recipient: bob2.recipient, groups: [], readOnly: false)
        }
        let report = try clones.merge()
        #expect(report.applied == 0 && report.conflicts.map(\.service) == ["a"])
        #expect(try clones.ours.members().map(\.name) == ["bob"])
        #expect(try clones.ours.secret("a", "x") == "a-base")
    }

    @Test func aFullMemberMergesTheOwnersAddingBack() throws {
        let alice = try AgeIdentity.generate(), bob = try AgeIdentity.generate()
        let clones = try clones {
            try $0.addMember(name: "alice", recipient: alice.recipient, groups: [], readOnly: false)
            try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        }
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        try clones.ours.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        let pinned = try clones.ours.trustFingerprint()
        let asAlice = asBob(alice, on: clones.theirs, pinned: pinned)
        try change(asAlice, "b", to: "alices-b")
        let report = try asAlice.merge(base: clones.base, theirs: clones.ourBytes, origins: ("alice", "owner"), kdf: .testing) { _ in }
        #expect(report.conflicts.map(\.service) == ["b"])  // hers is from before a removal: a conflict, not lost
        #expect(try asAlice.members().map(\.name) == ["alice", "bob"])
    }

    /// A full member with a change of her own merges the owner's second removal: the owner's log
    /// descends from hers, so nothing needs the trust key.
    @Test func aFullMemberMergesASecondRemoval() throws {
        let alice = try AgeIdentity.generate(), bob = try AgeIdentity.generate(), carol = try AgeIdentity.generate()
        let clones = try clones {
            try $0.addMember(name: "alice", recipient: alice.recipient, groups: [], readOnly: false)
            try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
            try $0.addMember(name: "carol", recipient: carol.recipient, groups: [], readOnly: false)
        }
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        writeBytes(clones.ourBytes, to: clones.theirs.location.path)
        let base = clones.ourBytes
        let asAlice = asBob(alice, on: clones.theirs, pinned: try clones.ours.trustFingerprint())
        try change(asAlice, "c", to: "alices-c")
        _ = try clones.ours.removeMember(named: "carol", kdf: .testing) { _ in }
        let report = try asAlice.merge(base: base, theirs: clones.ourBytes, origins: ("alice", "owner"), kdf: .testing) { _ in }
        #expect(report.conflicts.map(\.service) == ["c"])
        #expect(try asAlice.members().map(\.name) == ["alice"])
    }

    /// Two owner clones each removed and added back bob (or one removed him once more): the branches
    /// disagree about him, so the join leaves him out, and names him.
    @Test func aMemberTheBranchesDisagreeOnIsLeftOutOfTheJoin() throws {
        let bob = try AgeIdentity.generate()
        let clones = try clones { try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false) }
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        writeBytes(clones.ourBytes, to: clones.theirs.location.path)
        let base = clones.ourBytes
        try clones.ours.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        for _ in 0..<2 { _ = try clones.theirs.revoke(group: .default) }
        try clones.theirs.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        let report = try clones.merge(base: base)
        #expect(try clones.ours.members().isEmpty)
        #expect(report.membersLeftOut == ["bob"])
        #expect(report.keyEpoch > 5)
    }

    @Test func aRemovalOnAnotherCloneIsNotUndoneByAnAddingBack() throws {
        let bob = try AgeIdentity.generate()
        let clones = try clones { try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false) }
        _ = try clones.theirs.removeMember(named: "bob", kdf: .testing) { _ in }
        try clones.theirs.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        try clones.merge()
        #expect(try clones.ours.members().isEmpty)
    }

    /// Diverged team logs are joined by the owner only: a full member's merge stops with nothing written.
    @Test func onlyTheOwnerJoinsDivergedTeamLogs() throws {
        let alice = try AgeIdentity.generate(), bob = try AgeIdentity.generate()
        let clones = try clones {
            try $0.addMember(name: "alice", recipient: alice.recipient, groups: [], readOnly: false)
            try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false)
        }
        _ = try clones.ours.revoke(group: .default)
        _ = try clones.theirs.removeMember(named: "bob", kdf: .testing) { _ in }
        let asAlice = asBob(alice, on: clones.ours, pinned: try clones.ours.trustFingerprint())
        try change(asAlice, "c", to: "alices-c")
        let before = clones.ourBytes
        #expect(throws: VaultError.onlyOwnerJoins) {
            try asAlice.merge(base: clones.base, theirs: clones.theirBytes, origins: ("alice", "owner"), kdf: .testing) { _ in }
        }
        #expect(clones.ourBytes == before)
        let report = try clones.merge()
        #expect(report.joinedLogs && report.membersRemoved == ["bob"])
        #expect(try clones.ours.members().map(\.name) == ["alice"])
    }

    /// Two owner machines joining the same heads make the same entry, whichever side is ours, and
    /// joining a log with its own join is no change: the join descends from both.
    @Test func aJoinIsTheSameFromBothSidesAndJoiningAgainChangesNothing() throws {
        let bob = try AgeIdentity.generate(), carol = try AgeIdentity.generate()
        let clones = try clones { try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false) }
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        try clones.theirs.addMember(name: "carol", recipient: carol.recipient, groups: [], readOnly: false)
        func openLog(_ bytes: [UInt8]) throws -> TeamLog {
            var vault = WorkingCopy(try Snapshot.unlock(FileBytes(bytes), secret: testKeyFile, deviceKey: nil, path: ""))
            return try vault.openTeamLog()
        }
        let mine = try openLog(clones.ourBytes), theirs = try openLog(clones.theirBytes)
        let one = try mine.joined(with: theirs), other = try theirs.joined(with: mine)
        #expect(one.log.hashes == other.log.hashes && one.log.head == other.log.head)
        #expect(try one.log.state().members.map(\.name) == ["carol"])
        #expect(one.log.descends(from: mine) && one.log.descends(from: theirs))
    }

    /// A member cannot append to the team log: removed bob's branch, at a higher key epoch than the
    /// owner's removal, holds no member he added, and the owner's join leaves him out.
    @Test func aBranchStillHoldingARemovedMemberIsConflictsAndAddsNoMember() throws {
        let bob = try AgeIdentity.generate(), bob2 = try AgeIdentity.generate()
        let clones = try clones { try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false) }
        for _ in 0..<2 { _ = try clones.theirs.revoke(group: .default) }  // the owner's other clone, bob still a member
        _ = try clones.ours.removeMember(named: "bob", kdf: .testing) { _ in }
        for _ in 0..<3 { _ = try clones.ours.revoke(group: .default) }
        let bobsBranch = asBob(bob, on: clones.theirs, pinned: try clones.ours.trustFingerprint())
        #expect(throws: VaultError.self) { try bobsBranch.addMember(name: "bob2", recipient: bob2.recipient, groups: [], readOnly: false) }
        try change(bobsBranch, "a", to: "bobs-a")
        let report = try clones.merge()
        #expect(report.membersAdded.isEmpty)
        #expect(report.applied == 0 && report.conflicts.map(\.service) == ["a"])
        #expect(try clones.ours.members().isEmpty)
        #expect(try clones.ours.secret("a", "x") == "a-base")
    }

    @Test func aMemberRemovedOnTheOtherSideIsRemovedHereToo() throws {
        let runner = try AgeIdentity.generate(), carol = try AgeIdentity.generate()
        let clones = try clones {
            try $0.add("deploy", "ci", "token", group: ci)
            try $0.addMember(name: "runner", recipient: runner.recipient, groups: [ci], readOnly: true)
        }
        // Ours added carol and re-keyed; theirs removed the scoped runner (its group re-keyed).
        try clones.ours.addMember(name: "carol", recipient: carol.recipient, groups: [], readOnly: false)
        _ = try clones.theirs.removeMember(named: "runner", kdf: .testing) { _ in }
        _ = try clones.ours.rekey(kdf: .testing) { _ in }
        let report = try clones.merge()
        #expect(report.joinedLogs && report.membersRemoved == ["runner"] && report.groupsRevoked == [ci])
        #expect(try clones.ours.members().map(\.name) == ["carol"])
        let asRunner = Vault(
            location: clones.ours.location, keys: .identity([runner]), host: Vault.selfContainedHost(for: clones.ours.location),
            configuration: Vault.Configuration(trustedFingerprint: try clones.ours.trustFingerprint()))
        #expect(throws: VaultError.self) { try asRunner.secret("deploy", "ci", group: ci) }
    }

    @Test func membersAddedOnBothSidesAreMerged() throws {
        let carol = try AgeIdentity.generate(), dave = try AgeIdentity.generate()
        let clones = try clones()
        try clones.ours.addMember(name: "carol", recipient: carol.recipient, groups: [], readOnly: false)
        try clones.theirs.add("deploy", "ci", "token", group: ci)
        try clones.theirs.addMember(name: "dave", recipient: dave.recipient, groups: [ci], readOnly: true)
        let report = try clones.merge()
        #expect(report.membersAdded == ["dave"])
        let members = try clones.ours.members()
        #expect(members.map(\.name) == ["carol", "dave"] && members[1].groups == [ci] && members[1].readOnly)
        let asDave = Vault(
            location: clones.ours.location, keys: .identity([dave]), host: Vault.selfContainedHost(for: clones.ours.location),
            configuration: Vault.Configuration(trustedFingerprint: try clones.ours.trustFingerprint()))
        #expect(try asDave.secret("deploy", "ci", group: ci) == "token")
    }

    @Test func theCountersAreTheLargerOfTheTwoRaisedAndABehindSideIsNoRollback() throws {
        let clones = try clones()
        for round in 0..<5 { try change(clones.theirs, "b", to: "b-\(round)") }
        try change(clones.ours, "a", to: "a-ours")
        let theirGeneration = try VaultFile.decode(clones.theirBytes).file.writeGeneration
        try clones.merge()
        #expect(try VaultFile.decode(clones.ourBytes).file.writeGeneration == theirGeneration + 1)
        // Ours was behind theirs and this machine never saw theirs: still readable and writable.
        try change(clones.ours, "c", to: "c-after")
        #expect(try clones.ours.secret("b", "x") == "b-4")
    }

    /// Issue 17's forgery, against a merge: whoever can push can commit a vault of their own keys
    /// under the real vault id, with a full member's recipient in it. A full member merging with its
    /// identity takes in only a side the pinned key signed.
    @Test func aFullMemberMergesOnlyASideThePinnedKeySigned() throws {
        let bob = try AgeIdentity.generate()
        let clones = try clones { try $0.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false) }
        let pinned = try clones.ours.trustFingerprint()
        let vaultID = try VaultFile.decode(clones.base).file.vaultID
        var forged = try WorkingCopy.create(
            vaultID: vaultID, slotKind: .keyFile, secret: SecretBytes(Array("the attacker's".utf8)),
            kdf: .testing, deviceKey: .random(), path: "forged")
        _ = try forged.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false, addedAt: Date())
        let now = Date()
        try forged.store(
            Item(
                attributes: ItemAttributes(service: "a", account: "x", created: now, modified: now),
                secret: SecretBytes(Array("forged".utf8))))
        let forgedBytes = try forged.encode()
        let asBob = Vault(
            location: clones.ours.location, keys: .identity([bob]), host: Vault.selfContainedHost(for: clones.ours.location),
            configuration: Vault.Configuration(trustedFingerprint: pinned))
        let before = clones.ourBytes
        #expect(
            throws: VaultError.mergeInput(
                .theirs(origin: "theirs"), refusal: .untrustedVault(path: clones.ours.location.path, pinned: pinned))
        ) {
            try asBob.merge(base: clones.base, theirs: forgedBytes, origins: ("ours", "theirs"), kdf: .testing) { _ in }
        }
        // Nor as the merge base (a cherry-pick or a rebase --onto can make any commit the base).
        #expect(throws: VaultError.mergeInput(.base, refusal: .untrustedVault(path: clones.ours.location.path, pinned: pinned))) {
            try asBob.merge(base: forgedBytes, theirs: clones.theirBytes, origins: ("ours", "theirs"), kdf: .testing) { _ in }
        }
        let unchanged = clones.ourBytes == before  // compared first: a failed expectation prints big arrays slowly
        #expect(unchanged)
        // The real other side merges for bob as for the owner.
        try change(clones.theirs, "a", to: "a-theirs")
        try asBob.merge(base: clones.base, theirs: clones.theirBytes, origins: ("ours", "theirs"), kdf: .testing) { _ in }
        #expect(try asBob.secret("a", "x") == "a-theirs")
    }
}
