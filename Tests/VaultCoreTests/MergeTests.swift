import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Merging two versions of one vault record by record against their base (docs/TEAMS.md, "Merging").
/// Each side lives in a directory of its own, as two clones on two machines do.
@Suite struct MergeTests {
    let ci = AccessGroup("ci")!

    /// Two machines' clones of one vault, and the base both started from.
    struct Clones {
        let directories: [TempDirectory]
        let ours: Vault
        let theirs: Vault
        let base: [UInt8]

        var theirBytes: [UInt8] { fileBytes(theirs.location.path) }
        var ourBytes: [UInt8] { fileBytes(ours.location.path) }

        /// Merges theirs into ours, confirming whatever a re-key drops.
        @discardableResult
        func merge(base: [UInt8]? = nil) throws -> MergeReport {
            try ours.reconfigured { $0.acceptTeamLog = true }.merge(base: base ?? self.base, theirs: theirBytes, origins: ("ours", "theirs"), kdf: .testing) { _ in }
        }
    }

    /// A vault with items a, b and c (and `prepare`'s changes), copied to two clones.
    func clones(_ prepare: (Vault) throws -> Void = { _ in }) throws -> Clones {
        let first = try TempDirectory(), second = try TempDirectory()
        let ours = try Vault.makeTest(at: first.location("team.vault"))
        for name in ["a", "b", "c"] { try ours.add(name, "x", "\(name)-base") }
        try prepare(ours)
        let base = fileBytes(ours.location.path)
        writeBytes(base, to: second.location("team.vault").path)
        let theirs = Vault(location: second.location("team.vault"), credential: testKeyFile)
        return Clones(directories: [first, second], ours: ours, theirs: theirs, base: base)
    }

    func change(_ vault: Vault, _ service: String, to secret: String) throws {
        try vault.update(matching: Query(service: service, account: "x"), with: ItemChange(secret: SecretBytes(Array(secret.utf8))))
    }

    func names(_ vault: Vault) throws -> [String] {
        try vault.attributes(matching: Query()).map(\.service).sorted()
    }

    @Test func conflictFieldsRoundTripThroughARecordsPlaintext() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let other = Item(attributes: ItemAttributes(service: "db", account: "prod", group: ci, accessibility: .afterFirstUnlock,
                                                    details: ItemDetails(label: "theirs"), created: now, modified: now),
                         secret: SecretBytes(Array("their-secret".utf8)), fields: SealedFields(notes: SecretBytes(Array("their note".utf8))))
        let conflicts = [ItemConflict(currentSide: .ours, other: other, origin: "MERGE_HEAD abc1234 by bob"),
                         ItemConflict(currentSide: .theirs, other: nil, origin: "HEAD def5678 by alice")]
        let plaintext = RecordCodec.encodePlaintext(Item(attributes: ItemAttributes(service: "db", account: "prod", created: now, modified: now),
                                                         secret: SecretBytes(Array("ours".utf8))), conflicts: conflicts)
        let decoded = try RecordCodec.decodeConflicts(plaintext)
        #expect(decoded.count == 2 && decoded[0].currentSide == .ours && decoded[1].currentSide == .theirs && decoded[1].other == nil)
        #expect(decoded[0].other?.attributes == other.attributes && decoded[0].other?.secret.text == "their-secret")
        #expect(decoded[0].other?.fields[.notes]?.text == "their note")
        #expect(decoded.map(\.origin) == conflicts.map(\.origin))
        // The item itself reads as before: a reader that knows nothing of tag 13 skips it.
        #expect(try RecordCodec.decodePlaintext(plaintext, group: .default, accessibility: .default).secret.text == "ours")
    }

    @Test func changesOfDifferentItemsAreAllKept() throws {
        let clones = try clones()
        try change(clones.ours, "a", to: "a-ours")
        try change(clones.theirs, "b", to: "b-theirs")
        try clones.theirs.add("d", "x", "d-theirs")
        try clones.theirs.delete(matching: Query(service: "c", account: "x"))
        let report = try clones.merge()
        #expect(report.applied == 3 && report.conflicts.isEmpty)
        #expect(try clones.ours.secret("a", "x") == "a-ours")
        #expect(try clones.ours.secret("b", "x") == "b-theirs")
        #expect(try clones.ours.secret("d", "x") == "d-theirs")
        #expect(try names(clones.ours) == ["a", "b", "d"])
        #expect(try clones.ours.conflicts().isEmpty)
    }

    @Test func anItemChangedOnBothSidesKeepsBothUntilResolved() throws {
        for keep in [MergeSide.ours, .theirs] {
            let clones = try clones()
            try change(clones.ours, "a", to: "a-ours")
            try change(clones.theirs, "a", to: "a-theirs")
            let report = try clones.merge()
            #expect(report.conflicts.map(\.service) == ["a"])
            let listed = try clones.ours.conflicts()
            #expect(listed.count == 1 && listed[0].currentSide == .ours && listed[0].other != nil && listed[0].origin == "theirs")
            var notices: [VaultNotice] = []
            let noticed = clones.ours.reconfigured { $0.onNotice = { notices.append($0) } }
            #expect(try noticed.secret("a", "x") == "a-ours")
            #expect(notices == [.itemInConflict(ItemKey(group: .default, service: "a", account: "x"))], "a read says the item is in conflict")
            #expect(try noticed.otherVersion(matching: Query(service: "a", account: "x")).item.secret.text == "a-theirs")
            try noticed.resolve(matching: Query(service: "a", account: "x"), keeping: keep)
            notices = []
            _ = try noticed.secret("a", "x")
            #expect(notices.isEmpty, "a settled item reads without a notice")
            #expect(try clones.ours.secret("a", "x") == (keep == .ours ? "a-ours" : "a-theirs"))
            #expect(try clones.ours.conflicts().isEmpty)
            #expect(throws: VaultError.self) { try clones.ours.resolve(matching: Query(service: "a", account: "x"), keeping: keep) }
        }
    }

    @Test func changedOnOneSideAndDeletedOnTheOtherIsAConflictAndNothingIsLost() throws {
        // Deleted here, changed there: the item comes back with their version, as a conflict.
        var clones = try clones()
        try clones.ours.delete(matching: Query(service: "a", account: "x"))
        try change(clones.theirs, "a", to: "a-theirs")
        try clones.merge()
        #expect(try clones.ours.secret("a", "x") == "a-theirs")
        var listed = try clones.ours.conflicts()
        #expect(listed.count == 1 && listed[0].currentSide == .theirs && listed[0].other == nil)
        #expect(try clones.ours.resolve(matching: Query(service: "a", account: "x"), keeping: .ours).isDeletion)
        #expect(try names(clones.ours) == ["b", "c"])

        // Changed here, deleted there: ours stays, the deletion is the other version.
        clones = try self.clones()
        try change(clones.ours, "b", to: "b-ours")
        try clones.theirs.delete(matching: Query(service: "b", account: "x"))
        try clones.merge()
        #expect(try clones.ours.secret("b", "x") == "b-ours")
        listed = try clones.ours.conflicts()
        #expect(listed.count == 1 && listed[0].currentSide == .ours && listed[0].other == nil)
        #expect(throws: VaultError.otherSideDeleted(ItemKey(group: .default, service: "b", account: "x"), current: .ours)) {
            try clones.ours.otherVersion(matching: Query(service: "b", account: "x"))
        }
        #expect(try clones.ours.resolve(matching: Query(service: "b", account: "x"), keeping: .theirs).isDeletion)
        #expect(try names(clones.ours) == ["a", "c"])
    }

    @Test func aSecondConflictOnAnItemKeepsEveryVersionNewestFirst() throws {
        let clones = try clones()
        try change(clones.ours, "a", to: "a-ours")
        try change(clones.theirs, "a", to: "a-theirs-1")
        try clones.merge()
        // They go on from their own commit, which is the base of the next merge.
        let theirFirst = clones.theirBytes
        try change(clones.theirs, "a", to: "a-theirs-2")
        try clones.merge(base: theirFirst)
        let listed = try clones.ours.conflicts()
        #expect(listed.count == 1 && listed[0].olderVersions == 1)
        #expect(try clones.ours.secret("a", "x") == "a-ours")
        #expect(try clones.ours.otherVersion(matching: Query(service: "a", account: "x")).item.secret.text == "a-theirs-2")
        try clones.ours.resolve(matching: Query(service: "a", account: "x"), keeping: .theirs)
        #expect(try clones.ours.secret("a", "x") == "a-theirs-2" && clones.ours.conflicts().isEmpty)
    }

    /// A third clone (carol, on a machine of its own) that makes `carolsChange` from the base and
    /// then merges the file in which ours and theirs left `a` in conflict ("a-ours" current,
    /// "a-theirs" beside it). The directories are returned to keep them while the test runs.
    func carolMergingAConflict(_ carolsChange: (Vault) throws -> Void) throws -> (carol: Vault, directories: [TempDirectory]) {
        let clones = try clones()
        try change(clones.ours, "a", to: "a-ours")
        try change(clones.theirs, "a", to: "a-theirs")
        try clones.merge()
        let third = try TempDirectory()
        writeBytes(clones.base, to: third.location("team.vault").path)
        let carol = Vault(location: third.location("team.vault"), credential: testKeyFile)
        try carolsChange(carol)
        try carol.merge(base: clones.base, theirs: clones.ourBytes, origins: ("carol", "the remote"), kdf: .testing) { _ in }
        return (carol, clones.directories + [third])
    }

    /// Found by the property test (seed 7827091277970143497): a third clone deletes an item two others
    /// left in conflict. The deletion is the newest conflict; the older version stays readable.
    @Test func aVersionBehindANewerDeletionStaysReadable() throws {
        let (carol, directories) = try carolMergingAConflict { try $0.delete(matching: Query(service: "a", account: "x")) }
        defer { withExtendedLifetime(directories) {} }
        #expect(try carol.secret("a", "x") == "a-ours")
        #expect(try carol.otherVersion(matching: Query(service: "a", account: "x")).item.secret.text == "a-theirs")
        let listed = try carol.conflicts()
        #expect(listed.count == 1 && listed[0].other == nil && listed[0].olderVersions == 1)
    }

    /// Found by the property test (seed 5572110608535527331): three clones change one item; every
    /// version is kept and each is readable, by its conflict's number.
    @Test func everyVersionOfAThreeWayConflictIsReadable() throws {
        let (carol, directories) = try carolMergingAConflict { try change($0, "a", to: "a-carol") }
        defer { withExtendedLifetime(directories) {} }
        let query = Query(service: "a", account: "x")
        #expect(try carol.secret("a", "x") == "a-carol")
        #expect(try carol.otherVersion(matching: query, conflict: 1).item.secret.text == "a-ours")
        #expect(try carol.otherVersion(matching: query, conflict: 2).item.secret.text == "a-theirs")
        #expect(throws: VaultError.noConflictNumber(ItemKey(group: .default, service: "a", account: "x"), requested: 3, count: 2)) {
            try carol.otherVersion(matching: query, conflict: 3)
        }
        #expect(try carol.conflicts().map(\.olderVersions) == [1])
    }

    @Test func oneNameAddedOnBothSidesIsOneItemInConflict() throws {
        let clones = try clones()
        try clones.ours.add("new", "x", "new-ours")
        try clones.theirs.add("new", "x", "new-theirs")
        let report = try clones.merge()
        #expect(report.conflicts.map(\.service) == ["new"])
        #expect(try clones.ours.attributes(matching: Query(service: "new")).count == 1)
        #expect(try clones.ours.secret("new", "x") == "new-ours")
        #expect(try clones.ours.otherVersion(matching: Query(service: "new", account: "x")).item.secret.text == "new-theirs")
    }

    @Test func aConflictOutlivesAnUpdateAndARekeyUntilResolved() throws {
        let clones = try clones()
        try change(clones.ours, "a", to: "a-ours")
        try change(clones.theirs, "a", to: "a-theirs")
        try clones.merge()
        try change(clones.ours, "a", to: "a-later")
        _ = try clones.ours.rekey(kdf: .testing) { _ in }
        #expect(try clones.ours.secret("a", "x") == "a-later")
        #expect(try clones.ours.otherVersion(matching: Query(service: "a", account: "x")).item.secret.text == "a-theirs")
    }

    @Test func editsOnOneSideAreResealedUnderTheOtherSidesNewKeys() throws {
        let clones = try clones()
        try change(clones.ours, "a", to: "a-ours")
        _ = try clones.theirs.rekey(kdf: .testing) { _ in }
        let theirEpoch = VaultFile.peekKeyEpoch(FileBytes(clones.theirBytes))!
        let report = try clones.merge()
        // Their log descends from ours: the result is written on their side, under keys new to ours.
        #expect(report.conflicts.isEmpty && report.keyEpoch == theirEpoch && report.rekeyed && !report.joinedLogs)
        #expect(try clones.ours.secret("a", "x") == "a-ours")
        // The result holds their keys: the base's master key opens nothing of it.
        let baseKey = try Snapshot.unlock(clones.base, secret: testKeyFile, deviceKey: nil, path: "base").keys.masterKey!
        #expect(throws: VaultError.self) { try Snapshot.open(FileBytes(clones.ourBytes), masterKey: baseKey, deviceKey: nil, path: "ours") }
    }

    @Test func whenBothSidesReKeyedTheResultIsReKeyedOnceMore() throws {
        let clones = try clones()
        _ = try clones.ours.rekey(kdf: .testing) { _ in }
        _ = try clones.theirs.rekey(kdf: .testing) { _ in }
        try change(clones.theirs, "b", to: "b-theirs")
        let epochs = [clones.ourBytes, clones.theirBytes].map { VaultFile.peekKeyEpoch(FileBytes($0))! }
        let theirKey = try Snapshot.unlock(clones.theirBytes, secret: testKeyFile, deviceKey: nil, path: "theirs").keys.masterKey!
        let report = try clones.merge()
        #expect(report.rekeyed && report.keyEpoch > epochs.max()!)
        #expect(try clones.ours.secret("b", "x") == "b-theirs")
        #expect(throws: VaultError.self) { try Snapshot.open(FileBytes(clones.ourBytes), masterKey: theirKey, deviceKey: nil, path: "ours") }
    }

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
        let asBob = Vault(location: clones.ours.location, keys: .identity([bob]), host: Vault.selfContainedHost(for: clones.ours.location),
                          configuration: Vault.Configuration(trustedFingerprint: try clones.ours.trustFingerprint()))
        #expect(throws: VaultError.self) { try asBob.secret("b", "x") }
    }

    /// bob's identity, on the other side of a merge: a side he writes with it.
    func asBob(_ bob: AgeIdentity, on vault: Vault, pinned: String) -> Vault {
        Vault(location: vault.location, keys: .identity([bob]), host: Vault.selfContainedHost(for: vault.location),
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
        try clones.ours.update(matching: Query(service: "db", account: "main", group: ci), with: ItemChange(secret: SecretBytes(Array("db-ours".utf8))))
        _ = try clones.theirs.move(matching: Query(service: "db", account: "main", group: ci), toGroup: prod)
        try clones.theirs.update(matching: Query(service: "db", account: "main", group: prod), with: ItemChange(secret: SecretBytes(Array("prod-secret".utf8))))
        let report = try clones.merge()
        #expect(report.conflicts.map(\.service) == ["db"])
        let ciReader = Vault(location: clones.ours.location, keys: .scoped(try clones.ours.grant(groups: [ci], readOnly: true, expires: nil)),
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
        let ciWriter = Vault(location: clones.ours.location, keys: .scoped(try clones.ours.grant(groups: [ci], readOnly: false, expires: nil)),
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
        #expect(throws: VaultError.self) { try asBob(erin, on: clones.ours, pinned: try clones.ours.trustFingerprint()).secret("deploy", "ci", group: ci) }
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
        for _ in 0..<2 { _ = try clones.theirs.revoke(group: .default) }      // the owner's other clone, bob still a member
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
        let asRunner = Vault(location: clones.ours.location, keys: .identity([runner]), host: Vault.selfContainedHost(for: clones.ours.location),
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
        let asDave = Vault(location: clones.ours.location, keys: .identity([dave]), host: Vault.selfContainedHost(for: clones.ours.location),
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
        var forged = try WorkingCopy.create(vaultID: vaultID, slotKind: .keyFile, secret: SecretBytes(Array("the attacker's".utf8)),
                                          kdf: .testing, deviceKey: .random(), path: "forged")
        _ = try forged.addMember(name: "bob", recipient: bob.recipient, groups: [], readOnly: false, addedAt: Date())
        let now = Date()
        try forged.store(Item(attributes: ItemAttributes(service: "a", account: "x", created: now, modified: now), secret: SecretBytes(Array("forged".utf8))))
        let forgedBytes = try forged.encode()
        let asBob = Vault(location: clones.ours.location, keys: .identity([bob]), host: Vault.selfContainedHost(for: clones.ours.location),
                          configuration: Vault.Configuration(trustedFingerprint: pinned))
        let before = clones.ourBytes
        #expect(throws: VaultError.mergeInput(.theirs(origin: "theirs"), refusal: .untrustedVault(path: clones.ours.location.path, pinned: pinned))) {
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

    // MARK: the review's findings, each reproduced first

    /// A removed full member copies back her pre-removal file, edits it and commits it on top of the
    /// removal: a side whose key epoch is below its own merge base was rolled back, and is refused.
    @Test func aSideRolledBackBelowItsBaseIsRefused() throws {
        let mallory = try AgeIdentity.generate()
        let clones = try clones { try $0.addMember(name: "mallory", recipient: mallory.recipient, groups: [], readOnly: false) }
        _ = try clones.ours.removeMember(named: "mallory", kdf: .testing) { _ in }
        let afterRemoval = clones.ourBytes
        try change(clones.theirs, "a", to: "evil")  // the pre-removal copy, at the old epoch
        try clones.ours.add("d", "x", "d-ours")
        let before = clones.ourBytes
        #expect(throws: VaultError.self) { try clones.merge(base: afterRemoval) }
        do {
            try clones.merge(base: afterRemoval)
        } catch VaultError.merge(.mergeInput(.theirs, .snapshot(.rolledBack(_, let found, let expected)))) {
            #expect(found == 2 && expected == 4)  // mallory added at 2; removed at 3, re-keyed at 4
        }
        let unchanged = clones.ourBytes == before  // compared first: a failed expectation prints big arrays slowly
        #expect(unchanged)
        #expect(try clones.ours.members().isEmpty && clones.ours.secret("a", "x") == "a-base")
    }

    /// A branch cut before a member's removal cannot dodge the rule by raising its own epoch
    /// (`revoke`): its changes are still conflicts, and the version shown is not the branch's.
    @Test func aBranchOfARemovedMemberStaysSupersededWhateverItsEpoch() throws {
        for revokes in [1, 2] {
            let mallory = try AgeIdentity.generate()
            let clones = try clones { try $0.addMember(name: "mallory", recipient: mallory.recipient, groups: [], readOnly: false) }
            _ = try clones.ours.removeMember(named: "mallory", kdf: .testing) { _ in }
            try change(clones.theirs, "a", to: "a-from-mallorys-branch")
            for _ in 0..<revokes { try clones.theirs.revoke(group: .default) }
            let report = try clones.merge()
            #expect(report.conflicts.map(\.service) == ["a"], "\(revokes) revokes")
            #expect(try clones.ours.secret("a", "x") == "a-base", "\(revokes) revokes")
            #expect(try clones.ours.otherVersion(matching: Query(service: "a", account: "x")).item.secret.text == "a-from-mallorys-branch")
            #expect(try clones.ours.members().isEmpty, "mallory stays removed (\(revokes) revokes)")
        }
    }

    /// A re-key on one branch and revokes on the other: the join keeps the re-key (the result is
    /// written on ours) and makes the revokes again; neither the base's keys nor the trust key the
    /// re-key retired come back.
    @Test func aRekeyOnOneBranchAndRevokesOnTheOtherBothHold() throws {
        let clones = try clones()
        _ = try clones.ours.rekey(kdf: .testing) { _ in }
        let newTrust = try clones.ours.trustFingerprint()
        let rekeyedKey = try Snapshot.unlock(clones.ourBytes, secret: testKeyFile, deviceKey: nil, path: "ours").keys.masterKey!
        let baseKey = try Snapshot.unlock(clones.base, secret: testKeyFile, deviceKey: nil, path: "base").keys.masterKey!
        try clones.theirs.revoke(group: .default)
        try clones.theirs.revoke(group: .default)  // their side now at the higher epoch, under the base's master key
        let report = try clones.merge()
        #expect(report.joinedLogs && !report.rekeyed && report.groupsRevoked == [.default])
        #expect(throws: VaultError.self) { try Snapshot.open(FileBytes(clones.ourBytes), masterKey: baseKey, deviceKey: nil, path: "ours") }
        #expect(try Snapshot.open(FileBytes(clones.ourBytes), masterKey: rekeyedKey, deviceKey: nil, path: "ours").file.keyEpoch == report.keyEpoch)
        #expect(try clones.ours.secret("a", "x") == "a-base")
        // The trust key that re-key made (to shut out an old passphrase, say) is the one the result keeps.
        #expect(try clones.ours.trustFingerprint() == newTrust)
    }

    /// Before signing a join, the owner is shown the other branch's entries as facts (the command
    /// line words them): who was added with what scope, who was removed, which group lost its key or went.
    @Test func theOwnersJoinShowsTheOtherBranchsEntries() throws {
        let dave = try AgeIdentity.generate(), erin = try AgeIdentity.generate()
        let old = AccessGroup("old")!
        let clones = try clones {
            try $0.add("deploy", "ci", "token", group: ci)
            try $0.createGroup(old)
            try $0.addMember(name: "dave", recipient: dave.recipient, groups: [ci], readOnly: true)
        }
        try clones.ours.add("d", "x", "d-ours")
        _ = try clones.ours.addMember(name: "frank", recipient: try AgeIdentity.generate().recipient, groups: [], readOnly: false)
        _ = try clones.theirs.addMember(name: "erin", recipient: erin.recipient, groups: [ci], readOnly: false)
        _ = try clones.theirs.removeMember(named: "dave", kdf: .testing) { _ in }
        _ = try clones.theirs.deleteGroup(old)
        var shown: [TeamLogReview] = []
        let report = try clones.ours.reconfigured { $0.reviewTeamLog = { shown.append($0) } }.merge(base: clones.base, theirs: clones.theirBytes, origins: ("ours", "theirs"), kdf: .testing) { _ in }
        #expect(report.joinedLogs)
        let erinEntry = TeamLogReview.ReviewedMember(name: "erin", recipient: erin.recipient.description, scope: .groups(count: 1, readOnly: false))
        #expect(shown.map(\.reason) == [.join])
        #expect(shown.first?.entries == [.memberAdded(erinEntry), .memberRemoved(name: "dave", recipient: dave.recipient.description),
                                        .groupKeyReplaced(ci), .groupDeleted(old)], "\(shown)")
    }

    /// A side whose record does not match its index entry's digest stops the merge, and the refusal
    /// names which file it is: their side, by its origin, under the path of the vault merged into.
    @Test func aDamagedRecordIsNamedByTheSideItIsOn() throws {
        let clones = try clones()
        try change(clones.theirs, "a", to: "a-theirs")
        var bytes = clones.theirBytes
        let decoded = try VaultFile.decode(FileBytes(bytes))
        let record = try #require(decoded.file.records.stored(at: 0).fileRange).1
        bytes[record.lowerBound + record.count / 2] ^= 0x01
        writeBytes(bytes, to: clones.theirs.location.path)
        let before = clones.ourBytes
        let damage = VaultError.corrupted(path: clones.ours.location.path, detail: .violates(.recordDigestMismatch))
        #expect(throws: VaultError.mergeInput(.theirs(origin: "theirs"), refusal: damage)) { try clones.merge() }
        #expect(clones.ourBytes == before)
    }

    /// A team log that opened but does not fold, found only by the merge, is damage of the vault file
    /// the merge writes, named by its path.
    @Test func aLogThatDoesNotFoldIsDamageOfTheFileMergedInto() throws {
        #expect(throws: VaultError.corrupted(path: "/work/team.vault", detail: .violates(.entryOutOfChain))) {
            try MergePlan.readingLogs(of: "/work/team.vault") { throw MalformedInput(.violates(.entryOutOfChain)) }
        }
    }

    /// Revokes on both branches all hold: the credential one ended stays ended.
    @Test func revokesOnBothBranchesAllHold() throws {
        let clones = try clones { try $0.add("deploy", "ci", "token", group: ci) }
        let leaked = try clones.ours.grant(groups: [ci], readOnly: true, expires: nil)
        try clones.ours.revoke(group: ci)
        for _ in 0..<2 { try clones.theirs.revoke(group: .default) }
        let report = try clones.merge()
        #expect(report.groupsRevoked == [.default])
        let withLeaked = Vault(location: clones.ours.location, keys: .scoped(leaked), host: Vault.selfContainedHost(for: clones.ours.location))
        #expect(throws: VaultError.credentialRevoked(ci)) { try withLeaked.secret("deploy", "ci", group: ci) }
        #expect(try clones.ours.secret("deploy", "ci", group: ci) == "token")
    }

    /// A conflict whose two versions do not fit in one record stops the merge: nothing is written
    /// that no reader could open.
    @Test func aConflictTooLargeForARecordStopsTheMerge() throws {
        let big = { (fill: Character) in SecretBytes(Array(String(repeating: fill, count: 600 * 1024).utf8)) }
        let clones = try clones()
        try clones.ours.update(matching: Query(service: "a", account: "x"), with: ItemChange(secret: big("o")))
        try clones.theirs.update(matching: Query(service: "a", account: "x"), with: ItemChange(secret: big("t")))
        let before = clones.ourBytes
        #expect(throws: VaultError.recordTooLarge(ItemKey(group: .default, service: "a", account: "x"))) { try clones.merge() }
        let unchanged = clones.ourBytes == before  // compared first: a failed expectation prints big arrays slowly
        #expect(unchanged)
    }

    /// An item renamed on one side onto a name the other side added is one item in conflict, not two of one name.
    @Test func aRenameOntoANameTheOtherSideAddedIsOneItemInConflict() throws {
        for renamedByUs in [true, false] {
            let clones = try clones()
            let (renamer, adder) = renamedByUs ? (clones.ours, clones.theirs) : (clones.theirs, clones.ours)
            try renamer.move(matching: Query(service: "a", account: "x"), toService: "new")
            try adder.add("new", "x", "new-added")
            let report = try clones.merge()
            #expect(report.conflicts.map(\.service) == ["new"], "renamed by \(renamedByUs ? "us" : "them")")
            #expect(try clones.ours.attributes(matching: Query(service: "new")).count == 1)
            let versions = Set([try clones.ours.secret("new", "x"), try clones.ours.otherVersion(matching: Query(service: "new", account: "x")).item.secret.text])
            #expect(versions == ["a-base", "new-added"], "renamed by \(renamedByUs ? "us" : "them")")
        }
    }

    /// A merge records no counters as seen: git may abort the merge and put the older file back.
    @Test func anAbortedMergeLeavesTheMachineAbleToWriteTheOlderFile() throws {
        let clones = try clones()
        for round in 0..<3 { try change(clones.theirs, "b", to: "b-\(round)") }
        let before = clones.ourBytes
        try clones.merge()
        writeBytes(before, to: clones.ours.location.path)  // git merge --abort
        try change(clones.ours, "c", to: "c-after-the-abort")
        #expect(try clones.ours.secret("c", "x") == "c-after-the-abort")
    }

    @Test func anotherVaultOrADamagedSideIsRefusedAndChangesNothing() throws {
        let clones = try clones()
        try change(clones.theirs, "a", to: "a-theirs")
        let before = clones.ourBytes
        let stranger = try TempDirectory()
        let strangerVault = try Vault.makeTest(at: stranger.location())
        try strangerVault.add("a", "x", "forged")
        #expect(throws: VaultError.mergeOfAnotherVault(path: clones.ours.location.path)) {
            try clones.ours.merge(base: clones.base, theirs: fileBytes(strangerVault.location.path), origins: ("ours", "theirs"), kdf: .testing) { _ in }
        }
        var damaged = clones.theirBytes
        damaged[damaged.count - 20] ^= 1
        #expect(throws: VaultError.self) {
            try clones.ours.merge(base: clones.base, theirs: damaged, origins: ("ours", "theirs"), kdf: .testing) { _ in }
        }
        let unchanged = clones.ourBytes == before  // compared first: a failed expectation prints big arrays slowly
        #expect(unchanged)
    }

    /// An item one side deleted stays deleted when the other side holds the revision deleted, whatever
    /// merge base git hands over: none (add/add), or one from before the item (a criss-cross history).
    @Test func aDeletionStandsAgainstTheRevisionItRemovedWhateverTheBase() throws {
        for deleting in [MergeSide.ours, .theirs] {
            for oldBase in [true, false] {
                var beforeTheItem: [UInt8] = []
                let clones = try clones { vault in
                    beforeTheItem = fileBytes(vault.location.path)
                    try vault.add("d", "x", "d-base")
                }
                _ = try (deleting == .ours ? clones.ours : clones.theirs).delete(matching: Query(service: "d", account: "x"))
                try clones.merge(base: oldBase ? beforeTheItem : [])
                #expect(try names(clones.ours) == ["a", "b", "c"], "deleted on \(deleting), old base \(oldBase)")
                #expect(try clones.ours.conflicts().isEmpty)
            }
        }
    }

    @Test func aChangeMadeAfterADeletionComesBackAsAConflict() throws {
        let clones = try clones()
        _ = try clones.ours.delete(matching: Query(service: "a", account: "x"))
        try change(clones.theirs, "a", to: "a-after")
        try clones.merge(base: [])
        #expect(try clones.ours.secret("a", "x") == "a-after")
        let listed = try clones.ours.conflicts()
        #expect(listed.count == 1 && listed[0].currentSide == .theirs && listed[0].other == nil)
    }

    /// The tombstone names the revision by what it holds, not only by its sealed bytes: a revision the
    /// other side sealed again (a re-key re-seals every item) still matches, and the tombstone itself
    /// outlives the deleting side's own revoke and re-key. (A revoke on the other side is not tried:
    /// it makes every change of ours to that group a conflict, the deletion too.)
    @Test func aTombstoneMatchesARevisionSealedAgainAndOutlivesRevokeAndReKey() throws {
        for resealed in [MergeSide.theirs, .ours] {
            let clones = try clones()
            _ = try clones.ours.delete(matching: Query(service: "a", account: "x"))
            if resealed == .theirs {
                _ = try clones.theirs.rekey(kdf: .testing) { _ in }
            } else {
                _ = try clones.ours.revoke(group: .default)
                _ = try clones.ours.rekey(kdf: .testing) { _ in }
            }
            try clones.merge(base: [])
            #expect(try names(clones.ours) == ["b", "c"], "resealed on \(resealed)")
            #expect(try clones.ours.conflicts().isEmpty)
        }
    }

    /// The merged file keeps the tombstones of both sides, so a later merge with a stale clone does
    /// not bring back what the other side deleted.
    @Test func aMergeKeepsTheTombstonesOfBothSides() throws {
        let clones = try clones()
        let stale = clones.base
        _ = try clones.theirs.delete(matching: Query(service: "b", account: "x"))
        try clones.merge()
        #expect(try names(clones.ours) == ["a", "c"])
        let merged = clones.ourBytes
        // A third clone still at the base merges into ours with no base: b stays deleted.
        writeBytes(stale, to: clones.theirs.location.path)
        try clones.merge(base: [])
        #expect(try names(clones.ours) == ["a", "c"])
        #expect(!merged.isEmpty)
        #expect(try clones.ours.conflicts().isEmpty)
    }

    @Test func withoutABaseEveryDifferenceIsAChangeAndNothingIsLost() throws {
        let clones = try clones()
        try change(clones.ours, "a", to: "a-ours")
        try clones.theirs.add("d", "x", "d-theirs")
        try clones.merge(base: [])
        #expect(try clones.ours.secret("d", "x") == "d-theirs")
        #expect(try clones.ours.secret("a", "x") == "a-ours")
        #expect(try clones.ours.conflicts().map(\.attributes.service) == ["a"])
    }
}

extension Resolution {
    var isDeletion: Bool {
        if case .deleted = self { return true }
        return false
    }
}
