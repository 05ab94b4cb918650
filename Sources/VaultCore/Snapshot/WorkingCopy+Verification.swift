import FoundationEssentials
import VaultCrypto

// Checking what a file holds against the keys at hand: its structure and its groups' MACs.
extension WorkingCopy {
    /// Every index entry names a group and class of the header; the MAC of every group this
    /// ring holds is checked over `encoded`, the index as the file holds it: the index MAC with
    /// the group's write key, else (v2) the read MAC. A group that fails is left out of the
    /// ring and named in `damagedGroups`: it takes down only itself.
    mutating func verifyIndex(encoded: UnsafeRawBufferPointer, checking indexCheck: IndexCheck) throws {
        // A read that only looks up reads no entry outside the buckets it checks, and no listing block.
        if indexCheck != .lookupsOnly { try checkStructure() }
        try verifyGroupMACs(encoded: encoded, checking: indexCheck)
    }

    /// Every index entry names a group and class of the header, and each (group, class)'s listing
    /// blocks are its buckets 0 ..< a power of two, in order: checked before any group MAC.
    private func checkStructure() throws {
        let groupIDs = Set(file.groups.map(\.groupID))
        // Neighbouring entries mostly share group and class: check each pair once per run.
        var checked: (groupID: GroupID, classID: ClassID)?
        var pairs = Set<ListingPair>()
        for position in file.index.indices {
            let groupID = file.index.groupID(at: position), classID = file.index.classID(at: position)
            if checked?.groupID == groupID && checked?.classID == classID { continue }
            guard groupIDs.contains(groupID), Accessibility(fileID: classID) != nil else {
                throw VaultError.corrupted(path: path, detail: .violates(.indexEntryUnknownGroupOrClass))
            }
            checked = (groupID, classID)
            pairs.insert(ListingPair(groupID: groupID, classID: classID))
        }
        // Each pair's blocks are its buckets 0 ..< a power of two, in order; a pair with none is listed record by record.
        var buckets: [ListingPair: Int] = [:]
        var groupsWithTombstones = Set<GroupID>(), groupsWithTrash = Set<GroupID>(), groupsWithLedger = Set<GroupID>()
        for block in file.listings {
            // A group's one trash block (class id 255, bucket 0) lists no items either.
            if block.classID == TrashEntry.blockClassID {
                guard groupIDs.contains(block.groupID), block.bucket == 0, groupsWithTrash.insert(block.groupID).inserted else {
                    throw VaultError.corrupted(path: path, detail: .violates(.trashBlockGroupCount))
                }
                continue
            }
            // A group's one grant ledger block (class id 254, bucket 0) lists no items.
            if block.classID == GrantRecord.blockClassID {
                guard groupIDs.contains(block.groupID), block.bucket == 0, groupsWithLedger.insert(block.groupID).inserted else {
                    throw VaultError.corrupted(path: path, detail: .violates(.grantLedgerBlockGroupCount))
                }
                continue
            }
            // A group's one tombstone block (class id 0, bucket 0) lists no items.
            if block.classID == Tombstone.blockClassID {
                guard groupIDs.contains(block.groupID), block.bucket == 0, groupsWithTombstones.insert(block.groupID).inserted else {
                    throw VaultError.corrupted(path: path, detail: .violates(.tombstoneBlockGroupCount))
                }
                continue
            }
            let pair = ListingPair(groupID: block.groupID, classID: block.classID)
            guard pairs.contains(pair), block.bucket == buckets[pair, default: 0] else {
                throw VaultError.corrupted(path: path, detail: .violates(.listingBlockOrder))
            }
            buckets[pair] = block.bucket + 1
        }
        guard buckets.values.allSatisfy(Buckets.isValid) else {
            throw VaultError.corrupted(path: path, detail: .violates(.listingBucketCount))
        }
    }

    /// Checks the MAC of every group this ring holds (see `verifyIndex`).
    private mutating func verifyGroupMACs(encoded: UnsafeRawBufferPointer, checking indexCheck: IndexCheck) throws {
        if file.version == 1 {
            for group in file.groups where keys.groups[group.groupID]?.indexMACKey != nil {
                let slot = file.groups.firstIndex { $0.groupID == group.groupID }!
                let mac = try keys.groupMACv1(groupID: group.groupID, entries: file.index, encoded: encoded)
                if !constantTimeEquals(mac, file.sections[slot].indexMAC) { markDamaged(group.groupID) }
            }
            return
        }
        var wanted: [GroupID: (bucketCount: Int, buckets: Set<Int>?)] = [:]
        if indexCheck == .everyBucket {
            for (group, section) in zip(file.groups, file.sections) where keys.groups[group.groupID] != nil {
                wanted[group.groupID] = (section.bucketDigests.count, nil)
            }
        } else {
            bucketChecks = BucketChecks(everyBucket: false)
        }
        let computed = file.index.bucketDigests(wanted)
        for (group, section) in zip(file.groups, file.sections) {
            guard let held = keys.groups[group.groupID] else { continue }
            let kind: KeyRing.GroupMACKind = held.indexMACKey != nil ? .index : .read
            let digests = computed[group.groupID] ?? [:]
            let bucketsMatch =
                indexCheck != .everyBucket || section.bucketDigests.indices.allSatisfy { digests[$0] == section.bucketDigests[$0] }
            let mac = try keys.groupMAC(
                kind, groupID: group.groupID, context: macContext(section),
                bucketDigests: section.bucketDigests, listings: file.listings)
            if bucketsMatch && constantTimeEquals(mac, kind == .index ? section.indexMAC : section.readMAC) {
                if kind == .index { groupsVerifiedByWriteKey.insert(group.groupID) }
            } else {
                markDamaged(group.groupID)
            }
        }
    }

    /// Leaves a group whose section fails out of the ring and names it in `damagedGroups`.
    private mutating func markDamaged(_ groupID: GroupID) {
        guard let held = keys.groups[groupID] else { return }
        damagedGroups.append(DamagedGroup(groupID: groupID, group: held.group))
        keys.removeGroup(id: groupID)
    }
}

// What opening leaves unchecked, and the context every group MAC covers: asked of any opened vault.
extension OpenVault {
    /// What opening leaves unchecked, for `verify`: the groups this ring holds the write key of whose
    /// read MAC fails (it would fail every reader without that key, though the writer's own reads
    /// never use it; the writer's next change makes it again), and item ids repeated across the index.
    func problemsBeyondOpening() throws -> (readMACFailures: [AccessGroup], repeatedItemIDs: Bool) {
        guard file.version >= 2 else { return ([], false) }
        var failures: [AccessGroup] = []
        for (group, section) in zip(file.groups, file.sections) {
            guard let held = keys.groups[group.groupID], held.indexMACKey != nil else { continue }
            let mac = try keys.groupMAC(
                .read, groupID: group.groupID, context: macContext(section),
                bucketDigests: section.bucketDigests, listings: file.listings)
            if !constantTimeEquals(mac, section.readMAC) { failures.append(held.group) }
        }
        return (failures, file.index.hasRepeatedItemID)
    }

    func macContext(_ section: GroupSection) -> KeyRing.GroupMACContext {
        KeyRing.GroupMACContext(
            keyEpoch: file.keyEpoch, writeGeneration: file.writeGeneration, groupGeneration: section.generation,
            writeID: file.writeID)
    }
}
