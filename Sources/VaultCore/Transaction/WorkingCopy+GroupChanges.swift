import VaultCrypto

// Changing groups and their keys, class keys, and moving to a new device key; what this machine's
// grants depend on, which a write compares before and after.
extension WorkingCopy {
    /// The id of `group`, creating the group (and its key) when `creating` is set.
    mutating func groupID(for group: AccessGroup, creating: Bool) throws -> GroupID? {
        if let id = keys.groupID(of: group) { return id }
        guard creating else { return nil }
        guard keys.isFull else { throw VaultError.locked(nil) }
        // A random id, never one a deleted group had a moment ago (whose old keys may still sit in a cache).
        let used = Set(file.groups.map(\.groupID))
        var id = GroupID.random()
        while used.contains(id) { id = GroupID.random() }
        try addGroup(group, id: id, generation: 0)
        return id
    }

    /// Adds `group` under `id` with a fresh key, its section at `generation`.
    mutating func addGroup(_ group: AccessGroup, id: GroupID, generation: UInt64) throws {
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        file.groups.append(WrappedGroupKey(groupID: id, keyCheck: [], wrappedNameAndKey: []))
        file.sections.append(GroupSection(generation: generation))
        try setGroupKey(.random(), of: group, at: file.groups.count - 1, wrapKey: wrapKey)
    }

    /// Makes `groupKey` the key of the group at `slot` of the header: its key check and wrapped entry.
    mutating func setGroupKey(_ groupKey: GroupKey, of group: AccessGroup, at slot: Int, wrapKey: WrapKey) throws {
        let id = file.groups[slot].groupID
        // A group key replaced (not a new group's): the scoped members of the group hold the old one.
        if keys.groups[id] != nil { pending.memberSlotsStale = true }
        keys.addGroup(keys.groupKeys(group, groupKey: groupKey), id: id)
        file.groups[slot].keyCheck = groupKey.check(groupID: id, vaultID: file.vaultID)
        file.groups[slot].wrappedNameAndKey = try SealedGroupEntry.seal(
            group, key: groupKey, groupID: id, under: wrapKey, vaultID: file.vaultID)
    }

    /// Gives a group a fresh key and re-seals its items under it, so every key
    /// handed out for it before (scoped credentials, copies of caches) opens
    /// nothing of it from then on; raises the key epoch, so no section from before
    /// can be spliced back. Returns how many items were re-sealed.
    mutating func rotateGroupKey(_ groupID: GroupID, progress: ProgressHandler? = nil) throws -> Int {
        guard let wrapKey = keys.wrapKey, let group = keys.groups[groupID]?.group,
            let slot = file.groups.firstIndex(where: { $0.groupID == groupID })
        else { throw VaultError.locked(nil) }
        let positions = file.index.indices.filter { file.index[$0].groupID == groupID }
        let items = try positions.map { try openWholeRecord(at: $0) }
        let holdingVersions = try recordsKeepingVersions(sealedIn: groupID)
        try carryTombstones(of: [groupID])
        try carryGrantLedger(of: [groupID])
        try carryTrash(of: [groupID] + trashKeepingVersions(sealedIn: groupID))
        try setGroupKey(.random(), of: group, at: slot, wrapKey: wrapKey)
        try appendToLog(.groupKeyReplaced(groupID))
        for (done, (position, opened)) in zip(positions, items).enumerated() {
            progress?(done + 1, items.count)
            try store(opened, replacing: position)
        }
        // Conflict versions other groups' records keep under this group's keys follow them.
        for (position, opened) in holdingVersions { try store(opened, replacing: position) }
        return items.count
    }

    /// The records of groups other than `groupID` that keep a conflict version sealed under its keys,
    /// opened (that version with them) by position. A record the keys at hand cannot open (bound to
    /// another machine) is left as it is.
    private func recordsKeepingVersions(sealedIn groupID: GroupID) throws -> [(position: Int, record: OpenedRecord)] {
        try file.index.indices.compactMap { position -> (Int, OpenedRecord)? in
            guard file.index[position].groupID != groupID, keys.groups[file.index[position].groupID] != nil,
                case let (_, inConflict)? = try? openRecordNotingConflicts(at: position), inConflict
            else { return nil }
            let record = try openWholeRecord(at: position)
            return record.conflicts.contains { $0.sealedElsewhere?.groupID == groupID } ? (position, record) : nil
        }
    }

    /// The groups other than `groupID` whose trash keeps a record with a conflict version sealed under
    /// its keys. A group whose trash this write holds opened already (`pending.trash.replaced`) is
    /// none: those records are sealed again, with their versions, when the write is sealed.
    private func trashKeepingVersions(sealedIn groupID: GroupID) throws -> [GroupID] {
        try file.groups.map(\.groupID).filter { other in
            guard other != groupID, keys.groups[other] != nil, pending.trash.replaced[other] == nil, trashBlock(of: other) != nil else {
                return false
            }
            return try trash(of: other).contains { entry in
                guard let trashed = try? openTrashed(entry, of: other) else { return false }
                return trashed.record.conflicts.contains { $0.sealedElsewhere?.groupID == groupID }
            }
        }
    }

    /// Drops every conflict version sealed under `groupID`'s keys from the records and trash of other
    /// groups, before the group goes; returns the items that kept one.
    private mutating func dropVersions(sealedIn groupID: GroupID) throws -> [ItemKey] {
        var dropped: [ItemKey] = []
        for (position, var record) in try recordsKeepingVersions(sealedIn: groupID) {
            record.conflicts.removeAll { $0.sealedElsewhere?.groupID == groupID }
            dropped.append(record.item.attributes.key)
            try store(record, replacing: position)
        }
        try carryTrash(of: try trashKeepingVersions(sealedIn: groupID))
        for other in Array(pending.trash.replaced.keys) where other != groupID {
            pending.trash.replaced[other] = pending.trash.replaced[other]?.map { trashed in
                var record = trashed
                if record.record.conflicts.contains(where: { $0.sealedElsewhere?.groupID == groupID }) {
                    record.record.conflicts.removeAll { $0.sealedElsewhere?.groupID == groupID }
                    dropped.append(record.record.item.attributes.key)
                }
                return record
            }
        }
        return dropped
    }

    /// Removes a group, its key and its items, and raises the key epoch; returns how many items went
    /// with it, and the items of other groups whose conflict versions under its keys went too.
    mutating func removeGroup(_ groupID: GroupID) throws -> GroupDeletion {
        guard keys.isOwners, let slot = file.groups.firstIndex(where: { $0.groupID == groupID }) else {
            throw VaultError.locked(nil)
        }
        let droppedVersions = try dropVersions(sealedIn: groupID)
        let positions = file.index.indices.filter { file.index[$0].groupID == groupID }
        remove(at: positions, leavingTombstones: false)
        file.groups.remove(at: slot)
        file.sections.remove(at: slot)
        keys.removeGroup(id: groupID)
        try appendToLog(.groupDeleted(groupID))
        return GroupDeletion(items: positions.count, droppedConflictVersions: droppedVersions)
    }

    /// Reads the tombstones of `groupIDs` before their keys are replaced, to seal them again under the new ones.
    mutating func carryTombstones(of groupIDs: [GroupID]) throws {
        for groupID in groupIDs where pending.tombstones.carried[groupID] == nil {
            pending.tombstones.carried[groupID] = try tombstones(of: groupID)
        }
    }

    /// Opens the trash of `groupIDs` before their keys are replaced, to seal it again under the new
    /// ones. A record the keys at hand cannot open (bound to another machine) cannot be sealed again: it goes.
    mutating func carryTrash(of groupIDs: [GroupID]) throws {
        for groupID in groupIDs where pending.trash.replaced[groupID] == nil && trashBlock(of: groupID) != nil {
            pending.trash.replaced[groupID] = try trash(of: groupID).compactMap { entry in
                do {
                    return try openTrashed(entry, of: groupID)
                } catch VaultError.unlock(.locked), VaultError.keys(.boundToAnotherDevice) {
                    return nil
                }
            }
        }
    }

    /// What the grants of this machine (device grants, after-first-unlock cache) depend on: the
    /// groups with their key checks and the wrapped class keys. Equal before and after a change,
    /// the grants written before still hold.
    var grantedKeys: [UInt8] {
        var w = ByteWriter()
        for group in file.groups {
            w.groupID(group.groupID)
            w.raw(group.keyCheck)
        }
        for entry in file.classes { w.raw(entry.wrapped) }
        w.raw(file.deviceCheck)
        return w.bytes
    }

    /// This vault moved to a new device key: the `always` class keys replaced
    /// (their base keys sat in the old device grants), and every item that the
    /// old key opened or was bound to re-sealed, keeping its item id:
    /// device-bound items and items of the `always` classes. Needs a full
    /// ring; returns how many items were re-sealed. The caller writes this
    /// machine's device grants under the new key after the vault.
    mutating func rebind(toDeviceKey newKey: DeviceKey) throws -> Int {
        let masterKey = try masterKey()
        let moving = file.index.indices.filter { position in
            guard let accessibility = Accessibility(fileID: file.index[position].classID) else { return false }
            return accessibility.isDeviceBound || Accessibility.deviceClasses.contains(accessibility)
        }
        let items = try moving.map { (try openWholeRecord(at: $0), file.index[$0].itemID) }
        var moved = self
        moved.remove(at: moving, leavingTombstones: false)
        moved.file.deviceCheck = newKey.check(vaultID: file.vaultID)
        var reopened = WorkingCopy(try Snapshot.open(FileBytes(try moved.encode()), masterKey: masterKey, deviceKey: newKey, path: path))
        for accessibility in Accessibility.deviceClasses { try reopened.rotateClassKey(accessibility) }
        for (opened, itemID) in items {
            try reopened.store(opened, itemID: itemID)
        }
        self = reopened
        return items.count
    }

    /// Replaces a class key with a fresh one, so copies of the old key open nothing written after.
    mutating func rotateClassKey(_ accessibility: Accessibility) throws {
        let classKey = ClassKey.random()
        let id = accessibility.fileID
        guard let index = file.classes.firstIndex(where: { $0.classID == id }) else { return }
        file.classes[index].wrapped = try WorkingCopy.wrapClassKey(classKey, id, keys)
        keys.addClassKey(classKey, classID: id)
        pending.memberSlotsStale = true
        // Their blocks are sealed under the old base keys: every item of the class is re-stored or removed by the caller.
        for entry in file.index where entry.classID == id { pending.listings.insertWhole(ListingPair(groupID: entry.groupID, classID: id)) }
    }

    /// A class key sealed under the key-wrap key (needs the master key).
    static func wrapClassKey(_ classKey: ClassKey, _ classID: ClassID, _ keys: KeyRing) throws -> [UInt8] {
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        return try SealedClassKey.seal(classKey, classID: classID, under: wrapKey, vaultID: keys.vaultID)
    }

    /// Removes the entries and records of every damaged group and gives it a fresh key
    /// (what it held may have been read or forged), so the vault can be written again.
    /// Needs a full ring; returns the groups' names. The damaged groups are those opening named
    /// (`verifyIndex`); `vault verify --quarantine` sets them aside.
    mutating func quarantineDamagedGroups() throws -> [String] {
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        var names: [String] = []
        for damaged in damagedGroups {
            // What the damaged group held may have been forged, its tombstones and trash too: they go with it.
            remove(at: file.index.indices.filter { file.index[$0].groupID == damaged.groupID }, leavingTombstones: false)
            pending.tombstones.carried[damaged.groupID] = []
            pending.grantLedger.carried[damaged.groupID] = []
            pending.trash.replaced[damaged.groupID] = []
            guard let slot = file.groups.firstIndex(where: { $0.groupID == damaged.groupID }) else { continue }
            try setGroupKey(.random(), of: damaged.group, at: slot, wrapKey: wrapKey)
            names.append(damaged.group.name)
        }
        // The damaged groups left the ring when they failed, so setGroupKey saw new groups: their members hold the old keys.
        if !names.isEmpty { pending.memberSlotsStale = true }
        for damaged in damagedGroups where file.groups.contains(where: { $0.groupID == damaged.groupID }) {
            try appendToLog(.groupKeyReplaced(damaged.groupID))
        }
        damagedGroups = []
        return names
    }
}
