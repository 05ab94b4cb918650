import VaultCrypto

/// One `vault grant` as the grant ledger keeps it (docs/FORMAT.md, "Grant ledger"): which credential,
/// for which groups at which key, read-only or not, its expiry, when it was granted and when a re-key
/// of one of its groups ended it. Each group a grant covers keeps the record in its ledger block.
struct GrantRecord: Equatable {
    /// The class id of a group's grant ledger block among the listing blocks: no accessibility class has it.
    static let blockClassID = ClassID(254)
    /// A group keeps at most this many grants (the newest granted).
    static let maxPerGroup = 4096
    /// The grant id's size: the first bytes of the credential's checksum.
    static let idSize = 8

    /// A group the credential opens, with the key check of the group key it was granted under.
    struct Group: Equatable {
        let groupID: GroupID
        let name: String
        let keyCheck: [UInt8]
    }

    /// The first 8 bytes of the credential's checksum (`ScopedCredential.grantID`).
    let id: [UInt8]
    let readOnly: Bool
    /// Seconds since 1970, as the credential has them.
    let issued: UInt64
    /// Seconds since 1970, 0 for never.
    let expires: UInt64
    /// Seconds since 1970 when a re-key of one of its groups ended it; 0 while none has.
    var revoked: UInt64
    let groups: [Group]

    /// This record with the earlier of its own and `other`'s revocations: a revocation either holds wins.
    func revokedEarliest(_ other: GrantRecord) -> GrantRecord {
        var merged = self
        let times = [revoked, other.revoked].filter { $0 != 0 }
        merged.revoked = times.min() ?? 0
        return merged
    }

    /// u32 count, then per record: id (8) ‖ u8 read-only ‖ u64 issued ‖ u64 expires ‖ u64 revoked ‖
    /// u8 group count ‖ per group: u32 group id ‖ key check (16) ‖ bytes(UTF-8 name).
    static func encode(_ records: [GrantRecord]) -> [UInt8] {
        var w = ByteWriter(capacity: 4 + records.count * 96)
        w.u32(UInt32(records.count))
        for record in records {
            w.raw(record.id)
            w.u8(record.readOnly ? 1 : 0)
            w.u64(record.issued)
            w.u64(record.expires)
            w.u64(record.revoked)
            w.u8(UInt8(record.groups.count))
            for group in record.groups {
                w.groupID(group.groupID)
                w.raw(group.keyCheck)
                w.lengthPrefixed(Array(group.name.utf8))
            }
        }
        return w.bytes
    }

    /// The records of a block's plaintext. Throws `MalformedInput` for anything else.
    static func decode(_ bytes: [UInt8]) throws -> [GrantRecord] {
        var r = ByteReader(bytes)
        let count = Int(try r.u32())
        guard count <= maxPerGroup else { throw MalformedInput(.count(.grantLedgerRecords, count)) }
        var records: [GrantRecord] = []
        for _ in 0..<count {
            let id = Array(try r.raw(idSize))
            let flag = try r.u8()
            guard flag <= 1 else { throw MalformedInput(.violates(.flagNotBoolean)) }
            let issued = try r.u64(), expires = try r.u64(), revoked = try r.u64()
            let groupCount = Int(try r.u8())
            guard (1...ScopedCredential.maxGroups).contains(groupCount) else {
                throw MalformedInput(.count(.grantLedgerGroups, groupCount))
            }
            var groups: [Group] = []
            for _ in 0..<groupCount {
                let groupID = try r.groupID()
                let keyCheck = Array(try r.raw(VaultFile.checkSize))
                let name = try r.lengthPrefixed(limit: AccessGroup.maxLength)
                guard let text = String(validating: name, as: UTF8.self) else { throw MalformedInput(.violates(.malformedGroupName)) }
                groups.append(Group(groupID: groupID, name: text, keyCheck: keyCheck))
            }
            records.append(GrantRecord(id: id, readOnly: flag == 1, issued: issued, expires: expires, revoked: revoked, groups: groups))
        }
        guard r.remaining == 0 else { throw MalformedInput(.trailingBytes(after: .grantLedgerBlock)) }
        return records
    }
}
