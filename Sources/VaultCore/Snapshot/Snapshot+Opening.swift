import FoundationEssentials
import VaultCrypto

// Opening a vault file: parse, open a keyslot or take the keys given, check the header MAC, the
// trust statement and the index, then hand out the result as a `Snapshot`. Each opening fills a
// `WorkingCopy` (its checks are that value's steps) and freezes it.
extension Snapshot {

    /// Parses `bytes` and opens a keyslot with the unlock secret: a full ring.
    static func unlock(
        _ bytes: FileBytes, secret: UnlockSecret, deviceKey: DeviceKey?, path: String,
        checking indexCheck: IndexCheck = .everyBucket
    ) throws -> Snapshot {
        let parsed = try parse(bytes, path: path, checking: indexCheck)
        let masterKey = try openKeyslot(parsed.file, secret: secret, path: path)
        return try open(parsed, masterKey: masterKey, deviceKey: deviceKey, path: path, checking: indexCheck)
    }

    /// Parses `bytes` and opens it with a master key (from a keyslot or a session).
    static func open(
        _ bytes: FileBytes, masterKey: MasterKey, deviceKey: DeviceKey?, path: String,
        checking indexCheck: IndexCheck = .everyBucket
    ) throws -> Snapshot {
        try open(
            try parse(bytes, path: path, checking: indexCheck), masterKey: masterKey, deviceKey: deviceKey, path: path, checking: indexCheck
        )
    }

    /// Opens `bytes` without the master key: with this device's grants (the
    /// `always` classes) and the after-first-unlock cache's. A v2 file is
    /// checked by each group's read MAC, which these grants can check but not
    /// the owner's MACs; a v1 file by its header MAC key sealed under the device key.
    static func openPartial(
        _ bytes: FileBytes, deviceKey: DeviceKey?, grants: [GroupGrant], path: String,
        checking indexCheck: IndexCheck = .everyBucket
    ) throws -> Snapshot {
        let parsed = try parse(bytes, path: path, checking: indexCheck)
        let file = parsed.file
        let deviceMatches = isTheDeviceKey(deviceKey, of: file)
        var headerKey: HeaderMACKey?
        if file.version == 1, deviceMatches, let deviceKey, !file.deviceWrappedHeaderMACKey.isEmpty {
            headerKey = SealedV1DeviceKeys.openHeaderMACKey(
                file.deviceWrappedHeaderMACKey, under: deviceKey.wrapKey(vaultID: file.vaultID),
                vaultID: file.vaultID)
        }
        if file.version == 1, headerKey == nil { throw VaultError.locked(nil) }
        var keys = KeyRing(
            vaultID: file.vaultID, headerMACKey: headerKey, deviceKey: deviceMatches ? deviceKey : nil,
            formatVersion: file.version)
        if headerKey != nil { try verifyHeaderMAC(parsed, keys: keys, path: path) }
        var given = grants
        if file.version == 1, deviceMatches, let deviceKey {
            let wrapKey = deviceKey.wrapKey(vaultID: file.vaultID)
            given += try file.groups.filter { !$0.deviceWrapped.isEmpty }.map {
                try openV1DeviceGrant($0, key: wrapKey, vaultID: file.vaultID, path: path)
            }
        }
        // Grants from before a re-key, or of a deleted group, hold keys that are not the group's any more: left out.
        for grant in given {
            guard let entry = file.groups.first(where: { $0.groupID == grant.groupID }),
                constantTimeEquals(entry.keyCheck, grant.keyCheck)
            else { continue }
            merge(grant.groupKeys, id: grant.groupID, into: &keys)
        }
        var vault = WorkingCopy(file: file, keys: keys, path: path, deviceMatches: deviceMatches, isWritable: false)
        vault.header = parsed.header
        try parsed.encodedIndex.withUnsafeBytes { try vault.verifyIndex(encoded: $0, checking: indexCheck) }
        return Snapshot(vault)
    }

    /// Opens `bytes` with a scoped credential: the ring holds its groups and nothing else.
    /// A credential holds no header MAC key: the header checksum, its groups'
    /// MACs and each record's digest and seal protect what it reads.
    static func open(
        _ bytes: FileBytes, credential: ScopedCredential, deviceKey: DeviceKey?, path: String,
        checking indexCheck: IndexCheck = .everyBucket
    ) throws -> Snapshot {
        try open(
            try parse(bytes, path: path, checking: indexCheck), credential: credential, deviceKey: deviceKey, path: path,
            checking: indexCheck)
    }

    /// `open(_:credential:deviceKey:path:checking:)` of a file parsed already.
    static func open(
        _ parsed: Parsed, credential: ScopedCredential, deviceKey: DeviceKey?, path: String,
        checking indexCheck: IndexCheck = .everyBucket
    ) throws -> Snapshot {
        let file = parsed.file
        guard constantTimeEquals(credential.vaultID, file.vaultID) else { throw VaultError.credentialForAnotherVault }
        let deviceMatches = isTheDeviceKey(deviceKey, of: file)
        var keys = KeyRing(
            vaultID: file.vaultID, headerMACKey: nil, deviceKey: deviceMatches ? deviceKey : nil,
            formatVersion: file.version)
        // Index MAC keys are the format version's: those of a credential granted before a conversion are v1's.
        let writeKeysHold = UInt16(credential.payloadVersion) == VaultFile.keySchedule(of: file.version)
        for var grant in credential.grants {
            guard let entry = file.groups.first(where: { $0.groupID == grant.groupID }),
                constantTimeEquals(entry.keyCheck, grant.keyCheck)
            else {
                throw VaultError.credentialRevoked(grant.group)
            }
            if !writeKeysHold { grant.indexMACKey = nil }
            merge(grant.groupKeys, id: grant.groupID, into: &keys)
        }
        var vault = WorkingCopy(
            file: file, keys: keys, path: path, deviceMatches: deviceMatches,
            isWritable: credential.canWrite && writeKeysHold)
        vault.scope = Set(credential.grants.map(\.groupID))
        vault.header = parsed.header
        vault.storedHeader = (parsed.header[0..<parsed.parametersEnd], parsed.headerMAC)
        try parsed.encodedIndex.withUnsafeBytes { try vault.verifyIndex(encoded: $0, checking: indexCheck) }
        return Snapshot(vault)
    }

    /// Adds a group's keys to the ring, keeping base keys the ring already has that `keys` lacks.
    private static func merge(_ keys: GroupKeys, id: GroupID, into ring: inout KeyRing) {
        var keys = keys
        if let existing = ring.groups[id] {
            for (classID, key) in existing.baseKeys where keys.baseKeys[classID] == nil { keys.addBaseKey(key, classID: classID) }
        }
        ring.addGroup(keys, id: id)
    }

    /// A file as parsed, with private copies of the bytes its MACs cover (`VaultFile.Decoded`).
    typealias Parsed = VaultFile.Decoded

    static func parse(_ bytes: FileBytes, path: String, checking indexCheck: IndexCheck = .everyBucket) throws -> Parsed {
        do {
            return try VaultFile.decode(bytes, indexInPlace: indexCheck == .lookupsOnly)
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
    }

    static func open(
        _ parsed: Parsed, masterKey: MasterKey, deviceKey: DeviceKey?, path: String,
        checking indexCheck: IndexCheck = .everyBucket
    ) throws -> Snapshot {
        let deviceMatches = isTheDeviceKey(deviceKey, of: parsed.file)
        let keys = KeyRing(
            vaultID: parsed.file.vaultID, masterKey: masterKey, deviceKey: deviceMatches ? deviceKey : nil,
            formatVersion: parsed.file.version)
        var vault = try openFull(parsed, keys: keys, deviceMatches: deviceMatches, path: path, checking: indexCheck)
        // The trust statement checks under the header's trust public key; that the owner's trust key is
        // that key is what ties it to the master key (a removed member could put a key of its own there).
        try vault.unwrapTrustKey()
        return Snapshot(vault)
    }

    /// Parses `bytes` and opens it with the keys of a full ring (the owner's or a full member's).
    static func open(_ bytes: FileBytes, fullKeys: KeyRing.FullKeys, deviceKey: DeviceKey?, path: String) throws -> Snapshot {
        let parsed = try parse(bytes, path: path)
        switch fullKeys {
        case .owner(let masterKey): return try open(parsed, masterKey: masterKey, deviceKey: deviceKey, path: path)
        case .member(let keys): return try open(parsed, fullMemberKeys: keys, deviceKey: deviceKey, path: path)
        }
    }

    /// Opens a v2 file with a full member's keys: every key but the master key and the trust key.
    static func open(
        _ parsed: Parsed, fullMemberKeys: FullMemberKeys, deviceKey: DeviceKey?, path: String,
        checking indexCheck: IndexCheck = .everyBucket
    ) throws -> Snapshot {
        guard parsed.file.version >= 2 else { throw VaultError.corrupted(path: path, detail: .violates(.memberSlotsInV1)) }
        let deviceMatches = isTheDeviceKey(deviceKey, of: parsed.file)
        let keys = KeyRing(vaultID: parsed.file.vaultID, fullMemberKeys: fullMemberKeys, deviceKey: deviceMatches ? deviceKey : nil)
        return Snapshot(try openFull(parsed, keys: keys, deviceMatches: deviceMatches, path: path, checking: indexCheck))
    }

    /// Opens `parsed` with a full ring: the header MAC and the trust statement checked, every class
    /// and group key and the signing key unwrapped (the signing key checked against the one the
    /// statement names), the index checked.
    private static func openFull(
        _ parsed: Parsed, keys: KeyRing, deviceMatches: Bool, path: String,
        checking indexCheck: IndexCheck
    ) throws -> WorkingCopy {
        let file = parsed.file
        try verifyHeaderMAC(parsed, keys: keys, path: path)
        var keys = keys
        do {
            try unwrapKeys(file, into: &keys)
        } catch {
            throw VaultError.corrupted(path: path, detail: .doesNotOpen(.wrappedKey))
        }
        var vault = WorkingCopy(file: file, keys: keys, path: path, deviceMatches: deviceMatches, isWritable: true)
        vault.header = parsed.header
        if file.version >= 2 {
            vault.trustAsRead = TrustFields(of: file)
            // Whoever held this epoch's keys can MAC a header; only the trust key vouches for its key epoch.
            guard TrustFields(of: file).areVouchedFor(by: file.trustSignature, vaultID: file.vaultID) else {
                throw VaultError.corrupted(path: path, detail: .violates(.trustStatementUnsigned))
            }
            // The statement is public (every commit holds it): what ties this header to it is the signing key
            // it names, sealed under this ring's wrap key. A removed member's old wrap key seals only an old one.
            try vault.unwrapSigningKey()
            try vault.checkSlotsAgainstLog()
        }
        try parsed.encodedIndex.withUnsafeBytes { try vault.verifyIndex(encoded: $0, checking: indexCheck) }
        return vault
    }

    /// Whether `deviceKey` is the one the file's device-bound items are sealed with (its device check matches).
    static func isTheDeviceKey(_ deviceKey: DeviceKey?, of file: VaultFile) -> Bool {
        deviceKey.map { constantTimeEquals($0.check(vaultID: file.vaultID), file.deviceCheck) } ?? false
    }

    /// Whether `key` is the device key the vault in `bytes` is sealed under.
    static func isDeviceKey(_ key: DeviceKey, of bytes: FileBytes) -> Bool {
        guard let file = try? VaultFile.decode(bytes).file else { return false }
        return isTheDeviceKey(key, of: file)
    }

    private static func verifyHeaderMAC(_ parsed: Parsed, keys: KeyRing, path: String) throws {
        guard let key = keys.headerMACKey, constantTimeEquals(HMAC.sha256(key: key.secret, data: parsed.header), parsed.headerMAC) else {
            throw VaultError.corrupted(path: path, detail: .headerMACMismatch)
        }
    }

    private static func openKeyslot(_ file: VaultFile, secret: UnlockSecret, path: String) throws -> MasterKey {
        let slots = file.keyslots.filter { $0.kind == secret.slotKind }
        guard !slots.isEmpty else { throw VaultError.noKeyslot(secret.kind) }
        for slot in slots {
            do {
                if case .opened(let masterKey) = try slot.open(with: secret.secret, vaultID: file.vaultID) {
                    return masterKey
                }
            } catch let error as MalformedInput {
                throw VaultError.corrupted(path: path, detail: error.damage)
            }
        }
        throw VaultError.wrongCredential(secret.kind)
    }

    private static func unwrapKeys(_ file: VaultFile, into keys: inout KeyRing) throws {
        guard let wrapKey = keys.wrapKey else { throw KeyRingError.missingClassKey(ClassID(0)) }
        for entry in file.classes {
            keys.addClassKey(
                try SealedClassKey.open(entry.wrapped, classID: entry.classID, under: wrapKey, vaultID: file.vaultID),
                classID: entry.classID)
        }
        for entry in file.groups {
            let (group, key) = try SealedGroupEntry.open(
                entry.wrappedNameAndKey, groupID: entry.groupID, under: wrapKey, vaultID: file.vaultID)
            guard keys.groupID(of: group) == nil else { throw MalformedInput(.violates(.malformedOrRepeatedGroupName)) }
            guard keys.groups[entry.groupID] == nil,
                constantTimeEquals(key.check(groupID: entry.groupID, vaultID: file.vaultID), entry.keyCheck)
            else {
                throw MalformedInput(.violates(.repeatedGroupIDOrBadKeyCheck))
            }
            keys.addGroup(keys.groupKeys(group, groupKey: key), id: entry.groupID)
        }
    }

    private static func openV1DeviceGrant(_ entry: WrappedGroupKey, key: DeviceWrapKey, vaultID: [UInt8], path: String) throws -> GroupGrant
    {
        do {
            return try SealedV1DeviceKeys.openGroupGrant(entry, under: key, vaultID: vaultID)
        } catch {
            throw VaultError.corrupted(path: path, detail: .doesNotOpen(.deviceSealedGroupEntry))
        }
    }

    /// What `identities` open of the file's member slots: the first slot one of them opens, as
    /// age tries stanzas. Throws `noMemberSlot` (51) when none opens, `corrupted` (93) for a
    /// low-order ephemeral share or a key part that opens but does not parse.
    static func openMemberSlot(_ file: VaultFile, identities: [AgeIdentity], path: String) throws -> (name: String, keys: MemberKeys) {
        do {
            for identity in identities {
                for slot in file.members {
                    if let opened = try slot.open(with: identity, vaultID: file.vaultID) { return opened }
                }
            }
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
        throw VaultError.noMemberSlot(recipients: identities.map(\.recipient.description))
    }

    /// Opens `bytes` with an identity: a full member with every key but the master and trust keys
    /// (the header MAC checked), a scoped member as a scoped credential of its groups (`open(_:credential:…)`).
    static func open(
        _ bytes: FileBytes, identities: [AgeIdentity], deviceKey: DeviceKey?, path: String,
        checking indexCheck: IndexCheck = .everyBucket
    ) throws -> Snapshot {
        let parsed = try parse(bytes, path: path, checking: indexCheck)
        let (name, memberKeys) = try openMemberSlot(parsed.file, identities: identities, path: path)
        switch memberKeys {
        case .full(let fullMemberKeys):
            return try open(parsed, fullMemberKeys: fullMemberKeys, deviceKey: deviceKey, path: path, checking: indexCheck)
        case .scoped(let readOnly, let grants):
            let credential = ScopedCredential.member(name: name, vaultID: parsed.file.vaultID, readOnly: readOnly, grants: grants)
            return try open(parsed, credential: credential, deviceKey: deviceKey, path: path, checking: indexCheck)
        }
    }
}
