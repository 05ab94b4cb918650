import FoundationEssentials
import VaultCrypto

/// An item opened from a trash block, to seal again under other keys or to bring back.
struct TrashedRecord {
    let itemID: Bytes16
    let deletedAt: UInt64
    var record: OpenedRecord

    var deletion: TrashEntry.Deletion { TrashEntry.Deletion(itemID: itemID, deletedAt: deletedAt) }
}

// The trash: one sealed block per group among the listing blocks (class id 255), covered by the
// group's MACs as every block of the group is (docs/FORMAT.md, "Trash").
extension OpenVault {
    /// The trash of `groupID` as the file holds it (empty without a block).
    /// Throws `locked` without the group's keys, `corrupted` for a block that does not open.
    func trash(of groupID: GroupID) throws -> [TrashEntry] {
        try openGroupBlock(groupID, classID: TrashEntry.blockClassID, key: keys.trashKey(groupID:), aad: AAD.trash(vaultID:groupID:),
                           decode: TrashEntry.decode, damage: .doesNotOpen(.trashBlock)) ?? []
    }

    private func trashBlock(of groupID: GroupID) -> ListingBlock? {
        file.listings.first { $0.groupID == groupID && $0.classID == TrashEntry.blockClassID }
    }

    /// Opens a trashed record. Throws `locked` or `boundToAnotherDevice` without its keys.
    func openTrashed(_ entry: TrashEntry, of groupID: GroupID) throws -> TrashedRecord {
        guard let accessibility = Accessibility(fileID: entry.classID) else {
            throw VaultError.corrupted(path: path, detail: .unknownClass(in: .trashedRecord))
        }
        let (plaintext, group) = try entry.sealed.withUnsafeBytes {
            try openSealed($0, recordID: entry.recordID, groupID: groupID, accessibility: accessibility)
        }
        do {
            return TrashedRecord(itemID: entry.itemID, deletedAt: entry.deletedAt,
                                 record: try decodeWholeRecord(plaintext, group: group, accessibility: accessibility))
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
    }

    /// Every trashed record of the groups this ring holds that its keys open, and how many they do not.
    func openTrash() throws -> (records: [TrashedRecord], unopened: Int) {
        var records: [TrashedRecord] = [], unopened = 0
        for group in file.groups where keys.groups[group.groupID] != nil && trashBlock(of: group.groupID) != nil {
            for entry in try trash(of: group.groupID) {
                do {
                    records.append(try openTrashed(entry, of: group.groupID))
                } catch VaultError.locked, VaultError.boundToAnotherDevice {
                    unopened += 1
                }
            }
        }
        return (records, unopened)
    }

    /// Moves the records at `positions`, about to be removed, to their groups' trash as they are sealed.
    mutating func moveToTrash(at positions: [Int], deletedAt: Date) {
        let millis = UInt64(max(0, deletedAt.timeIntervalSince1970 * 1000))
        for position in positions {
            let entry = file.index[position]
            pending.trash.added[entry.groupID, default: []].append(
                TrashEntry(itemID: entry.itemID, deletedAt: millis, recordID: entry.id, classID: entry.classID,
                           sealed: file.records.stored(at: position).bytes))
        }
    }

    /// Opens the trash of `groupIDs` before their keys are replaced, to seal it again under the new
    /// ones. A record the keys at hand cannot open (bound to another machine) cannot be sealed again: it goes.
    mutating func carryTrash(of groupIDs: [GroupID]) throws {
        for groupID in groupIDs where pending.trash.replaced[groupID] == nil && trashBlock(of: groupID) != nil {
            pending.trash.replaced[groupID] = try trash(of: groupID).compactMap { entry in
                do {
                    return try openTrashed(entry, of: groupID)
                } catch VaultError.locked, VaultError.boundToAnotherDevice {
                    return nil
                }
            }
        }
    }

    /// Seals the trash block of every group whose trash changed, or holds an item deleted before
    /// `pending.trashPurgeBefore` or one the index holds again (brought back, or kept by a merge): the
    /// block goes when nothing is left. Blocks of groups that left the header go; a group whose
    /// keys this ring lacks keeps its block. A group's trash block comes last among its blocks.
    mutating func sealTrash() throws {
        let headerGroups = Set(file.groups.map(\.groupID))
        var brought: [GroupID: [TrashEntry]] = [:]
        for trashed in pending.trash.brought {
            let attributes = trashed.record.item.attributes
            guard let groupID = keys.groupID(of: attributes.group), headerGroups.contains(groupID) else { continue }
            brought[groupID, default: []].append(try sealTrashed(trashed))
        }
        let candidates = file.groups.map(\.groupID).filter { groupID in
            keys.groups[groupID] != nil && (trashBlock(of: groupID) != nil || pending.trash.replaced[groupID] != nil
                || pending.trash.added[groupID] != nil || brought[groupID] != nil)
        }
        var held: Set<Bytes16> = []
        if !candidates.isEmpty { for position in file.index.indices { held.insert(file.index.itemID(at: position)) } }
        var remade: [GroupID: ListingBlock?] = [:]
        for groupID in candidates {
            let kept: [TrashEntry]
            if let replaced = pending.trash.replaced[groupID] {
                kept = try replaced.map { try sealTrashed($0) }
            } else {
                kept = try trash(of: groupID)
            }
            let changes = (pending.trash.added[groupID] ?? []) + (brought[groupID] ?? [])
            let list = TrashEntry.normalized(kept + changes, held: held, purgeBefore: pending.trashPurgeBefore)
            if changes.isEmpty, pending.trash.replaced[groupID] == nil, list.count == kept.count { continue }
            guard !list.isEmpty else {
                remade[groupID] = .some(nil)
                continue
            }
            let sealed = try AESGCM.seal(TrashEntry.encode(list), key: try keys.trashKey(groupID: groupID),
                                         aad: AAD.trash(vaultID: file.vaultID, groupID: groupID))
            remade[groupID] = ListingBlock(groupID: groupID, classID: TrashEntry.blockClassID, bucket: 0,
                                           digest: SHA256.hash(sealed), sealed: StoredBytes(sealed))
        }
        let orphaned = file.listings.contains { $0.classID == TrashEntry.blockClassID && !headerGroups.contains($0.groupID) }
        pending.trash = TrashChanges()
        guard !remade.isEmpty || orphaned else { return }
        file.listings = file.groups.flatMap { group -> [ListingBlock] in
            let blocks = file.listings.filter { $0.groupID == group.groupID }
            guard let replacement = remade[group.groupID] else { return blocks }
            return blocks.filter { $0.classID != TrashEntry.blockClassID } + (replacement.map { [$0] } ?? [])
        }
    }

    /// `trashed` sealed again as a trash entry under the keys at hand (a fresh record id).
    private mutating func sealTrashed(_ trashed: TrashedRecord) throws -> TrashEntry {
        let record = trashed.record
        guard let (_, recordID, sealed) = try sealRecord(record.item, history: record.history, conflicts: record.conflicts) else {
            throw VaultError.locked(nil)
        }
        return TrashEntry(itemID: trashed.itemID, deletedAt: trashed.deletedAt, recordID: Bytes16(recordID),
                          classID: record.item.attributes.accessibility.fileID, sealed: sealed)
    }
}
