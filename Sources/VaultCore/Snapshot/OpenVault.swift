import FoundationEssentials
import VaultCrypto

/// A vault file opened in memory with the keys a caller holds: its parsed
/// layout and the item operations that read or change it. `Vault` wraps these
/// in reads and locked read-modify-write transactions.
struct OpenVault {
    var file: VaultFile
    /// The keys this snapshot holds: its own (a copy of the snapshot holds a copy of them).
    var keys: KeyRing
    let path: String
    /// Whether this machine's device key is the one the vault's device-bound items are sealed with.
    let deviceMatches: Bool
    /// Whether the keys may change the vault: a full ring, or a scoped credential holding its groups' write keys.
    let isWritable: Bool
    /// The groups a scoped credential limits the ring to; nil when not limited.
    var scope: Set<GroupID>? = nil
    /// The header as read and its MAC: a ring without the header MAC key
    /// (a scoped credential) may write the file only with this header unchanged.
    var storedHeader: (parameters: ArraySlice<UInt8>, mac: [UInt8])? = nil
    /// The key epoch's signing key (an Ed25519 private key), held with the wrap key: the owner and
    /// full members sign every header they write with it (docs/TEAMS.md, "Trust").
    var signingKey: SecretBytes? = nil
    /// The vault's trust key (an Ed25519 private key), held with the master key alone: it signs
    /// the trust statement that vouches for each key epoch's signing key.
    var trustKey: SecretBytes? = nil
    /// What the header as read vouched for: while a write keeps it, the trust statement read is
    /// kept (a full member's write must). Nil for a vault made or re-keyed in memory.
    var trustAsRead: TrustFields? = nil
    /// The header parameters and checksum as read: what the header signature is checked over.
    var header: [UInt8] = []
    /// Groups whose section failed its MAC: left out of the ring, so they take down only themselves.
    var damagedGroups: [DamagedGroup] = []
    /// The groups whose index MAC (a write key's) this ring checked; their generations can be trusted.
    var groupsVerifiedByWriteKey: Set<GroupID> = []
    /// Which index buckets were checked against their digests: every one on opening, unless the
    /// file was opened for lookups only (`IndexCheck`).
    var bucketChecks = BucketChecks(everyBucket: true)
    /// What changed since the file was read, sealed into the file by the next write (`encode()`).
    var pending = PendingChanges()
    /// The members, once the owner or a full member has folded the team log (`members()`).
    var roster: [Member]? = nil
    /// One cipher context for every record this snapshot opens.
    let recordOpener = AESGCM.Opener()
    /// The record opened last, so a `get` that finds its item by the record's attributes and then
    /// reads its secret decrypts it once.
    let lastOpened = LastOpenedRecord()

    /// A group whose index failed its MAC.
    struct DamagedGroup: Equatable {
        let groupID: GroupID
        let group: AccessGroup
    }

    /// Classes whose base keys the device key alone opens.
    static let deviceClasses = Accessibility.allCases.filter(\.opensWithoutUnlock)

    // MARK: opening

    /// Parses `bytes` and opens a keyslot with the unlock secret: a full ring.
    static func unlock(_ bytes: FileBytes, secret: UnlockSecret, deviceKey: SecretBytes?, path: String,
                       checking indexCheck: IndexCheck = .everyBucket) throws -> OpenVault {
        let parsed = try parse(bytes, path: path, checking: indexCheck)
        let masterKey = try openKeyslot(parsed.file, secret: secret, path: path)
        return try open(parsed, masterKey: masterKey, deviceKey: deviceKey, path: path, checking: indexCheck)
    }

    /// Parses `bytes` and opens it with a master key (from a keyslot or a session).
    static func open(_ bytes: FileBytes, masterKey: MasterKey, deviceKey: SecretBytes?, path: String,
                     checking indexCheck: IndexCheck = .everyBucket) throws -> OpenVault {
        try open(try parse(bytes, path: path, checking: indexCheck), masterKey: masterKey, deviceKey: deviceKey, path: path, checking: indexCheck)
    }

    /// Opens `bytes` without the master key: with this device's grants (the
    /// `always` classes) and the after-first-unlock cache's. A v2 file is
    /// checked by each group's read MAC, which these grants can check but not
    /// the owner's MACs; a v1 file by its header MAC key sealed under the device key.
    static func openPartial(_ bytes: FileBytes, deviceKey: SecretBytes?, grants: [GroupGrant], path: String,
                            checking indexCheck: IndexCheck = .everyBucket) throws -> OpenVault {
        let parsed = try parse(bytes, path: path, checking: indexCheck)
        let file = parsed.file
        let deviceMatches = isTheDeviceKey(deviceKey, of: file)
        var headerKey: HeaderMACKey?
        if file.version == 1, deviceMatches, let deviceKey, !file.deviceWrappedHeaderMACKey.isEmpty {
            headerKey = try? HeaderMACKey(AESGCM.open(file.deviceWrappedHeaderMACKey, key: KeyRing.deviceWrapKey(deviceKey, vaultID: file.vaultID),
                                                      aad: AAD.deviceHeader(vaultID: file.vaultID)))
        }
        if file.version == 1, headerKey == nil { throw VaultError.locked(nil) }
        var keys = KeyRing(vaultID: file.vaultID, headerMACKey: headerKey, deviceKey: deviceMatches ? deviceKey : nil,
                           formatVersion: file.version)
        if headerKey != nil { try verifyHeaderMAC(parsed, keys: keys, path: path) }
        var given = grants
        if file.version == 1, deviceMatches, let deviceKey {
            let wrapKey = KeyRing.deviceWrapKey(deviceKey, vaultID: file.vaultID)
            given += try file.groups.filter { !$0.deviceWrapped.isEmpty }.map { try openV1DeviceGrant($0, key: wrapKey, vaultID: file.vaultID, path: path) }
        }
        // Grants from before a re-key, or of a deleted group, hold keys that are not the group's any more: left out.
        for grant in given {
            guard let entry = file.groups.first(where: { $0.groupID == grant.groupID }),
                  constantTimeEquals(entry.keyCheck, grant.keyCheck) else { continue }
            merge(grant.groupKeys, id: grant.groupID, into: &keys)
        }
        var vault = OpenVault(file: file, keys: keys, path: path, deviceMatches: deviceMatches, isWritable: false)
        vault.header = parsed.header
        try parsed.encodedIndex.withUnsafeBytes { try vault.verifyIndex(encoded: $0, checking: indexCheck) }
        return vault
    }

    /// Opens `bytes` with a scoped credential: the ring holds its groups and nothing else.
    /// A credential holds no header MAC key: the header checksum, its groups'
    /// MACs and each record's digest and seal protect what it reads.
    static func open(_ bytes: FileBytes, credential: ScopedCredential, deviceKey: SecretBytes?, path: String,
                     checking indexCheck: IndexCheck = .everyBucket) throws -> OpenVault {
        try open(try parse(bytes, path: path, checking: indexCheck), credential: credential, deviceKey: deviceKey, path: path, checking: indexCheck)
    }

    /// `open(_:credential:deviceKey:path:checking:)` of a file parsed already.
    static func open(_ parsed: Parsed, credential: ScopedCredential, deviceKey: SecretBytes?, path: String,
                     checking indexCheck: IndexCheck = .everyBucket) throws -> OpenVault {
        let file = parsed.file
        guard constantTimeEquals(credential.vaultID, file.vaultID) else { throw VaultError.credentialForAnotherVault }
        let deviceMatches = isTheDeviceKey(deviceKey, of: file)
        var keys = KeyRing(vaultID: file.vaultID, headerMACKey: nil, deviceKey: deviceMatches ? deviceKey : nil,
                           formatVersion: file.version)
        // Index MAC keys are the format version's: those of a credential granted before a conversion are v1's.
        let writeKeysHold = UInt16(credential.payloadVersion) == VaultFile.keySchedule(of: file.version)
        for var grant in credential.grants {
            guard let entry = file.groups.first(where: { $0.groupID == grant.groupID }),
                  constantTimeEquals(entry.keyCheck, grant.keyCheck) else {
                throw VaultError.credentialRevoked(grant.group)
            }
            if !writeKeysHold { grant.indexMACKey = nil }
            merge(grant.groupKeys, id: grant.groupID, into: &keys)
        }
        var vault = OpenVault(file: file, keys: keys, path: path, deviceMatches: deviceMatches,
                              isWritable: credential.canWrite && writeKeysHold)
        vault.scope = Set(credential.grants.map(\.groupID))
        vault.header = parsed.header
        vault.storedHeader = (parsed.header[0..<parsed.parametersEnd], parsed.headerMAC)
        try parsed.encodedIndex.withUnsafeBytes { try vault.verifyIndex(encoded: $0, checking: indexCheck) }
        return vault
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

    static func open(_ parsed: Parsed, masterKey: MasterKey, deviceKey: SecretBytes?, path: String,
                     checking indexCheck: IndexCheck = .everyBucket) throws -> OpenVault {
        let deviceMatches = isTheDeviceKey(deviceKey, of: parsed.file)
        let keys = KeyRing(vaultID: parsed.file.vaultID, masterKey: masterKey, deviceKey: deviceMatches ? deviceKey : nil,
                           formatVersion: parsed.file.version)
        var vault = try openFull(parsed, keys: keys, deviceMatches: deviceMatches, path: path, checking: indexCheck)
        // The trust statement checks under the header's trust public key; that the owner's trust key is
        // that key is what ties it to the master key (a removed member could put a key of its own there).
        try vault.unwrapTrustKey()
        return vault
    }

    /// Parses `bytes` and opens it with the keys of a full ring (the owner's or a full member's).
    static func open(_ bytes: FileBytes, fullKeys: KeyRing.FullKeys, deviceKey: SecretBytes?, path: String) throws -> OpenVault {
        let parsed = try parse(bytes, path: path)
        switch fullKeys {
        case .owner(let masterKey): return try open(parsed, masterKey: masterKey, deviceKey: deviceKey, path: path)
        case .member(let keys): return try open(parsed, fullMemberKeys: keys, deviceKey: deviceKey, path: path)
        }
    }

    /// Opens a v2 file with a full member's keys: every key but the master key and the trust key.
    static func open(_ parsed: Parsed, fullMemberKeys: FullMemberKeys, deviceKey: SecretBytes?, path: String,
                     checking indexCheck: IndexCheck = .everyBucket) throws -> OpenVault {
        guard parsed.file.version >= 2 else { throw VaultError.corrupted(path: path, detail: .violates(.memberSlotsInV1)) }
        let deviceMatches = isTheDeviceKey(deviceKey, of: parsed.file)
        let keys = KeyRing(vaultID: parsed.file.vaultID, fullMemberKeys: fullMemberKeys, deviceKey: deviceMatches ? deviceKey : nil)
        return try openFull(parsed, keys: keys, deviceMatches: deviceMatches, path: path, checking: indexCheck)
    }

    /// Opens `parsed` with a full ring: the header MAC and the trust statement checked, every class
    /// and group key and the signing key unwrapped (the signing key checked against the one the
    /// statement names), the index checked.
    private static func openFull(_ parsed: Parsed, keys: KeyRing, deviceMatches: Bool, path: String,
                                 checking indexCheck: IndexCheck) throws -> OpenVault {
        let file = parsed.file
        try verifyHeaderMAC(parsed, keys: keys, path: path)
        var keys = keys
        do {
            try unwrapKeys(file, into: &keys)
        } catch {
            throw VaultError.corrupted(path: path, detail: .doesNotOpen(.wrappedKey))
        }
        var vault = OpenVault(file: file, keys: keys, path: path, deviceMatches: deviceMatches, isWritable: true)
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
    static func isTheDeviceKey(_ deviceKey: SecretBytes?, of file: VaultFile) -> Bool {
        deviceKey.map { constantTimeEquals(KeyRing.deviceCheck(deviceKey: $0, vaultID: file.vaultID), file.deviceCheck) } ?? false
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
            let classKey = try AESGCM.open(entry.wrapped, key: wrapKey.secret, aad: AAD.classKey(vaultID: file.vaultID, classID: entry.classID))
            keys.addClassKey(ClassKey(classKey), classID: entry.classID)
        }
        for entry in file.groups {
            let plaintext = try AESGCM.open(entry.wrappedNameAndKey, key: wrapKey.secret, aad: AAD.group(vaultID: file.vaultID, groupID: entry.groupID))
            let (group, key) = try plaintext.withUnsafeBytes { bytes -> (AccessGroup, GroupKey) in
                guard bytes.count > AESGCM.keySize else { throw MalformedInput(.violates(.groupEntryTooShort)) }
                let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - AESGCM.keySize])
                guard let name = String(validating: nameBytes, as: UTF8.self), let group = AccessGroup(name),
                      keys.groupID(of: group) == nil else {
                    throw MalformedInput(.violates(.malformedOrRepeatedGroupName))
                }
                return (group, GroupKey(SecretBytes(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - AESGCM.keySize)...]))))
            }
            guard keys.groups[entry.groupID] == nil, constantTimeEquals(key.check(groupID: entry.groupID, vaultID: file.vaultID), entry.keyCheck) else {
                throw MalformedInput(.violates(.repeatedGroupIDOrBadKeyCheck))
            }
            keys.addGroup(keys.groupKeys(group, groupKey: key), id: entry.groupID)
        }
    }

    private static func openV1DeviceGrant(_ entry: WrappedGroupKey, key: SecretBytes, vaultID: [UInt8], path: String) throws -> GroupGrant {
        do {
            let plaintext = try AESGCM.open(entry.deviceWrapped, key: key, aad: AAD.group(vaultID: vaultID, groupID: entry.groupID, device: true))
            var reader = ByteReader(plaintext.copyBytes())
            let grant = try GroupGrant.decodeV1DeviceGrant(from: &reader, keyCheck: entry.keyCheck)
            guard grant.groupID == entry.groupID, reader.isAtEnd else { throw MalformedInput(.violates(.deviceGrantOfAnotherGroup)) }
            return grant
        } catch {
            throw VaultError.corrupted(path: path, detail: .doesNotOpen(.deviceSealedGroupEntry))
        }
    }

}
