import VaultCrypto

/// A group's tombstone block, its trash block and its grant ledger block, each bucket 0 of its class
/// id among the group's listing blocks: `AES-GCM(tombstone key, Tombstone's encoding of the list,
/// AAD = AAD.tombstones)`, `AES-GCM(trash key, TrashEntry's encoding of the entries, AAD = AAD.trash)`
/// and `AES-GCM(grant ledger key, GrantRecord's encoding, AAD = AAD.grantLedger)` (docs/FORMAT.md,
/// "Tombstones", "Trash", "Grant ledger"); every key from the group key (`KeyRing.tombstoneKey(groupID:)`,
/// `trashKey(groupID:)`, `grantLedgerKey(groupID:)`). A trash entry's record is sealed as a record is
/// (`SealedRecord`).
enum SealedGroupBlock {
    /// `tombstones` sealed as the tombstone block of `groupID`.
    static func seal(_ tombstones: [Tombstone], key: SecretBytes, vaultID: [UInt8], groupID: GroupID) throws -> ListingBlock {
        try seal(
            Tombstone.encode(tombstones), classID: Tombstone.blockClassID, key: key, groupID: groupID,
            aad: AAD.tombstones(vaultID: vaultID, groupID: groupID))
    }

    /// `entries` sealed as the trash block of `groupID`.
    static func seal(_ entries: [TrashEntry], key: SecretBytes, vaultID: [UInt8], groupID: GroupID) throws -> ListingBlock {
        try seal(
            TrashEntry.encode(entries), classID: TrashEntry.blockClassID, key: key, groupID: groupID,
            aad: AAD.trash(vaultID: vaultID, groupID: groupID))
    }

    /// `records` sealed as the grant ledger block of `groupID`.
    static func seal(_ records: [GrantRecord], key: SecretBytes, vaultID: [UInt8], groupID: GroupID) throws -> ListingBlock {
        try seal(
            GrantRecord.encode(records), classID: GrantRecord.blockClassID, key: key, groupID: groupID,
            aad: AAD.grantLedger(vaultID: vaultID, groupID: groupID))
    }

    /// The tombstones of `block`; nil when it does not match its digest, open or decode.
    static func openTombstones(_ block: ListingBlock, key: SecretBytes, vaultID: [UInt8]) -> [Tombstone]? {
        open(block, key: key, aad: AAD.tombstones(vaultID: vaultID, groupID: block.groupID)).flatMap { try? Tombstone.decode($0) }
    }

    /// The trash entries of `block`; nil when it does not match its digest, open or decode.
    static func openTrash(_ block: ListingBlock, key: SecretBytes, vaultID: [UInt8]) -> [TrashEntry]? {
        open(block, key: key, aad: AAD.trash(vaultID: vaultID, groupID: block.groupID)).flatMap { try? TrashEntry.decode($0) }
    }

    /// The grant records of `block`; nil when it does not match its digest, open or decode.
    static func openGrantLedger(_ block: ListingBlock, key: SecretBytes, vaultID: [UInt8]) -> [GrantRecord]? {
        open(block, key: key, aad: AAD.grantLedger(vaultID: vaultID, groupID: block.groupID)).flatMap { try? GrantRecord.decode($0) }
    }

    private static func seal(_ plaintext: [UInt8], classID: ClassID, key: SecretBytes, groupID: GroupID, aad: [UInt8]) throws
        -> ListingBlock
    {
        ListingBlock(groupID: groupID, classID: classID, bucket: 0, sealed: try AESGCM.seal(plaintext, key: key, aad: aad))
    }

    private static func open(_ block: ListingBlock, key: SecretBytes, aad: [UInt8]) -> [UInt8]? {
        guard let sealed = block.checkedSealedBytes else { return nil }
        return try? sealed.withUnsafeBytes { try AESGCM.openNonSecret($0, key: key, aad: aad) }
    }
}
