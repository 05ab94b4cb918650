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
            try ours.reconfigured { $0.acceptTeamLog = true }.merge(
                base: base ?? self.base, theirs: theirBytes, origins: ("ours", "theirs"), kdf: .testing
            ) { _ in }
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
        let other = Item(
            attributes: ItemAttributes(
                service: "db", account: "prod", group: ci, accessibility: .afterFirstUnlock,
                details: ItemDetails(label: "theirs"), created: now, modified: now),
            secret: SecretBytes(Array("their-secret".utf8)), fields: SealedFields(notes: SecretBytes(Array("their note".utf8))))
        let conflicts = [
            ItemConflict(currentSide: .ours, other: other, origin: "MERGE_HEAD abc1234 by bob"),
            ItemConflict(currentSide: .theirs, other: nil, origin: "HEAD def5678 by alice")
        ]
        let plaintext = RecordCodec.encodePlaintext(
            Item(
                attributes: ItemAttributes(service: "db", account: "prod", created: now, modified: now),
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
            #expect(
                notices == [.itemInConflict(ItemKey(group: .default, service: "a", account: "x"))], "a read says the item is in conflict")
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
        #expect(throws: VaultError.self) {
            try Snapshot.open(FileBytes(clones.ourBytes), masterKey: theirKey, deviceKey: nil, path: "ours")
        }
    }
}

extension Resolution {
    var isDeletion: Bool {
        if case .deleted = self { return true }
        return false
    }
}
