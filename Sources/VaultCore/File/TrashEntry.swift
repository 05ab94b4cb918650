import VaultCrypto

/// An item `delete` kept in its group's trash: its record as the file held it (sealed under its
/// record key, so the trash opens no class its reader could not open in the index), with the
/// deletion time (docs/FORMAT.md, "Trash").
struct TrashEntry {
    /// The class id of a group's trash block among the listing blocks: no accessibility class has it.
    static let blockClassID = ClassID(255)
    /// A group keeps its newest trashed items up to this many; older ones are purged.
    static let maxPerGroup = 4096

    let itemID: Bytes16
    /// Milliseconds since 1970 when `delete` removed it: when it is purged.
    let deletedAt: UInt64
    /// The sealed record's id and class, as its index entry named them (its AAD).
    let recordID: Bytes16
    let classID: ClassID
    /// The record as sealed in the file: `nonce ‖ ciphertext ‖ tag`.
    let sealed: [UInt8]

    /// Which deletion of which item: the same on both sides of a merge, however the record was sealed again.
    struct Deletion: Hashable {
        let itemID: Bytes16
        let deletedAt: UInt64
    }

    var deletion: Deletion { Deletion(itemID: itemID, deletedAt: deletedAt) }

    /// SHA-256 of the sealed record: the same trashed revision however often the block is sealed again.
    var digest: [UInt8] { SHA256.hash(sealed) }

    /// The plaintext of a trash block: per entry item id (16) ‖ `u64` deleted at ‖ record id (16) ‖
    /// `u8` class id ‖ bytes(n) the sealed record.
    static func encode(_ entries: [TrashEntry]) -> [UInt8] {
        var w = ByteWriter(capacity: entries.reduce(0) { $0 + 45 + $1.sealed.count })
        for entry in entries {
            entry.itemID.encode(into: &w)
            w.u64(entry.deletedAt)
            entry.recordID.encode(into: &w)
            w.u8(entry.classID.rawValue)
            w.lengthPrefixed(entry.sealed)
        }
        return w.bytes
    }

    static func decode(_ plaintext: [UInt8]) throws -> [TrashEntry] {
        var r = ByteReader(plaintext)
        var entries: [TrashEntry] = []
        while !r.isAtEnd {
            guard entries.count < maxPerGroup else { throw MalformedInput(.count(.trashBlockItemsOver, maxPerGroup)) }
            entries.append(
                TrashEntry(
                    itemID: Bytes16(try r.raw(16)), deletedAt: try r.u64(), recordID: Bytes16(try r.raw(16)),
                    classID: ClassID(try r.u8()), sealed: Array(try r.lengthPrefixed(limit: VaultFile.maxRecordBytes))))
        }
        return entries
    }

    /// `entries` as a block keeps them: one per item id (its newest deletion), none for an item id
    /// in `held` (the index holds it again) or deleted before `purgeBefore`, the newest
    /// `maxPerGroup` that fit in a listing block, in one order whatever order they came in (two writers joining the same
    /// entries seal the same list).
    static func normalized(_ entries: [TrashEntry], held: Set<Bytes16>, purgeBefore: UInt64?) -> [TrashEntry] {
        let sorted = entries.sorted { a, b in
            a.deletedAt != b.deletedAt
                ? a.deletedAt > b.deletedAt : (a.itemID.bytes + a.digest).lexicographicallyPrecedes(b.itemID.bytes + b.digest)
        }
        var seen = Set<Bytes16>()
        let kept = sorted.filter { entry in
            !held.contains(entry.itemID) && entry.deletedAt >= (purgeBefore ?? 0) && seen.insert(entry.itemID).inserted
        }
        var room = ListingBlock.maxSealedBytes - 1024
        return Array(
            kept.prefix(maxPerGroup).prefix { entry in
                room -= 45 + entry.sealed.count
                return room >= 0
            })
    }
}
