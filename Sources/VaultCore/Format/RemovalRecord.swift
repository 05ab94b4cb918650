import VaultCrypto

/// Which members the owner removed, and added back, at which key epoch (docs/FORMAT.md, "Member
/// removals"): sealed under WK in the header, and vouched for by the trust statement, which holds
/// its digest. A merge takes removals from this record, never from a roster a member could have
/// shrunk, and never adds back a member removed here.
struct RemovalRecord: Equatable {
    /// What happened to a recipient, and when.
    struct Entry: Equatable {
        enum Kind: UInt8 {
            case removed = 1
            /// Added again by the owner after a removal.
            case addedBack = 2
        }

        let recipient: AgeRecipient
        let keyEpoch: UInt64
        let kind: Kind

        /// Later epochs win; at one epoch an adding back wins (a removal raises the epoch, so one made
        /// after an adding back is at a higher epoch).
        func isLater(than other: Entry) -> Bool {
            (keyEpoch, kind.rawValue) > (other.keyEpoch, other.kind.rawValue)
        }
    }

    /// The most entries kept: past it the oldest go (a copy older than all of them is a rollback).
    static let maxEntries = 1024
    static let entrySize = 32 + 8 + 1

    /// The latest entry of each recipient, oldest first.
    private(set) var entries: [Entry] = []

    /// The key epoch of the latest removal; 0 when there is none.
    var lastRemovalEpoch: UInt64 {
        entries.filter { $0.kind == .removed }.map(\.keyEpoch).max() ?? 0
    }

    /// Whether `recipient`'s latest entry is a removal.
    func isRemoved(_ recipient: AgeRecipient) -> Bool {
        entries.last { $0.recipient == recipient }?.kind == .removed
    }

    /// Records `entry` as its recipient's latest.
    mutating func record(_ entry: Entry) {
        entries.removeAll { $0.recipient == entry.recipient }
        entries.append(entry)
        if entries.count > RemovalRecord.maxEntries { entries.removeFirst(entries.count - RemovalRecord.maxEntries) }
    }

    /// Both records: for each recipient the later entry.
    func merged(with other: RemovalRecord) -> RemovalRecord {
        var result = self
        for entry in other.entries {
            if let mine = result.entries.last(where: { $0.recipient == entry.recipient }), !entry.isLater(than: mine) { continue }
            result.record(entry)
        }
        return result
    }

    // MARK: the sealed part

    /// Empty for no entries, else `AES-GCM(WK, u16 count ‖ entries, AAD = "member removals" ‖ vault id)`.
    func sealed(wrapKey: SecretBytes, vaultID: [UInt8]) throws -> [UInt8] {
        guard !entries.isEmpty else { return [] }
        var w = ByteWriter(capacity: 2 + entries.count * RemovalRecord.entrySize)
        w.u16(UInt16(entries.count))
        for entry in entries {
            w.raw(entry.recipient.publicKey)
            w.u64(entry.keyEpoch)
            w.u8(entry.kind.rawValue)
        }
        return try AESGCM.seal(SecretBytes(w.bytes), key: wrapKey, aad: AAD.memberRemovals(vaultID: vaultID))
    }

    /// The record a sealed part holds. Throws `MalformedInput` for one that does not open or parse,
    /// or that names an epoch above `keyEpoch`.
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
            let recipient = AgeRecipient(publicKey: Array(try r.raw(32)))
            let epoch = try r.u64()
            guard let kind = Entry.Kind(rawValue: try r.u8()), epoch <= keyEpoch,
                  !record.entries.contains(where: { $0.recipient == recipient }) else {
                throw MalformedInput(detail: "a malformed or repeated member removal")
            }
            record.entries.append(Entry(recipient: recipient, keyEpoch: epoch, kind: kind))
        }
        guard r.isAtEnd else { throw MalformedInput(detail: "bytes follow the member removals") }
        return record
    }
}
