import VaultCrypto

/// A keyslot to make: its kind, the secret that opens it, and (passphrases) the scrypt cost.
struct KeyslotSecret {
    let kind: Keyslot.Kind
    let secret: SecretBytes
    let kdf: Scrypt.Parameters
}

// What a re-key cannot take along: asked of what a re-key plans from and changes.
extension OpenVault {
    /// Positions of the records this machine cannot re-seal: items bound to another machine's device key.
    var positionsBoundElsewhere: [Int] {
        guard !deviceMatches else { return [] }
        return file.index.indices.filter { Accessibility(fileID: file.index[$0].classID)?.isDeviceBound ?? false }
    }
}

// Re-keying: the whole vault under new keys.
extension WorkingCopy {
    /// Replaces every key: a new master key, class keys and group keys (the
    /// groups keep their ids and names), keyslots only for `keyslots`, and every
    /// record re-sealed with its item id, dates and attributes. The vault id
    /// stays; the key epoch rises, so sessions, caches and credentials of the
    /// old keys end. With `newDeviceKey` (this machine's key is the vault's),
    /// the device-bound items move to it too, so a stolen device key opens
    /// nothing afterwards. The trust key is replaced too, unless `keepingTrustKey` (a member's
    /// removal: no member ever held it), so pinned readers keep their pin only then. Needs the
    /// owner's ring and no record bound to another device (remove those first: they cannot be
    /// re-sealed here).
    mutating func rekey(keyslots: [KeyslotSecret], newDeviceKey: DeviceKey? = nil, keepingTrustKey: Bool = false) throws {
        try unwrapTrustKey()
        guard keys.isOwners, let trustKey else { throw VaultError.trustKeyNeeded(.rekeyVault) }
        guard !keyslots.isEmpty else { throw VaultError.lastKeyslot }
        let items = try file.index.indices.map { (try openWholeRecord(at: $0), file.index[$0].itemID) }
        try carryTombstones(of: file.groups.map(\.groupID))
        try carryGrantLedger(of: file.groups.map(\.groupID))
        try carryTrash(of: file.groups.map(\.groupID))
        // The team log's payloads are sealed under the old wrap key: open them now, seal them (and every slot) again under the new keys.
        let members = try self.members()
        var log = try openTeamLog()
        log.markWrapKeyChanged()
        let masterKey = MasterKey.random()
        let deviceKey = deviceMatches ? (newDeviceKey ?? keys.deviceKey) : nil
        var next = try WorkingCopy.empty(file, masterKey: masterKey, deviceKey: deviceKey, path: path)
        if let deviceKey { next.file.deviceCheck = deviceKey.check(vaultID: file.vaultID) }
        next.file.teamLog = log
        next.pending.tombstones = pending.tombstones
        next.pending.grantLedger = pending.grantLedger
        next.pending.trash = pending.trash
        next.file.keyslots = try keyslots.map {
            try Keyslot.make(kind: $0.kind, secret: $0.secret, kdf: $0.kdf, masterKey: masterKey, vaultID: file.vaultID)
        }
        for (entry, section) in zip(file.groups, file.sections) {
            guard let group = keys.groups[entry.groupID]?.group else { throw VaultError.locked(nil) }
            try next.addGroup(group, id: entry.groupID, generation: section.generation)
        }
        for (opened, itemID) in items {
            try next.store(opened, itemID: itemID)
        }
        next.roster = members
        next.pending.memberSlotsStale = true
        try next.replaceSigningKey()
        next.trustKey = trustKey
        try next.appendToLog(.rekeyed(trustKeyReplaced: !keepingTrustKey))
        if !keepingTrustKey { try next.replaceTrustKey() }
        self = next
    }
}
