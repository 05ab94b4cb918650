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
        try openGroupBlock(
            groupID, classID: TrashEntry.blockClassID, key: keys.trashKey(groupID:), open: SealedGroupBlock.openTrash,
            damage: .doesNotOpen(.trashBlock)) ?? []
    }

    /// The trash block of `groupID`, if it has one.
    func trashBlock(of groupID: GroupID) -> ListingBlock? {
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
            return TrashedRecord(
                itemID: entry.itemID, deletedAt: entry.deletedAt,
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
                } catch VaultError.unlock(.locked), VaultError.keys(.boundToAnotherDevice) {
                    unopened += 1
                }
            }
        }
        return (records, unopened)
    }
}
