import VaultCrypto

// An independent copy: the same contents under a vault id and keys of its own.
extension WorkingCopy {
    /// This vault's groups (their ids and names), items (with their item ids, history and
    /// conflicts), trash and members, in a new vault of id `vaultID` at `path`: a new master key
    /// behind one keyslot of `keyslot`, new class, group, signing and trust keys, this machine's
    /// `deviceKey` for the device-bound items, key epoch 1 and a team log that starts with the
    /// members. Nothing of it opens with this vault's keys, and no counter of one judges the other.
    /// Needs the owner's ring; an item bound to another machine throws `boundToAnotherDevice`
    /// (it cannot be sealed again here).
    mutating func independentCopy(vaultID: [UInt8], keyslot: KeyslotSecret, deviceKey: DeviceKey, path: String) throws -> WorkingCopy {
        guard keys.isOwners else { throw VaultError.locked(nil) }
        let items = try file.index.indices.map { (try openWholeRecord(at: $0), file.index[$0].itemID) }
        let trashed = try openTrash().records
        var copy = try WorkingCopy.createWithoutGroups(
            vaultID: vaultID, keyslot: keyslot, deviceKey: deviceKey, path: path,
            roster: try members())
        for entry in file.groups {
            guard let group = keys.groups[entry.groupID]?.group else { throw VaultError.locked(nil) }
            try copy.addGroup(group, id: entry.groupID, generation: 0)
        }
        for (opened, itemID) in items { try copy.store(opened, itemID: itemID) }
        copy.pending.trash.brought = trashed
        return copy
    }
}
