import VaultCrypto

// A vault made in memory, not read: a new file's first contents (`create`, `copy`'s new vault) and
// a re-key's fresh keys; what `Vault+NewFile` and the re-key write.
extension WorkingCopy {
    /// A new, empty vault with one keyslot, every class key and the default group.
    static func create(
        vaultID: [UInt8], slotKind: Keyslot.Kind, secret: SecretBytes, kdf: Scrypt.Parameters,
        deviceKey: DeviceKey, path: String
    ) throws -> WorkingCopy {
        var vault = try createWithoutGroups(
            vaultID: vaultID, keyslot: KeyslotSecret(kind: slotKind, secret: secret, kdf: kdf),
            deviceKey: deviceKey, path: path)
        _ = try vault.groupID(for: .default, creating: true)
        return vault
    }

    /// A new vault with no group yet: one keyslot, every class key, fresh signing and trust keys, and
    /// a team log that starts with `roster` (whose slots are sealed before the first write).
    static func createWithoutGroups(
        vaultID: [UInt8], keyslot: KeyslotSecret, deviceKey: DeviceKey, path: String,
        roster: [Member] = []
    ) throws -> WorkingCopy {
        let masterKey = MasterKey.random()
        let slot = try Keyslot.make(kind: keyslot.kind, secret: keyslot.secret, kdf: keyslot.kdf, masterKey: masterKey, vaultID: vaultID)
        let file = VaultFile(
            version: VaultFile.version, vaultID: vaultID, keyEpoch: 1, writeGeneration: 0,
            deviceCheck: deviceKey.check(vaultID: vaultID),
            deviceWrappedHeaderMACKey: [], keyslots: [slot], classes: [],
            groups: [], index: [], sections: [], records: [])
        var vault = try empty(file, masterKey: masterKey, deviceKey: deviceKey, path: path)
        vault.file.teamLog = TeamLog.created(vaultID: vaultID, keyEpoch: 1, roster: roster)
        vault.roster = roster
        vault.pending.memberSlotsStale = !roster.isEmpty
        try vault.replaceSigningKey()
        try vault.replaceTrustKey()
        return vault
    }

    /// `file` (its header fields but classes and groups) with fresh class keys under `masterKey`.
    static func empty(_ file: VaultFile, masterKey: MasterKey, deviceKey: DeviceKey?, path: String) throws -> WorkingCopy {
        var vault = WorkingCopy(
            file: file, keys: KeyRing(vaultID: file.vaultID, masterKey: masterKey, deviceKey: deviceKey),
            path: path, deviceMatches: deviceKey != nil, isWritable: true)
        vault.file.classes = []
        vault.file.groups = []
        vault.file.index = []
        vault.file.sections = []
        vault.file.listings = []
        vault.file.records = []
        for accessibility in Accessibility.allCases {
            let classKey = ClassKey.random()
            vault.keys.addClassKey(classKey, classID: accessibility.fileID)
            vault.file.classes.append(
                WrappedClassKey(
                    classID: accessibility.fileID,
                    wrapped: try wrapClassKey(classKey, accessibility.fileID, vault.keys)))
        }
        return vault
    }
}
