import VaultCrypto

/// Which members the owner removed, and added back, at which key epoch (docs/FORMAT.md, "Member
/// removals"): sealed under WK in the header, and vouched for by the trust statement, which holds
/// its digest. A merge takes removals from this record, never from a roster a member could have
/// shrunk, and never adds back a member removed here. Both a removal and an adding back raise the
/// key epoch.
struct RemovalRecord: Equatable {
    /// A recipient's latest removal (an event of its own, named by a random id: key epochs of two
    /// clones are no common clock) and whether the owner added the member back since.
    struct Entry: Equatable {
        let recipient: AgeRecipient
        var removedAt: UInt64
        var removalID: Bytes16
        /// The key epoch the member was added back at, after this removal; 0 when it was not.
        var addedBackAt: UInt64 = 0

        /// Whether the recipient stands removed: not added back since its latest removal.
        var isRemoved: Bool { addedBackAt == 0 }
    }

    /// The most entries kept: past it the least recently changed go.
    static let maxEntries = 1024
    static let entrySize = 32 + 8 + 16 + 8

    /// One entry per recipient, the least recently changed first.
    private(set) var entries: [Entry] = []

    /// The key epoch of the latest removal, whether or not the member was added back since: a side
    /// below it is from before that removal, when the removed member's keys still opened it.
    var lastRemovalEpoch: UInt64 { entries.map(\.removedAt).max() ?? 0 }

    /// Whether `recipient` stands removed.
    func isRemoved(_ recipient: AgeRecipient) -> Bool {
        entries.first { $0.recipient == recipient }?.isRemoved ?? false
    }

    /// Records a new removal of `recipient` at `keyEpoch`.
    mutating func recordRemoval(of recipient: AgeRecipient, at keyEpoch: UInt64) {
        put(Entry(recipient: recipient, removedAt: keyEpoch, removalID: Bytes16.random()))
    }

    /// Records `recipient`, removed, added back at `keyEpoch`.
    mutating func recordAddingBack(of recipient: AgeRecipient, at keyEpoch: UInt64) {
        guard var entry = entries.first(where: { $0.recipient == recipient }), entry.isRemoved else { return }
        entry.addedBackAt = keyEpoch
        put(entry)
    }

    private mutating func put(_ entry: Entry) {
        entries.removeAll { $0.recipient == entry.recipient }
        entries.append(entry)
        if entries.count > RemovalRecord.maxEntries { entries.removeFirst(entries.count - RemovalRecord.maxEntries) }
    }

    /// Both records joined, this one's order kept. For a recipient both hold: the same removal, added
    /// back on either side, is added back; two different removals — made on two clones, neither having
    /// seen the other — leave the member removed under a removal of their own (`joinedID`), whatever was
    /// added back, unless this side's standing removal is already at least as late.
    func merged(with other: RemovalRecord) -> RemovalRecord {
        var result = self
        for entry in other.entries {
            guard let at = result.entries.firstIndex(where: { $0.recipient == entry.recipient }) else {
                result.entries.append(entry)
                continue
            }
            let mine = result.entries[at]
            if mine.removalID == entry.removalID {
                if entry.addedBackAt > mine.addedBackAt { result.entries[at].addedBackAt = entry.addedBackAt }
            } else if !(mine.isRemoved && mine.removedAt >= entry.removedAt) {
                // A removal of its own, named from both: an adding back either clone made of its own removal
                // must never match it later. Joining it again with either side changes nothing.
                result.entries[at] = Entry(recipient: entry.recipient, removedAt: max(mine.removedAt, entry.removedAt),
                                           removalID: RemovalRecord.joinedID(mine.removalID, entry.removalID))
            }
        }
        if result.entries.count > RemovalRecord.maxEntries { result.entries.removeFirst(result.entries.count - RemovalRecord.maxEntries) }
        return result
    }

    /// The id of two different removals joined: the first 16 bytes of SHA-256("vault removal join" ‖ the
    /// two ids, lower first), the same whichever side joins.
    static func joinedID(_ a: Bytes16, _ b: Bytes16) -> Bytes16 {
        let (low, high) = a.bytes.lexicographicallyPrecedes(b.bytes) ? (a, b) : (b, a)
        return Bytes16(SHA256.hash(Array("vault removal join".utf8) + low.bytes + high.bytes).prefix(16))
    }

    // MARK: the sealed part

    /// Empty for no entries, else `AES-GCM(WK, u16 count ‖ entries, AAD = "member removals" ‖ vault id)`,
    /// each entry the recipient's public key (32) ‖ u64 removed at ‖ removal id (16) ‖ u64 added back at.
    func sealed(wrapKey: SecretBytes, vaultID: [UInt8]) throws -> [UInt8] {
        guard !entries.isEmpty else { return [] }
        var w = ByteWriter(capacity: 2 + entries.count * RemovalRecord.entrySize)
        w.u16(UInt16(entries.count))
        for entry in entries {
            w.raw(entry.recipient.publicKey)
            w.u64(entry.removedAt)
            entry.removalID.encode(into: &w)
            w.u64(entry.addedBackAt)
        }
        return try AESGCM.seal(SecretBytes(w.bytes), key: wrapKey, aad: AAD.memberRemovals(vaultID: vaultID))
    }

    /// The record a sealed part holds. Throws `MalformedInput` for one that does not open or parse,
    /// repeats a recipient, or names an epoch above `keyEpoch` (or an adding back not after its removal).
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
            let entry = Entry(recipient: AgeRecipient(publicKey: Array(try r.raw(32))), removedAt: try r.u64(),
                              removalID: Bytes16(try r.raw(16)), addedBackAt: try r.u64())
            guard entry.removedAt >= 1, entry.removedAt <= keyEpoch, entry.addedBackAt <= keyEpoch,
                  entry.addedBackAt == 0 || entry.addedBackAt > entry.removedAt,
                  !record.entries.contains(where: { $0.recipient == entry.recipient }) else {
                throw MalformedInput(detail: "a malformed or repeated member removal")
            }
            record.entries.append(entry)
        }
        guard r.isAtEnd else { throw MalformedInput(detail: "bytes follow the member removals") }
        return record
    }
}
