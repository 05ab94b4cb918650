import FoundationEssentials
import VaultCrypto

// Changing records: storing and sealing items, removing them (a tombstone left, or moved to the trash).
extension WorkingCopy {
    /// Seals `item` (its attributes, secret and sealed fields) and the earlier secrets in `history`
    /// as a new record with a fresh record id, at `position` (replacing what is there, keeping its
    /// item id) or at the end (with `itemID`, or a new one).
    mutating func store(
        _ item: Item, history: [SecretRevision] = [],
        conflicts: [ItemConflict] = [], replacing position: Int? = nil, itemID: Bytes16? = nil
    ) throws {
        let attributes = item.attributes
        if attributes.accessibility.isDeviceBound && !deviceMatches {
            throw VaultError.boundToAnotherDevice(group: attributes.group, accessibility: attributes.accessibility)
        }
        if attributes.accessibility == .whenPasscodeSetThisDeviceOnly && !hasKeyslot(.passphrase) {
            throw VaultError.passcodeNotSet
        }
        let plaintext = RecordCodec.encodePlaintext(
            item, history: history, conflicts: try sealingVersionsElsewhere(conflicts, of: attributes))
        try store(plaintext: plaintext, of: attributes, replacing: position, itemID: itemID)
    }

    /// Seals `plaintext`, a record's plaintext as `RecordCodec` encodes it, as the record of an item
    /// with `attributes`, at `position` or at the end (with `itemID`, or a new one). Whatever the
    /// plaintext holds is sealed as it is: `store(_:history:conflicts:)` is what seals each
    /// conflict's other version under its own group's keys first.
    mutating func store(plaintext: SecretBytes, of attributes: ItemAttributes, replacing position: Int? = nil, itemID: Bytes16? = nil)
        throws
    {
        guard let (groupID, recordID, sealed) = try sealRecord(plaintext: plaintext, of: attributes) else { return }
        let classID = attributes.accessibility.fileID
        // An item keeps its id through every change; its revision is the record's digest.
        let entry = IndexEntry(
            recordID: recordID, itemID: itemID ?? position.map { file.index[$0].itemID } ?? Bytes16.random(),
            lookupTag: try keys.lookupTag(groupID: groupID, service: attributes.service, account: attributes.account),
            groupID: groupID, classID: classID, sealed: sealed[...])
        pending.storedAttributes[entry.itemID] = attributes
        pending.listings.insert(ListingPair(groupID: groupID, classID: classID), itemID: entry.itemID)
        if let position {
            pending.listings.insert(
                ListingPair(groupID: file.index[position].groupID, classID: file.index[position].classID), itemID: entry.itemID)
            file.index[position] = entry
            file.records[position] = sealed[...]
        } else {
            file.index.append(entry)
            file.records.append(sealed[...])
        }
    }

    /// Seals a record of `item` (attributes, secret and sealed fields), `history` and `conflicts` under
    /// a fresh record id: its group id (the group made if new), record id and sealed bytes; nil when
    /// the group cannot be made.
    mutating func sealRecord(
        _ item: Item, history: [SecretRevision],
        conflicts: [ItemConflict]
    ) throws -> (groupID: GroupID, recordID: [UInt8], sealed: [UInt8])? {
        let plaintext = RecordCodec.encodePlaintext(
            item, history: history, conflicts: try sealingVersionsElsewhere(conflicts, of: item.attributes))
        return try sealRecord(plaintext: plaintext, of: item.attributes)
    }

    /// Seals `plaintext` as a record of `attributes`' group and class under a fresh record id.
    private mutating func sealRecord(plaintext: SecretBytes, of attributes: ItemAttributes) throws -> (
        groupID: GroupID, recordID: [UInt8], sealed: [UInt8]
    )? {
        guard let groupID = try groupID(for: attributes.group, creating: true) else { return nil }
        // Only the other versions a merge keeps can take a record past what a reader accepts.
        guard plaintext.count <= RecordCodec.maxPlaintextBytes else { throw VaultError.recordTooLarge(attributes.key) }
        let (recordID, sealed) = try sealRecord(plaintext, groupID: groupID, accessibility: attributes.accessibility)
        return (groupID, recordID, sealed)
    }

    /// `plaintext` sealed as a record of `groupID` and `accessibility` under a fresh record id
    /// (`SealedRecord`): the record id and the sealed bytes.
    private func sealRecord(_ plaintext: SecretBytes, groupID: GroupID, accessibility: Accessibility) throws -> (
        recordID: [UInt8], sealed: [UInt8]
    ) {
        let recordID = SecureRandom.bytes(16)
        let key = try keys.recordKey(groupID: groupID, accessibility: accessibility, recordID: Bytes16(recordID))
        let address = RecordAddress(vaultID: file.vaultID, recordID: Bytes16(recordID), groupID: groupID, classID: accessibility.fileID)
        return (recordID, try SealedRecord.seal(plaintext, key: key, at: address))
    }

    /// `conflicts` with every other version of another group or class than `attributes`' sealed
    /// under that pair's keys (a record key of a fresh id, the AAD a record of that pair has): a
    /// reader of this item's group and class never decrypts a version that lived in another.
    private mutating func sealingVersionsElsewhere(_ conflicts: [ItemConflict], of attributes: ItemAttributes) throws -> [ItemConflict] {
        try conflicts.map { conflict in
            // A version no key of the group it names vouched for was only ever this record's: it stays in its group and class.
            if conflict.isUnsealedFromAnotherGroup, var other = conflict.other {
                other.attributes.group = attributes.group
                other.attributes.accessibility = attributes.accessibility
                var kept = conflict
                kept.other = other
                kept.isUnsealedFromAnotherGroup = false
                return kept
            }
            guard let other = conflict.other,
                other.attributes.group != attributes.group || other.attributes.accessibility != attributes.accessibility
            else { return conflict }
            guard let groupID = try groupID(for: other.attributes.group, creating: true) else { return conflict }
            let (recordID, sealedVersion) = try sealRecord(
                RecordCodec.encodePlaintext(other), groupID: groupID,
                accessibility: other.attributes.accessibility)
            var sealed = conflict
            sealed.other = nil
            sealed.sealedElsewhere = SealedVersion(
                groupID: groupID, classID: other.attributes.accessibility.fileID, recordID: recordID,
                sealed: sealedVersion)
            return sealed
        }
    }

    /// Stores `record` as it was opened (history and conflicts kept), at `position` or at the end with `itemID`.
    mutating func store(_ record: OpenedRecord, replacing position: Int? = nil, itemID: Bytes16? = nil) throws {
        try store(record.item, history: record.history, conflicts: record.conflicts, replacing: position, itemID: itemID)
    }

    /// Removes the records at `positions`, leaving a tombstone of each unless the items are stored
    /// again under their ids or their group goes too.
    mutating func remove(at positions: [Int], leavingTombstones: Bool = true) {
        if leavingTombstones { leaveTombstones(at: positions) }
        for position in positions.sorted(by: >) {
            pending.listings.insert(
                ListingPair(groupID: file.index[position].groupID, classID: file.index[position].classID),
                itemID: file.index.itemID(at: position))
            file.index.remove(at: position)
            file.records.remove(at: position)
        }
    }

    /// Tombstones for the records at `positions`, about to be removed. A record the keys at hand
    /// cannot open (bound to another machine) is remembered by its sealed digest alone.
    mutating func leaveTombstones(at positions: [Int]) {
        let removedAt = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        for position in positions {
            let entry = file.index[position]
            let content = (try? openWholeRecord(at: position))?.contentDigest ?? Tombstone.unknownContent
            pending.tombstones.added[entry.groupID, default: []].append(
                Tombstone(
                    itemID: entry.itemID, removedAt: removedAt, recordDigest: entry.digest.0.bytes + entry.digest.1.bytes,
                    contentDigest: content))
        }
    }

    /// Moves the records at `positions`, about to be removed, to their groups' trash as they are sealed.
    mutating func moveToTrash(at positions: [Int], deletedAt: Date) {
        let millis = UInt64(max(0, deletedAt.timeIntervalSince1970 * 1000))
        for position in positions {
            let entry = file.index[position]
            pending.trash.added[entry.groupID, default: []].append(
                TrashEntry(
                    itemID: entry.itemID, deletedAt: millis, recordID: entry.id, classID: entry.classID,
                    sealed: file.records.stored(at: position).bytes))
        }
    }
}
