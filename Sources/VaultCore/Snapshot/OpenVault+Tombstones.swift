import VaultCrypto

extension OpenedRecord {
    /// SHA-256 of everything the revision holds — attributes, secret, sealed fields, earlier secrets, conflicts —
    /// and its group and class: equal for one revision however often it was sealed again (a merge,
    /// a revoke and a re-key seal it under a fresh record id).
    var contentDigest: [UInt8] {
        let attributes = item.attributes
        let plaintext = RecordCodec.encodePlaintext(item, history: history, conflicts: conflicts)
        let placed = Array(attributes.group.name.utf8) + [0, attributes.accessibility.fileID.rawValue]
        return plaintext.withUnsafeBytes { SHA256.hash(Array($0) + placed) }
    }
}

// Tombstones: one sealed block per group among the listing blocks (class id 0), covered by the
// group's MACs as every block of the group is (docs/FORMAT.md, "Tombstones").
extension OpenVault {
    /// The tombstones of `groupID` as the file holds them (none without a block).
    /// Throws `locked` without the group's keys, `corrupted` for a block that does not open.
    func tombstones(of groupID: GroupID) throws -> [Tombstone] {
        try openGroupBlock(
            groupID, classID: Tombstone.blockClassID, key: keys.tombstoneKey(groupID:), open: SealedGroupBlock.openTombstones,
            damage: .doesNotOpen(.tombstoneBlock)) ?? []
    }

    /// The group's block of `classID` (its tombstones or its trash), opened under `key` by `open`
    /// (`SealedGroupBlock`); nil when the group has none. Throws `locked` without the
    /// key, `corrupted` (`damage`) for a block that does not match its digest, open or decode.
    func openGroupBlock<Decoded>(
        _ groupID: GroupID, classID: ClassID, key: (GroupID) throws -> SecretBytes,
        open: (_ block: ListingBlock, _ key: SecretBytes, _ vaultID: [UInt8]) -> Decoded?,
        damage: Damage
    ) throws -> Decoded? {
        guard let block = file.listings.first(where: { $0.groupID == groupID && $0.classID == classID }) else { return nil }
        guard let key = try? key(groupID) else { throw VaultError.locked(nil) }
        guard let decoded = open(block, key, file.vaultID) else { throw VaultError.corrupted(path: path, detail: damage) }
        return decoded
    }
}
