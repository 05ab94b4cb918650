import VaultCrypto

/// What is kept of an item a write removed: its item id and what identifies the revision removed,
/// so a merge can tell a version the deleting side already had (the deletion stands) from a change
/// made after it (a conflict), whatever merge base git hands it (docs/FORMAT.md, "Tombstones").
struct Tombstone: Equatable {
    /// The class id of a group's tombstone block among the listing blocks: no accessibility class has it.
    static let blockClassID = ClassID(0)
    /// A group keeps its newest tombstones up to this many; older deletions are forgotten.
    static let maxPerGroup = 4096
    /// Item id, removal time, the sealed record's digest and the revision's content digest.
    static let encodedSize = 16 + 8 + 32 + 32
    /// The content digest of a revision the writer could not open (bound to another machine): matches nothing.
    static let unknownContent = [UInt8](repeating: 0, count: 32)

    let itemID: Bytes16
    /// Milliseconds since 1970 when the write removed it: which tombstones go first past `maxPerGroup`.
    let removedAt: UInt64
    /// SHA-256 of the sealed record removed (its index entry's digest).
    let recordDigest: [UInt8]
    /// `OpenedRecord.contentDigest` of the revision removed: equal however often it was sealed again.
    let contentDigest: [UInt8]

    /// Both digests of a purge record: no SHA-256 output is known to be all ones.
    static let purgeMark = [UInt8](repeating: 0xFF, count: 32)

    /// A purge record: the trash entry of `deletion` was emptied (`wipe --trash`), so no merge brings
    /// it back. It sits among its group's tombstones and removes no item; a reader that does not know
    /// the mark takes it for a tombstone that matches nothing.
    static func purge(of deletion: TrashEntry.Deletion) -> Tombstone {
        Tombstone(itemID: deletion.itemID, removedAt: deletion.deletedAt, recordDigest: purgeMark, contentDigest: purgeMark)
    }

    /// The trash entry this purge record emptied; nil for a tombstone.
    var purgedDeletion: TrashEntry.Deletion? {
        recordDigest == Tombstone.purgeMark && contentDigest == Tombstone.purgeMark
            ? TrashEntry.Deletion(itemID: itemID, deletedAt: removedAt) : nil
    }

    /// Whether the revision this tombstone removed is the one sealed as `recordDigest` or holding `contentDigest`.
    func removed(recordDigest other: [UInt8], contentDigest otherContent: () throws -> [UInt8]) rethrows -> Bool {
        guard purgedDeletion == nil else { return false }
        if constantTimeEquals(recordDigest, other) { return true }
        guard contentDigest != Tombstone.unknownContent else { return false }
        return constantTimeEquals(contentDigest, try otherContent())
    }

    /// The plaintext of a tombstone block: each tombstone's fields back to back.
    static func encode(_ tombstones: [Tombstone]) -> [UInt8] {
        var w = ByteWriter(capacity: tombstones.count * encodedSize)
        for tombstone in tombstones {
            tombstone.itemID.encode(into: &w)
            w.u64(tombstone.removedAt)
            w.raw(tombstone.recordDigest)
            w.raw(tombstone.contentDigest)
        }
        return w.bytes
    }

    static func decode(_ plaintext: [UInt8]) throws -> [Tombstone] {
        guard plaintext.count % encodedSize == 0, plaintext.count / encodedSize <= maxPerGroup else {
            throw MalformedInput(.count(.tombstoneBlockBytes, plaintext.count))
        }
        var r = ByteReader(plaintext)
        var tombstones: [Tombstone] = []
        while !r.isAtEnd {
            tombstones.append(
                Tombstone(
                    itemID: Bytes16(try r.raw(16)), removedAt: try r.u64(),
                    recordDigest: Array(try r.raw(32)), contentDigest: Array(try r.raw(32))))
        }
        return tombstones
    }

    /// `tombstones` without repeats (the same removal, known to both sides of a merge), the newest
    /// `maxPerGroup`, in one order whatever order they came in: two writers joining the same
    /// tombstones seal the same list.
    static func normalized(_ tombstones: [Tombstone]) -> [Tombstone] {
        var seen = Set<[UInt8]>()
        // A purge record is one per deletion; a tombstone one per revision removed.
        let unique = tombstones.filter { tombstone in
            let deletion = tombstone.purgedDeletion.map { withUnsafeBytes(of: $0.deletedAt.bigEndian) { Array($0) } } ?? []
            return seen.insert(tombstone.itemID.bytes + tombstone.recordDigest + deletion).inserted
        }
        let sorted = unique.sorted { a, b in
            a.removedAt != b.removedAt
                ? a.removedAt > b.removedAt
                : (a.itemID.bytes + a.recordDigest).lexicographicallyPrecedes(b.itemID.bytes + b.recordDigest)
        }
        return Array(sorted.prefix(maxPerGroup))
    }
}
