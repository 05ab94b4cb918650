import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// A change to an item of group G takes effect only when it is authenticated under G's keys, by its
/// own side, and is about an item of G (docs/SECURITY.md, "What a writer of one group can do to
/// another"). Each test is an attack a writer of `ci` made, written as the bytes its keys let it
/// write: data in ci's own blocks and records only.
@Suite struct GroupAuthorityTests {
    let ci = AccessGroup("ci")!
    let prod = AccessGroup("prod")!
    let merges = MergeTests()

    /// The item id and sealed-record digest of `service`/`account` as `vault`'s index holds them (in clear in any copy).
    func indexIdentity(_ vault: Vault, _ service: String, _ account: String) throws -> (id: Bytes16, digest: [UInt8]) {
        try vault.withKeys {
            let snapshot = try vault.readSnapshot()
            let position = try #require(try snapshot.positions(matching: Query(service: service, account: account)).first)
            let entry = snapshot.file.index[position]
            return (entry.itemID, entry.digest.0.bytes + entry.digest.1.bytes)
        }
    }

    /// Writes, as `group`'s own tombstone block of `vault` (sealed by hand, as a writer of the group
    /// can), a tombstone naming `id` and `digest` with no content digest.
    func forgeTombstone(on vault: Vault, in group: AccessGroup, naming target: (id: Bytes16, digest: [UInt8])) throws {
        try vault.transaction { copy in
            let groupID = try #require(copy.keys.groupID(of: group))
            let forged = Tombstone(itemID: target.id, removedAt: 1, recordDigest: target.digest, contentDigest: Tombstone.unknownContent)
            let sealed = try AESGCM.seal(
                Tombstone.encode(try copy.tombstones(of: groupID) + [forged]), key: try copy.keys.tombstoneKey(groupID: groupID),
                aad: AAD.tombstones(vaultID: copy.file.vaultID, groupID: groupID))
            let block = ListingBlock(
                groupID: groupID, classID: Tombstone.blockClassID, bucket: 0, digest: SHA256.hash(sealed), sealed: StoredBytes(sealed))
            copy.file.listings.removeAll { $0.groupID == groupID && $0.classID == Tombstone.blockClassID }
            let first = copy.file.listings.firstIndex { $0.groupID == groupID } ?? copy.file.listings.endIndex
            copy.file.listings.insert(block, at: first)
        }
    }

    /// Re-seals `service`/`account`'s record (of ci) with a version kept in its own plaintext that names `group` and `class`.
    func forgeConflict(on vault: Vault, _ service: String, _ account: String, naming group: AccessGroup, _ accessibility: Accessibility)
        throws
    {
        try vault.transaction { copy in
            let position = try #require(try copy.positions(matching: Query(service: service, account: account)).first)
            let record = try copy.openWholeRecord(at: position)
            let now = Date()
            let planted = Item(
                attributes: ItemAttributes(
                    service: "payments", account: "webhook-url", group: group, accessibility: accessibility,
                    details: ItemDetails(), created: now, modified: now),
                secret: SecretBytes(Array("https://evil.example/hook".utf8)))
            let plaintext = RecordCodec.encodePlaintext(
                record.item, history: record.history,
                conflicts: [ItemConflict(currentSide: .ours, other: planted, origin: "forged")])
            try copy.store(plaintext: plaintext, of: record.item.attributes, replacing: position)
        }
    }

    let gb = AccessGroup("gb")!

    /// Two clones where theirs moved `mv`/`x` into group gb and ours changed it where it was: merged,
    /// it is in conflict, its other version sealed under gb's keys.
    func movedOnOneSideChangedOnTheOther() throws -> MergeTests.Clones {
        let clones = try merges.clones {
            try $0.createGroup(self.gb)
            try $0.add("mv", "x", "mv-base")
        }
        _ = try clones.theirs.move(matching: Query(service: "mv", account: "x"), toGroup: gb)
        try merges.change(clones.ours, "mv", to: "mv-ours")
        return clones
    }

    /// A ci writer's tombstones naming prod items (ids and digests read from any copy's index), on a
    /// branch cut before those items existed, delete nothing of prod when the owner merges it.
    @Test func aGroupsTombstoneRemovesNoItemOfAnotherGroup() throws {
        let clones = try merges.clones { try $0.add("deploy", "ci", "token", group: self.ci) }
        try clones.ours.add("db", "main", "prod-secret", group: prod)
        try clones.ours.add("api", "main", "prod-api", group: prod)
        try forgeTombstone(on: clones.theirs, in: ci, naming: try indexIdentity(clones.ours, "db", "main"))
        try forgeTombstone(on: clones.theirs, in: ci, naming: try indexIdentity(clones.ours, "api", "main"))
        let report = try clones.merge()
        #expect(report.applied == 0 && report.conflicts.isEmpty)
        #expect(try clones.ours.secret("db", "main") == "prod-secret")
        #expect(try clones.ours.secret("api", "main") == "prod-api")
        // The forged tombstones name items the result holds: they are not carried on.
        let carried = try clones.ours.withKeys { () -> Int in
            let snapshot = try clones.ours.readSnapshot()
            return try snapshot.tombstones(of: #require(snapshot.keys.groupID(of: ci))).count
        }
        #expect(carried == 0)
    }

    /// A tombstone in ci's block naming an item its own side holds in prod is damage, named by its group.
    @Test func aTombstoneNamingAnItemOfAnotherGroupOnItsOwnSideIsDamage() throws {
        let clones = try merges.clones {
            try $0.add("deploy", "ci", "token", group: self.ci)
            try $0.add("db", "main", "prod-secret", group: self.prod)
        }
        try forgeTombstone(on: clones.theirs, in: ci, naming: try indexIdentity(clones.theirs, "db", "main"))
        let before = SHA256.hash(clones.ourBytes)
        #expect {
            try clones.merge()
        } throws: { error in
            guard case VaultError.merge(.mergeInput(_, .snapshot(.corrupted(_, .tombstoneOfAnotherGroup(group: "ci"))))) = error else {
                return false
            }
            return true
        }
        #expect(SHA256.hash(clones.ourBytes) == before)
    }

    /// A ci record re-sealed with a version kept in its own plaintext that names prod (class always)
    /// is damage naming the record: it plants nothing in prod, on either side of a merge.
    @Test func aConflictVersionNamingAnotherGroupIsDamage() throws {
        let clones = try merges.clones {
            try $0.add("deploy", "ci", "token", group: self.ci)
            try $0.createGroup(self.prod)
        }
        try forgeConflict(on: clones.theirs, "deploy", "ci", naming: prod, .always)
        let before = SHA256.hash(clones.ourBytes)
        #expect {
            try clones.merge()
        } throws: { error in
            guard case VaultError.merge(.mergeInput(_, .snapshot(.corrupted(_, .conflictVersionOutsideItsGroup(let item))))) = error else {
                return false
            }
            return item.service == "deploy" && item.group == ci
        }
        #expect(SHA256.hash(clones.ourBytes) == before)
        #expect(throws: VaultError.self) { try clones.theirs.conflicts() }
        #expect(try clones.ours.attributes(matching: Query(group: prod)).isEmpty)
    }

    /// A version a conflict keeps from another group follows that group's keys: after a revoke of
    /// it, the conflict still lists, reads and resolves.
    @Test func aConflictVersionOfAnotherGroupFollowsItsKeysThroughARevoke() throws {
        let clones = try movedOnOneSideChangedOnTheOther()
        let report = try clones.merge()
        #expect(report.conflicts.map(\.service) == ["mv"])
        try clones.ours.revoke(group: gb)
        #expect(try clones.ours.conflicts().map(\.other?.group) == [gb])
        #expect(try clones.ours.otherVersion(matching: Query(service: "mv", account: "x")).item.secret.text == "mv-base")
        guard case .kept(let kept) = try clones.ours.resolve(matching: Query(service: "mv", account: "x"), keeping: .theirs) else {
            Issue.record("resolve --theirs deleted the item")
            return
        }
        #expect(kept.group == gb)
        #expect(try clones.ours.secret("mv", "x", group: gb) == "mv-base")
    }

    /// When the group a conflict's other version lives in is deleted, that version goes with it,
    /// named in the deletion's report, and the item reads and changes as before.
    @Test func aConflictVersionGoesWithItsDeletedGroup() throws {
        let clones = try movedOnOneSideChangedOnTheOther()
        try clones.merge()
        let deletion = try clones.ours.deleteGroup(gb)
        #expect(deletion.droppedConflictVersions.map(\.service) == ["mv"])
        #expect(try clones.ours.conflicts().isEmpty)
        try merges.change(clones.ours, "mv", to: "mv-after")
        #expect(try clones.ours.secret("mv", "x") == "mv-after")
    }

    /// `wipe --trash` leaves purge records: a merge with a copy that still holds the entries does not
    /// bring them back, whichever side merges.
    @Test func aWipedTrashStaysWipedThroughAMerge() throws {
        let clones = try merges.clones {
            try $0.add("leaked", "x", "leaked-secret", group: self.ci)
            _ = try $0.delete(matching: Query(service: "leaked", account: "x"))
        }
        try clones.ours.emptyTrash(group: nil)
        try merges.change(clones.theirs, "a", to: "a-theirs")
        try clones.merge()
        #expect(try clones.ours.trash(matching: Query(service: "leaked")).items.isEmpty)
        #expect(try clones.ours.secret("a", "x") == "a-theirs")
        // The other direction: the side that still holds the entry merges the wiped one in.
        try merges.change(clones.ours, "b", to: "b-ours")
        let reversed = try clones.theirs.reconfigured { $0.acceptTeamLog = true }
            .merge(base: clones.base, theirs: clones.ourBytes, origins: ("theirs", "ours"), kdf: .testing) { _ in }
        #expect(reversed.conflicts.isEmpty)
        #expect(try clones.theirs.trash(matching: Query(service: "leaked")).items.isEmpty)
    }

    /// `verify` opens every version nested in a record it opens: a conflict version that does not
    /// open under its group's keys makes the vault damaged, named by its item, though the record opens.
    @Test func verifyOpensEveryNestedVersion() throws {
        let clones = try movedOnOneSideChangedOnTheOther()
        try clones.merge()
        #expect(!(try clones.ours.verify().isDamaged))
        try clones.ours.transaction { copy in
            let position = try #require(try copy.positions(matching: Query(service: "mv", account: "x")).first)
            let record = try copy.openWholeRecord(at: position)
            let conflicts = try record.conflicts.map { conflict -> ItemConflict in
                let elsewhere = try #require(conflict.sealedElsewhere)
                var broken = conflict
                broken.other = nil
                broken.sealedElsewhere = SealedVersion(
                    groupID: elsewhere.groupID, classID: elsewhere.classID, recordID: elsewhere.recordID,
                    sealed: elsewhere.sealed.enumerated().map { $0.offset == 20 ? $0.element ^ 1 : $0.element })
                return broken
            }
            let plaintext = RecordCodec.encodePlaintext(record.item, history: record.history, conflicts: conflicts)
            try copy.store(plaintext: plaintext, of: record.item.attributes, replacing: position)
        }
        let report = try clones.ours.verify()
        #expect(report.isDamaged && report.opened == 3 + 1 && report.damagedRecords == 0)
        #expect(report.damagedVersions.map(\.service) == ["mv"])
    }

    /// When the other side deleted the group a conflict's version lives in, the merge drops that
    /// version (the group does not come back), and every command reads the item after it.
    @Test func aConflictVersionGoesWhenTheOtherSideDeletesItsGroup() throws {
        let clones = try movedOnOneSideChangedOnTheOther()
        try clones.merge()
        let afterConflict = clones.ourBytes
        // Theirs takes the merged file, then deletes gb; ours merges that in.
        writeBytes(afterConflict, to: clones.theirs.location.path)
        _ = try clones.theirs.deleteGroup(gb)
        try clones.merge(base: afterConflict)
        #expect(try clones.ours.groups().groups.map(\.group).contains(gb) == false)
        #expect(try clones.ours.conflicts().isEmpty)
        #expect(try clones.ours.secret("mv", "x") == "mv-ours")
        #expect(!(try clones.ours.verify().isDamaged))
    }
}
