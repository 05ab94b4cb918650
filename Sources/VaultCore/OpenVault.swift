import FoundationEssentials
import VaultCrypto

/// A vault file opened in memory with the keys a caller holds: its parsed
/// layout and the item operations that read or change it. `Vault` wraps these
/// in reads and locked read-modify-write transactions.
struct OpenVault {
    var file: VaultFile
    let keys: KeyRing
    let path: String
    /// Whether this machine's device key is the one the vault's device-bound items are sealed with.
    let deviceMatches: Bool
    /// Whether the keys may change the vault: a full ring, or a read-write scoped credential.
    let isWritable: Bool
    /// The groups a scoped credential limits the ring to; nil when not limited.
    var scope: Set<UInt32>? = nil
    /// The header as read and its MAC: a ring without the header MAC key
    /// (a scoped credential) may write the file only with this header unchanged.
    var storedHeader: (parameters: ArraySlice<UInt8>, mac: [UInt8])? = nil

    /// Classes whose base keys the device key alone opens.
    static let deviceClasses = Accessibility.allCases.filter(\.opensWithoutUnlock)

    // MARK: creating and opening

    /// A new, empty vault with one keyslot, every class key and the default group.
    static func create(vaultID: [UInt8], slotKind: Keyslot.Kind, secret: SecretBytes, kdf: Scrypt.Parameters,
                       deviceKey: SecretBytes, path: String) throws -> OpenVault {
        let masterKey = SecretBytes(random: AESGCM.keySize)
        let keys = KeyRing(vaultID: vaultID, masterKey: masterKey, deviceKey: deviceKey)
        let slot = try Keyslot.make(kind: slotKind, secret: secret, kdf: kdf, masterKey: masterKey, vaultID: vaultID)
        var classes: [WrappedClassKey] = []
        for accessibility in Accessibility.allCases {
            let classKey = SecretBytes(random: AESGCM.keySize)
            keys.addClassKey(classKey, classID: accessibility.fileID)
            classes.append(WrappedClassKey(classID: accessibility.fileID, wrapped: try wrapClassKey(classKey, accessibility.fileID, keys)))
        }
        let wrappedHeaderMACKey = try AESGCM.seal(keys.headerMACKey!, key: keys.deviceWrapKey(), aad: AAD.deviceHeader(vaultID: vaultID))
        let file = VaultFile(vaultID: vaultID, deviceCheck: KeyRing.deviceCheck(deviceKey: deviceKey, vaultID: vaultID),
                             deviceWrappedHeaderMACKey: wrappedHeaderMACKey, keyslots: [slot], classes: classes,
                             groups: [], index: [], indexMACs: [], records: [])
        var vault = OpenVault(file: file, keys: keys, path: path, deviceMatches: true, isWritable: true)
        _ = try vault.groupID(for: .default, creating: true)
        return vault
    }

    /// Parses `bytes` and opens a keyslot with the credential: a full ring.
    static func unlock(_ bytes: [UInt8], credential: Credential, deviceKey: SecretBytes?, path: String) throws -> OpenVault {
        let parsed = try parse(bytes, path: path)
        let masterKey = try openKeyslot(parsed.file, credential: credential, path: path)
        return try open(parsed, masterKey: masterKey, deviceKey: deviceKey, path: path)
    }

    /// Parses `bytes` and opens it with a master key (from a keyslot or a session).
    static func open(_ bytes: [UInt8], masterKey: SecretBytes, deviceKey: SecretBytes?, path: String) throws -> OpenVault {
        try open(try parse(bytes, path: path), masterKey: masterKey, deviceKey: deviceKey, path: path)
    }

    /// Opens `bytes` without the master key: with what this device's key opens
    /// (the `always` classes) and the grants given (the after-first-unlock cache).
    /// Only the header MAC key given, or sealed under the device key, can check
    /// the header; without one the open fails.
    static func openPartial(_ bytes: [UInt8], deviceKey: SecretBytes?, headerMACKey: SecretBytes?, grants: [GroupGrant],
                            path: String) throws -> OpenVault {
        let parsed = try parse(bytes, path: path)
        let (keys, deviceMatches) = try partialRing(parsed, deviceKey: deviceKey, headerMACKey: headerMACKey,
                                                    scope: nil, requireHeaderMAC: true, path: path)
        for grant in grants {
            guard let slot = parsed.file.groups.firstIndex(where: { $0.groupID == grant.groupID }) else { continue }
            let previous = keys.groups[grant.groupID]
            merge(grant.groupKeys, id: grant.groupID, into: keys)
            // A cache from before a revoke or a group's deletion holds keys that are not this group's any more: leave them out.
            let mac = try parsed.withEncodedIndex { try keys.indexMAC(groupID: grant.groupID, entries: parsed.file.index, encoded: $0) }
            if !constantTimeEquals(mac, parsed.file.indexMACs[slot]) {
                if let previous { keys.addGroup(previous, id: grant.groupID) } else { keys.removeGroup(id: grant.groupID) }
            }
        }
        let vault = OpenVault(file: parsed.file, keys: keys, path: path, deviceMatches: deviceMatches, isWritable: false)
        try parsed.withEncodedIndex { try vault.verifyIndex(encoded: $0) }
        return vault
    }

    /// Opens `bytes` with a scoped credential: the ring holds its groups and nothing else.
    /// A credential holds no header MAC key: the header checksum, its groups'
    /// index MACs (read-write only) and each record's own seal protect what it reads.
    static func open(_ bytes: [UInt8], credential: ScopedCredential, deviceKey: SecretBytes?, path: String) throws -> OpenVault {
        let parsed = try parse(bytes, path: path)
        let file = parsed.file
        guard constantTimeEquals(credential.vaultID, file.vaultID) else { throw VaultError.credentialForAnotherVault }
        let scope = Set(credential.grants.map(\.groupID))
        let (keys, deviceMatches) = try partialRing(parsed, deviceKey: deviceKey, headerMACKey: nil,
                                                    scope: scope, requireHeaderMAC: false, path: path)
        for grant in credential.grants {
            guard let entry = file.groups.first(where: { $0.groupID == grant.groupID }),
                  constantTimeEquals(entry.keyCheck, grant.keyCheck) else {
                throw VaultError.credentialRevoked(grant.group)
            }
            merge(grant.groupKeys, id: grant.groupID, into: keys)
        }
        var vault = OpenVault(file: file, keys: keys, path: path, deviceMatches: deviceMatches, isWritable: !credential.readOnly)
        vault.scope = scope
        vault.storedHeader = (parsed.bytes[0..<parsed.parametersEnd], parsed.headerMAC)
        try parsed.withEncodedIndex { try vault.verifyIndex(encoded: $0) }
        return vault
    }

    /// A ring without the master key: the header MAC key given or sealed under
    /// the device key, and what the device key opens of the groups in `scope` (all when nil).
    private static func partialRing(_ parsed: Parsed, deviceKey: SecretBytes?, headerMACKey: SecretBytes?, scope: Set<UInt32>?,
                                    requireHeaderMAC: Bool, path: String) throws -> (KeyRing, deviceMatches: Bool) {
        let file = parsed.file
        let deviceMatches = isTheDeviceKey(deviceKey, of: file)
        var headerKey = headerMACKey
        if headerKey == nil, deviceMatches, let deviceKey, !file.deviceWrappedHeaderMACKey.isEmpty {
            headerKey = try? AESGCM.open(file.deviceWrappedHeaderMACKey, key: KeyRing.deviceWrapKey(deviceKey, vaultID: file.vaultID),
                                        aad: AAD.deviceHeader(vaultID: file.vaultID))
        }
        if headerKey == nil, requireHeaderMAC { throw VaultError.locked(nil) }
        let keys = KeyRing(vaultID: file.vaultID, headerMACKey: headerKey, deviceKey: deviceMatches ? deviceKey : nil)
        if headerKey != nil { try verifyHeaderMAC(parsed, keys: keys, path: path) }
        if deviceMatches, let deviceKey {
            let wrapKey = KeyRing.deviceWrapKey(deviceKey, vaultID: file.vaultID)
            for entry in file.groups where !entry.deviceWrapped.isEmpty && (scope?.contains(entry.groupID) ?? true) {
                keys.addGroup(try openDeviceGrant(entry, key: wrapKey, vaultID: file.vaultID, path: path).groupKeys, id: entry.groupID)
            }
        }
        return (keys, deviceMatches)
    }

    /// Adds a group's keys to the ring, keeping base keys the ring already has that `keys` lacks.
    private static func merge(_ keys: GroupKeys, id: UInt32, into ring: KeyRing) {
        if let existing = ring.groups[id] {
            for (classID, key) in existing.baseKeys where keys.baseKeys[classID] == nil { keys.addBaseKey(key, classID: classID) }
        }
        ring.addGroup(keys, id: id)
    }

    /// A file as parsed, with the bytes it was parsed from.
    private struct Parsed {
        let file: VaultFile
        let headerMAC: [UInt8]
        let parametersEnd: Int
        let bytes: [UInt8]

        /// Calls `body` with the index as the file holds it (after parameters, checksum, header MAC and record count).
        func withEncodedIndex<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            let start = parametersEnd + 2 * VaultFile.digestSize + 4
            return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start ..< start + file.index.count * IndexEntry.size])) }
        }
    }

    private static func parse(_ bytes: [UInt8], path: String) throws -> Parsed {
        do {
            let decoded = try VaultFile.decode(bytes)
            return Parsed(file: decoded.file, headerMAC: decoded.headerMAC, parametersEnd: decoded.parametersEnd, bytes: bytes)
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.detail)
        }
    }

    private static func open(_ parsed: Parsed, masterKey: SecretBytes, deviceKey: SecretBytes?, path: String) throws -> OpenVault {
        let file = parsed.file
        let deviceMatches = isTheDeviceKey(deviceKey, of: file)
        let keys = KeyRing(vaultID: file.vaultID, masterKey: masterKey, deviceKey: deviceMatches ? deviceKey : nil)
        try verifyHeaderMAC(parsed, keys: keys, path: path)
        do {
            try unwrapKeys(file, into: keys)
        } catch {
            throw VaultError.corrupted(path: path, detail: "a wrapped key does not open")
        }
        let vault = OpenVault(file: file, keys: keys, path: path, deviceMatches: deviceMatches, isWritable: true)
        try parsed.withEncodedIndex { try vault.verifyIndex(encoded: $0) }
        return vault
    }

    /// Whether `deviceKey` is the one the file's device-bound items are sealed with (its device check matches).
    static func isTheDeviceKey(_ deviceKey: SecretBytes?, of file: VaultFile) -> Bool {
        deviceKey.map { constantTimeEquals(KeyRing.deviceCheck(deviceKey: $0, vaultID: file.vaultID), file.deviceCheck) } ?? false
    }

    private static func verifyHeaderMAC(_ parsed: Parsed, keys: KeyRing, path: String) throws {
        let covered = parsed.bytes.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[0..<parsed.parametersEnd + VaultFile.digestSize]) }
        guard let key = keys.headerMACKey, constantTimeEquals(HMAC.sha256(key: key, data: covered), parsed.headerMAC) else {
            throw VaultError.corrupted(path: path, detail: "the header MAC does not match")
        }
    }

    private static func openKeyslot(_ file: VaultFile, credential: Credential, path: String) throws -> SecretBytes {
        let slots = file.keyslots.filter { $0.kind == credential.slotKind }
        guard !slots.isEmpty else { throw VaultError.noKeyslot(credential.kind) }
        for slot in slots {
            do {
                if case .opened(let masterKey) = try slot.open(with: credential.secret, vaultID: file.vaultID) {
                    return masterKey
                }
            } catch let error as MalformedInput {
                throw VaultError.corrupted(path: path, detail: error.detail)
            }
        }
        throw VaultError.wrongCredential(credential.kind)
    }

    private static func unwrapKeys(_ file: VaultFile, into keys: KeyRing) throws {
        guard let wrapKey = keys.wrapKey else { throw KeyRingError.missingClassKey(0) }
        for entry in file.classes {
            keys.addClassKey(try AESGCM.open(entry.wrapped, key: wrapKey, aad: AAD.classKey(vaultID: file.vaultID, classID: entry.classID)), classID: entry.classID)
        }
        for entry in file.groups {
            let plaintext = try AESGCM.open(entry.wrappedNameAndKey, key: wrapKey, aad: AAD.group(vaultID: file.vaultID, groupID: entry.groupID))
            let (group, key) = try plaintext.withUnsafeBytes { bytes -> (AccessGroup, SecretBytes) in
                guard bytes.count > AESGCM.keySize else { throw MalformedInput(detail: "a group entry too short") }
                let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - AESGCM.keySize])
                guard let name = String(validating: nameBytes, as: UTF8.self), let group = AccessGroup(name),
                      keys.groupID(of: group) == nil else {
                    throw MalformedInput(detail: "a malformed or repeated group name")
                }
                return (group, SecretBytes(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - AESGCM.keySize)...])))
            }
            guard keys.groups[entry.groupID] == nil, constantTimeEquals(keys.groupKeyCheck(key, groupID: entry.groupID), entry.keyCheck) else {
                throw MalformedInput(detail: "a repeated group id or a group key that fails its check")
            }
            keys.addGroup(keys.groupKeys(group, groupKey: key), id: entry.groupID)
        }
    }

    private static func openDeviceGrant(_ entry: WrappedGroupKey, key: SecretBytes, vaultID: [UInt8], path: String) throws -> GroupGrant {
        do {
            let plaintext = try AESGCM.open(entry.deviceWrapped, key: key, aad: AAD.group(vaultID: vaultID, groupID: entry.groupID, device: true))
            var reader = ByteReader(plaintext.copyBytes())
            let grant = try GroupGrant.decode(from: &reader)
            guard grant.groupID == entry.groupID, reader.isAtEnd else { throw MalformedInput(detail: "a device grant of another group") }
            return grant
        } catch {
            throw VaultError.corrupted(path: path, detail: "a device-sealed group entry does not open")
        }
    }

    /// Every index entry names a group and class of the header, and the index
    /// MAC of every group this ring holds matches, over `encoded`, the index as the file holds it.
    private func verifyIndex(encoded: UnsafeRawBufferPointer) throws {
        let groupIDs = Set(file.groups.map(\.groupID))
        // Neighbouring entries mostly share group and class: check each pair once per run.
        var checked: (groupID: UInt32, classID: UInt8)?
        for entry in file.index where checked?.groupID != entry.groupID || checked?.classID != entry.classID {
            guard groupIDs.contains(entry.groupID), Accessibility(fileID: entry.classID) != nil else {
                throw VaultError.corrupted(path: path, detail: "an index entry names an unknown group or class")
            }
            checked = (entry.groupID, entry.classID)
        }
        for (group, mac) in zip(file.groups, file.indexMACs) where keys.groups[group.groupID]?.indexMACKey != nil {
            guard constantTimeEquals(try keys.indexMAC(groupID: group.groupID, entries: file.index, encoded: encoded), mac) else {
                throw VaultError.corrupted(path: path, detail: "the index MAC of a group does not match")
            }
        }
    }

    /// The whole file with fresh index MACs and header MAC: needs the header MAC
    /// key, or (a scoped credential) an unchanged header, whose stored MAC is kept.
    func encode() throws -> [UInt8] {
        guard isWritable else { throw VaultError.locked(nil) }
        var file = self.file
        let encodedIndex = IndexEntry.encode(file.index)
        // Groups the ring does not hold keep their MAC: their entries cannot have changed.
        file.indexMACs = try encodedIndex.withUnsafeBytes { encoded in
            try zip(file.groups, file.indexMACs).map { group, stored in
                keys.groups[group.groupID]?.indexMACKey == nil
                    ? stored : try keys.indexMAC(groupID: group.groupID, entries: file.index, encoded: encoded)
            }
        }
        let parameters = file.encodeHeaderParameters()
        let checksum = SHA256.hash(parameters)
        let headerMAC: [UInt8]
        if let headerMACKey = keys.headerMACKey {
            headerMAC = HMAC.sha256(key: headerMACKey, data: parameters + checksum)
        } else if let storedHeader, storedHeader.parameters.elementsEqual(parameters) {
            headerMAC = storedHeader.mac
        } else {
            throw VaultError.locked(nil)
        }
        return file.encode(parameters: parameters, checksum: checksum, headerMAC: headerMAC, encodedIndex: encodedIndex)
    }

    /// A class key sealed under the key-wrap key (needs the master key).
    static func wrapClassKey(_ classKey: SecretBytes, _ classID: UInt8, _ keys: KeyRing) throws -> [UInt8] {
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        return try AESGCM.seal(classKey, key: wrapKey, aad: AAD.classKey(vaultID: keys.vaultID, classID: classID))
    }
}
