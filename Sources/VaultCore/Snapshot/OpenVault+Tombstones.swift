import FoundationEssentials
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
        try openGroupBlock(groupID, classID: Tombstone.blockClassID, key: keys.tombstoneKey(groupID:), aad: AAD.tombstones(vaultID:groupID:),
                           decode: Tombstone.decode, damage: .doesNotOpen(.tombstoneBlock)) ?? []
    }

    /// The group's block of `classID` (its tombstones or its trash), checked against its digest,
    /// opened under `key` with `aad` and decoded; nil when the group has none. Throws `locked`
    /// without the key, `corrupted` (`damage`) for a block that does not open or decode.
    func openGroupBlock<Decoded>(_ groupID: GroupID, classID: ClassID, key: (GroupID) throws -> SecretBytes,
                                 aad: (_ vaultID: [UInt8], _ groupID: GroupID) -> [UInt8],
                                 decode: ([UInt8]) throws -> Decoded, damage: Damage) throws -> Decoded? {
        guard let block = file.listings.first(where: { $0.groupID == groupID && $0.classID == classID }) else { return nil }
        guard let key = try? key(groupID) else { throw VaultError.locked(nil) }
        let sealed = block.sealed.bytes
        guard constantTimeEquals(SHA256.hash(sealed), block.digest),
              let plaintext = try? sealed.withUnsafeBytes({ try AESGCM.openNonSecret($0, key: key, aad: aad(file.vaultID, groupID)) }),
              let decoded = try? decode(plaintext) else {
            throw VaultError.corrupted(path: path, detail: damage)
        }
        return decoded
    }

    /// Tombstones for the records at `positions`, about to be removed. A record the keys at hand
    /// cannot open (bound to another machine) is remembered by its sealed digest alone.
    mutating func leaveTombstones(at positions: [Int]) {
        let removedAt = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        for position in positions {
            let entry = file.index[position]
            let content = (try? openWholeRecord(at: position))?.contentDigest ?? Tombstone.unknownContent
            pending.tombstones.added[entry.groupID, default: []].append(
                Tombstone(itemID: entry.itemID, removedAt: removedAt, recordDigest: entry.digest.0.bytes + entry.digest.1.bytes,
                          contentDigest: content))
        }
    }

    /// Reads the tombstones of `groupIDs` before their keys are replaced, to seal them again under the new ones.
    mutating func carryTombstones(of groupIDs: [GroupID]) throws {
        for groupID in groupIDs where pending.tombstones.carried[groupID] == nil {
            pending.tombstones.carried[groupID] = try tombstones(of: groupID)
        }
    }

    /// Seals the tombstone block of every group whose tombstones changed: its tombstones as read (or
    /// carried), and those added, without repeats, the newest `Tombstone.maxPerGroup`, leaving out
    /// items the file holds again. Blocks of groups that left the header go. Each group's
    /// tombstone block comes first among its blocks.
    mutating func sealTombstones() throws {
        let headerGroups = Set(file.groups.map(\.groupID))
        let changed = pending.tombstones.groups.intersection(headerGroups)
        let orphaned = file.listings.contains { $0.classID == Tombstone.blockClassID && !headerGroups.contains($0.groupID) }
        guard !changed.isEmpty || orphaned else { return }
        var held: Set<Bytes16> = []
        if !changed.isEmpty { for position in file.index.indices { held.insert(file.index.itemID(at: position)) } }
        var tombstoneBlocks: [GroupID: ListingBlock] = [:]
        var otherBlocks: [GroupID: [ListingBlock]] = [:]
        for block in file.listings {
            if block.classID == Tombstone.blockClassID { tombstoneBlocks[block.groupID] = block } else { otherBlocks[block.groupID, default: []].append(block) }
        }
        for groupID in changed {
            let kept = try pending.tombstones.carried[groupID] ?? tombstones(of: groupID)
            let list = Tombstone.normalized((kept + pending.tombstones.added[groupID, default: []]).filter { !held.contains($0.itemID) })
            guard !list.isEmpty else {
                tombstoneBlocks[groupID] = nil
                continue
            }
            let sealed = try AESGCM.seal(Tombstone.encode(list), key: try keys.tombstoneKey(groupID: groupID),
                                         aad: AAD.tombstones(vaultID: file.vaultID, groupID: groupID))
            tombstoneBlocks[groupID] = ListingBlock(groupID: groupID, classID: Tombstone.blockClassID, bucket: 0,
                                                    digest: SHA256.hash(sealed), sealed: StoredBytes(sealed))
        }
        file.listings = file.groups.flatMap { group in
            (tombstoneBlocks[group.groupID].map { [$0] } ?? []) + (otherBlocks[group.groupID] ?? [])
        }
        pending.tombstones = TombstoneChanges()
    }
}
