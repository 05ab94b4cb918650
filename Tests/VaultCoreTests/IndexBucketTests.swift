import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// A group's index entries are spread over buckets by lookup tag; its section holds each bucket's
/// digest and its MACs cover the digests (docs/FORMAT.md, "Group sections"). A write rehashes the
/// buckets it changed; `get` checks the one bucket its tag falls in; everything else checks them all.
@Suite struct IndexBucketTests {
    /// A vault of `count` items of the default group, written in one change.
    func vault(_ dir: TempDirectory, count: Int) throws -> Vault {
        let vault = try Vault.makeTest(at: dir.location())
        try vault.addAll((0..<count).map { NewItem(service: "svc-\($0)", account: "acct", secret: SecretBytes(Array("s\($0)".utf8))) })
        return vault
    }

    func decoded(_ dir: TempDirectory) throws -> VaultFile.Decoded { try VaultFile.decode(fileBytes(dir.location().path)) }

    /// The default group's slot in the header.
    func defaultSlot(_ decoded: VaultFile.Decoded, _ dir: TempDirectory) throws -> Int {
        let owner = try Snapshot.unlock(fileBytes(dir.location().path), secret: testKeyFile, deviceKey: nil, path: "test")
        let id = try #require(owner.keys.groupID(of: .default))
        return try #require(decoded.file.groups.firstIndex { $0.groupID == id })
    }

    /// The index position of item `service`/acct, found with the owner's keys.
    func position(of service: String, _ dir: TempDirectory) throws -> Int {
        try #require(try owner(dir).positions(matching: Query(service: service, account: "acct")).first)
    }

    /// Where the entry at `position` starts in the file.
    func entryStart(_ decoded: VaultFile.Decoded, _ position: Int) -> Int {
        indexStart(decoded) + position * IndexEntry.v2Size
    }

    /// Writes `decoded` with `change` applied, keeping its header, checksum and header MAC: what someone without keys can do.
    func rewrite(_ decoded: VaultFile.Decoded, to path: String, _ change: (inout VaultFile) -> Void) {
        var file = decoded.file
        change(&file)
        writeBytes(
            file.encode(
                parameters: Array(decoded.header[..<decoded.parametersEnd]),
                checksum: Array(decoded.header[decoded.parametersEnd...]), headerMAC: decoded.headerMAC), to: path)
    }

    /// 384 items make four buckets (of 128); changing one item rehashes its bucket alone, and a group that
    /// grows past twice its buckets' size (1 100 > 2 × 128 × 4) is spread over 16. The digests are what a reader computes.
    @Test func aWriteRehashesOnlyTheBucketItChanged() throws {
        let dir = try TempDirectory()
        let vault = try vault(dir, count: 384)
        let before = try decoded(dir)
        let slot = try defaultSlot(before, dir)
        #expect(before.file.sections[slot].bucketDigests.count == 4)
        _ = try vault.update(matching: Query(service: "svc-150", account: "acct"), with: ItemChange(secret: SecretBytes([7])))
        let after = try decoded(dir)
        let changed = zip(before.file.sections[slot].bucketDigests, after.file.sections[slot].bucketDigests).filter { $0 != $1 }
        #expect(changed.count == 1)
        let groupID = after.file.groups[slot].groupID
        let computed = after.file.index.bucketDigests([groupID: (4, nil)])[groupID] ?? [:]
        #expect((0..<4).map { computed[$0] } == after.file.sections[slot].bucketDigests)
        #expect(try vault.secret("svc-150", "acct") == "\u{7}")
        try vault.addAll((384..<1100).map { NewItem(service: "svc-\($0)", account: "acct", secret: SecretBytes([1])) })
        #expect(try decoded(dir).file.sections[slot].bucketDigests.count == 16)
        #expect(try !vault.verify().isDamaged)
    }

    /// An entry changed by someone without keys fails its bucket's digest: `get` of an item in
    /// that bucket is damage (93), `get` of an item in another bucket reads what its own checked bucket
    /// says, and every other command (which checks every bucket) finds the group damaged.
    @Test func anEntryChangedWithoutKeysDamagesItsBucket() throws {
        let dir = try TempDirectory()
        let vault = try vault(dir, count: 384)
        let path = dir.location().path
        let before = try decoded(dir)
        let position = try position(of: "svc-42", dir)
        let bucket = before.file.index.lookupTag(at: position).bucket(among: 4)
        let elsewhere = try #require(
            (0..<384).first { other in
                before.file.index.lookupTag(at: other).bucket(among: 4) != bucket
            })
        var bytes = fileBytes(path)
        bytes[entryStart(before, position)] ^= 0x01  // its record id: the record no longer opens under it
        writeBytes(bytes, to: path)
        #expect(throws: VaultError.damagedGroup(path: path, group: .default)) { try vault.secret("svc-42", "acct") }
        #expect(try vault.secret("svc-\(elsewhere)", "acct") == "s\(elsewhere)")
        #expect(try vault.verify().damagedGroups == ["default"])
        #expect(try vault.listing(matching: Query()).damagedGroups == [.default])
        // A change that checks every bucket (not one found by service and account) is refused, and writes nothing.
        #expect(throws: VaultError.damagedGroup(path: path, group: .default)) {
            try vault.addAll([NewItem(service: "new", account: "x", secret: SecretBytes([1]))])
        }
        let unchanged = fileBytes(path) == bytes
        #expect(unchanged)
    }

    /// Many lookups in one reading (`vault run` with references) find their buckets from one pass
    /// over the index after the first, and each bucket is still checked: with an entry of one bucket
    /// changed without keys, lookups that avoid that bucket read their items, and a lookup in it is
    /// damage for the lot (93), whether it comes first or after others.
    @Test func everyLookupOfOneReadingChecksItsBucket() throws {
        let dir = try TempDirectory()
        let (vault, open, damagedBucket, _) = try vaultWithADamagedBucket(dir)
        let path = dir.location().path
        let intact = Array(try (0..<384).map { "svc-\($0)" }.filter { try bucket(of: $0, open, among: 4) != damagedBucket }.prefix(12))
        let damaged = try #require(
            try (0..<384).map { "svc-\($0)" }.first { try bucket(of: $0, open, among: 4) == damagedBucket && $0 != "svc-42" })
        let results = try vault.items(for: intact.map { Query(service: $0, account: "acct") })
        #expect(try results.map { try $0.get().secret.text } == intact.map { "s" + $0.dropFirst(4) })
        for services: [String] in [[damaged] + intact, intact + [damaged]] {
            #expect(throws: VaultError.damagedGroup(path: path, group: .default)) {
                try vault.items(for: services.map { Query(service: $0, account: "acct") })
            }
        }
    }

    /// The answer "not found" is checked too: an entry dropped (with its record) by someone without
    /// keys leaves its bucket's digest wrong, so `get` of that item is damage (93), never "not found" (44).
    @Test func anEntryDroppedWithoutKeysIsDamageNotAbsence() throws {
        let dir = try TempDirectory()
        let vault = try vault(dir, count: 384)
        let path = dir.location().path
        let before = try decoded(dir)
        let position = try position(of: "svc-42", dir)
        rewrite(before, to: path) { file in
            file.index.remove(at: position)
            file.records.remove(at: position)
        }
        #expect(throws: VaultError.damagedGroup(path: path, group: .default)) { try vault.secret("svc-42", "acct") }
    }

    /// The owner's key ring, opened in memory, to find where items sit.
    func owner(_ dir: TempDirectory) throws -> Snapshot {
        try Snapshot.unlock(fileBytes(dir.location().path), secret: testKeyFile, deviceKey: nil, path: "test")
    }

    /// A vault of 384 items (four buckets) whose index entry of svc-42 was changed without keys,
    /// so its bucket's digest fails: the vault, the owner's ring read before, the damaged bucket
    /// and the file's bytes as changed.
    func vaultWithADamagedBucket(_ dir: TempDirectory) throws -> (Vault, Snapshot, Int, [UInt8]) {
        let vault = try vault(dir, count: 384)
        let path = dir.location().path
        let open = try owner(dir)
        let before = try decoded(dir)
        var bytes = fileBytes(path)
        bytes[entryStart(before, try position(of: "svc-42", dir))] ^= 0x01
        writeBytes(bytes, to: path)
        return (vault, open, try bucket(of: "svc-42", open, among: 4), bytes)
    }

    /// The bucket (among `count`) of the default group that item svc-`n` falls in.
    func bucket(of service: String, _ owner: Snapshot, among count: Int) throws -> Int {
        let groupID = try #require(owner.keys.groupID(of: .default))
        return Bytes16(try owner.keys.lookupTag(groupID: groupID, service: service, account: "acct")).bucket(among: count)
    }

    /// Every write checks every bucket (a listing block made again lists entries of every index bucket
    /// of its group): a change beside a damaged bucket is refused and writes nothing, while `get` of
    /// an item in an intact bucket still reads it; nothing is laundered.
    @Test func aChangeBesideADamagedBucketIsRefusedAndGetStillReads() throws {
        let dir = try TempDirectory()
        let (vault, open, damagedBucket, bytes) = try vaultWithADamagedBucket(dir)
        let path = dir.location().path
        let other = try #require((0..<384).first { try bucket(of: "svc-\($0)", open, among: 4) != damagedBucket })
        #expect(throws: VaultError.damagedGroup(path: path, group: .default)) {
            try vault.update(matching: Query(service: "svc-\(other)", account: "acct"), with: ItemChange(secret: SecretBytes([9])))
        }
        let unchanged = fileBytes(path) == bytes
        #expect(unchanged)
        #expect(try vault.secret("svc-\(other)", "acct") == "s\(other)")
        #expect(try vault.verify().damagedGroups == ["default"])
    }

    /// Digests remade to match a changed index, without the group's keys, fail the group MACs.
    @Test func digestsRemadeWithoutKeysFailTheMACs() throws {
        let dir = try TempDirectory()
        let vault = try vault(dir, count: 384)
        let path = dir.location().path
        let before = try decoded(dir)
        let slot = try defaultSlot(before, dir)
        let groupID = before.file.groups[slot].groupID
        let position = try position(of: "svc-42", dir)
        rewrite(before, to: path) { file in
            file.index.remove(at: position)
            file.records.remove(at: position)
            let computed = file.index.bucketDigests([groupID: (4, nil)])[groupID] ?? [:]
            file.sections[slot].bucketDigests = (0..<4).map { computed[$0]! }
        }
        #expect(throws: VaultError.damagedGroup(path: path, group: .default)) { try vault.secret("svc-42", "acct") }
        #expect(throws: VaultError.damagedGroup(path: path, group: .default)) { try vault.secret("svc-43", "acct") }
        #expect(try vault.verify().damagedGroups == ["default"])
    }

    /// Structure, checked before any key: a bucket count that is not a power of two is damage (93).
    @Test func aBucketCountNotAPowerOfTwoIsDamage() throws {
        let dir = try TempDirectory()
        let vault = try vault(dir, count: 10)
        let path = dir.location().path
        let before = try decoded(dir)
        let slot = try defaultSlot(before, dir)
        rewrite(before, to: path) { file in
            file.sections[slot].bucketDigests += Array(repeating: [UInt8](repeating: 0, count: 32), count: 2)
        }
        #expect(throws: VaultError.corrupted(path: path, detail: .count(.indexBuckets(max: 32768), 3))) {
            try vault.secret("svc-1", "acct")
        }
    }
}
