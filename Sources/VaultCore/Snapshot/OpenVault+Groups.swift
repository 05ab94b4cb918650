import FoundationEssentials
import VaultCrypto

// Groups as read: those the keys open, one the file lacks, grants of them, and whether a key is the device key.
extension OpenVault {
    /// The groups the keys at hand open, within the caller's scope.
    var openedGroups: [AccessGroup] {
        file.groups.compactMap { entry in scope?.contains(entry.groupID) ?? true ? keys.groups[entry.groupID]?.group : nil }
    }

    /// The error for a group this file lacks, naming the groups the keys open.
    func missingGroup(_ group: AccessGroup) -> VaultError {
        .noSuchGroup(group, known: openedGroups)
    }

    /// Refuses a group the file does not have (`noSuchGroup`). Says nothing while a group of the
    /// caller's scope is left unopened: a missing group and a locked one cannot be told apart then.
    func requireExisting(_ group: AccessGroup?) throws {
        guard let group, keys.groupID(of: group) == nil else { return }
        guard !file.groups.contains(where: { keys.groups[$0.groupID] == nil && (scope?.contains($0.groupID) ?? true) }) else { return }
        throw missingGroup(group)
    }

    /// A scoped credential for `groups`: their base keys of every class, lookup
    /// keys and key checks; the index MAC keys too unless it is read-only. Needs a full ring.
    func grant(_ groups: [AccessGroup], readOnly: Bool, issued: Date, expires: Date?) throws -> ScopedCredential {
        guard keys.isFull else { throw VaultError.locked(nil) }
        guard groups.count <= ScopedCredential.maxGroups else {
            throw VaultError.invalidValue(.tooManyCredentialGroups(count: groups.count, limit: ScopedCredential.maxGroups))
        }
        let grants = try groups.map { group -> GroupGrant in
            guard let id = keys.groupID(of: group), let entry = file.groups.first(where: { $0.groupID == id }) else {
                throw missingGroup(group)
            }
            return try GroupGrant.of(id, in: keys, keyCheck: entry.keyCheck, classes: Accessibility.allCases, writable: !readOnly)
        }
        return ScopedCredential(vaultID: file.vaultID, readOnly: readOnly, issued: issued, expires: expires,
                                grants: grants, payloadVersion: UInt8(VaultFile.keySchedule(of: file.version)))
    }

    /// Whether `key` is the device key the vault in `bytes` is sealed under.
    static func isDeviceKey(_ key: SecretBytes, of bytes: FileBytes) -> Bool {
        guard let file = try? VaultFile.decode(bytes).file else { return false }
        return isTheDeviceKey(key, of: file)
    }
}

// Setting damaged groups aside. Kept with reading though it changes the snapshot: it is the end of
// opening a damaged file (`verifyIndex` names the groups, `vault verify --quarantine` sets them aside).
extension OpenVault {
    /// Removes the entries and records of every damaged group and gives it a fresh key
    /// (what it held may have been read or forged), so the vault can be written again.
    /// Needs a full ring; returns the groups' names.
    mutating func quarantineDamagedGroups() throws -> [String] {
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        var names: [String] = []
        for damaged in damagedGroups {
            // What the damaged group held may have been forged, its tombstones and trash too: they go with it.
            remove(at: file.index.indices.filter { file.index[$0].groupID == damaged.groupID }, leavingTombstones: false)
            pending.tombstones.carried[damaged.groupID] = []
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
