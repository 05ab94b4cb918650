import VaultCrypto

/// Which members the owner removed, and added back, at which key epoch (docs/FORMAT.md, "Member
/// removals"): sealed under WK in the header, and vouched for by the trust statement, which holds
/// its digest. A merge takes removals from this record, never from a roster a member could have
/// shrunk, and never adds back a member removed here. Both a removal and an adding back raise the
/// key epoch, so no two files at one epoch hold different records.
struct RemovalRecord: Equatable {
    /// A recipient's latest removal, and its latest adding back since (0: none).
    struct Entry: Equatable {
        let recipient: AgeRecipient
        var removedAt: UInt64
        var addedBackAt: UInt64 = 0

        /// Whether the recipient stands removed: its latest removal came after its latest adding back.
        var isRemoved: Bool { removedAt > addedBackAt }

        /// Whether this entry's history includes all of `other`'s (both epochs at least its own).
        func hasSeen(_ other: Entry) -> Bool { removedAt >= other.removedAt && addedBackAt >= other.addedBackAt }
    }

    /// The most entries kept: past it the oldest go (a copy older than all of them is a rollback).
    static let maxEntries = 1024
    static let entrySize = 32 + 8 + 8

    /// One entry per recipient, the least recently changed first.
    private(set) var entries: [Entry] = []

    /// The key epoch of the latest removal, whether or not the member was added back since: a side
    /// below it is from before that removal, when the removed member's keys still opened it.
    var lastRemovalEpoch: UInt64 { entries.map(\.removedAt).max() ?? 0 }

    /// Whether `recipient` stands removed.
    func isRemoved(_ recipient: AgeRecipient) -> Bool {
        entries.first { $0.recipient == recipient }?.isRemoved ?? false
    }

    /// Records `recipient`'s removal at `keyEpoch`.
    mutating func recordRemoval(of recipient: AgeRecipient, at keyEpoch: UInt64) {
        update(recipient) { $0.removedAt = keyEpoch }
    }

    /// Records `recipient` added back at `keyEpoch`.
    mutating func recordAddingBack(of recipient: AgeRecipient, at keyEpoch: UInt64) {
        update(recipient) { $0.addedBackAt = keyEpoch }
    }

    private mutating func update(_ recipient: AgeRecipient, _ change: (inout Entry) -> Void) {
        var entry = entries.first { $0.recipient == recipient } ?? Entry(recipient: recipient, removedAt: 0)
        change(&entry)
        entries.removeAll { $0.recipient == recipient }
        entries.append(entry)
        if entries.count > RemovalRecord.maxEntries { entries.removeFirst(entries.count - RemovalRecord.maxEntries) }
    }

    /// Both records joined, this one's order kept. For a recipient both hold, an entry that has seen all
    /// the other's history (both its epochs at least the other's) is taken; when neither has — a removal
    /// and an adding back made on two clones, whose key epochs are no common clock — the recipient stays
    /// removed, at the highest epoch either names.
    func merged(with other: RemovalRecord) -> RemovalRecord {
        var result = self
        for entry in other.entries {
            guard let at = result.entries.firstIndex(where: { $0.recipient == entry.recipient }) else {
                result.entries.append(entry)
                continue
            }
            let mine = result.entries[at]
            if mine.hasSeen(entry) { continue }
            if entry.hasSeen(mine) {
                result.entries[at] = entry
            } else {
                result.entries[at] = Entry(recipient: entry.recipient,
                                           removedAt: max(mine.removedAt, entry.removedAt, mine.addedBackAt, entry.addedBackAt),
                                           addedBackAt: min(mine.addedBackAt, entry.addedBackAt))
            }
        }
        if result.entries.count > RemovalRecord.maxEntries { result.entries.removeFirst(result.entries.count - RemovalRecord.maxEntries) }
        return result
    }

    // MARK: the sealed part

    /// Empty for no entries, else `AES-GCM(WK, u16 count ‖ entries, AAD = "member removals" ‖ vault id)`,
    /// each entry the recipient's public key (32) ‖ u64 removed at ‖ u64 added back at.
    func sealed(wrapKey: SecretBytes, vaultID: [UInt8]) throws -> [UInt8] {
        guard !entries.isEmpty else { return [] }
        var w = ByteWriter(capacity: 2 + entries.count * RemovalRecord.entrySize)
        w.u16(UInt16(entries.count))
        for entry in entries {
            w.raw(entry.recipient.publicKey)
            w.u64(entry.removedAt)
            w.u64(entry.addedBackAt)
        }
        return try AESGCM.seal(SecretBytes(w.bytes), key: wrapKey, aad: AAD.memberRemovals(vaultID: vaultID))
    }

    /// The record a sealed part holds. Throws `MalformedInput` for one that does not open or parse,
    /// repeats a recipient, or names an epoch above `keyEpoch`.
    static func open(_ part: [UInt8], wrapKey: SecretBytes, vaultID: [UInt8], keyEpoch: UInt64) throws -> RemovalRecord {
        guard !part.isEmpty else { return RemovalRecord() }
        guard let plaintext = try? AESGCM.open(part, key: wrapKey, aad: AAD.memberRemovals(vaultID: vaultID)) else {
            throw MalformedInput(detail: "the member removals do not open")
        }
        var r = ByteReader(plaintext.copyBytes())
        var record = RemovalRecord()
        let count = Int(try r.u16())
        guard (1...maxEntries).contains(count) else { throw MalformedInput(detail: "\(count) member removals") }
        for _ in 0..<count {
            let entry = Entry(recipient: AgeRecipient(publicKey: Array(try r.raw(32))), removedAt: try r.u64(), addedBackAt: try r.u64())
            guard entry.removedAt >= 1, entry.removedAt <= keyEpoch, entry.addedBackAt <= keyEpoch,
                  !record.entries.contains(where: { $0.recipient == entry.recipient }) else {
                throw MalformedInput(detail: "a malformed or repeated member removal")
            }
            record.entries.append(entry)
        }
        guard r.isAtEnd else { throw MalformedInput(detail: "bytes follow the member removals") }
        return record
    }
}
