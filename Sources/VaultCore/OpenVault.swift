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
        let deviceMatches = matches(deviceKey, file)
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
        let deviceMatches = matches(deviceKey, file)
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

    private static func matches(_ deviceKey: SecretBytes?, _ file: VaultFile) -> Bool {
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

    // MARK: reading

    /// Positions (in index order) of the records that match the query, among
    /// the groups this ring holds. A record the ring cannot open throws
    /// `locked` — or is left out when `skipLocked` is set.
    func positions(matching query: Query, skipLocked: Bool = false) throws -> [Int] {
        try matches(query, skipLocked: skipLocked).positions
    }

    /// The attributes of the records that match the query, in index order; see `positions(matching:skipLocked:)`.
    /// Each record is opened once, and its secret is not copied out.
    func attributes(matching query: Query, skipLocked: Bool = false) throws -> [ItemAttributes] {
        try matches(query, skipLocked: skipLocked).attributes
    }

    /// The records that match the query, with the attributes read to match them (side by side: a
    /// listing returns the attributes array as it is, without a copy of 100 000 items).
    func matches(_ query: Query, skipLocked: Bool) throws -> (positions: [Int], attributes: [ItemAttributes]) {
        let groupIDs: [UInt32]
        if let group = query.group {
            guard let id = keys.groupID(of: group) else { return ([], []) }
            groupIDs = [id]
        } else {
            groupIDs = file.groups.map(\.groupID).filter { keys.groups[$0] != nil }
        }
        var matches: (positions: [Int], attributes: [ItemAttributes]) = ([], [])
        func consider(_ position: Int, check: (ItemAttributes) throws -> Void = { _ in }) throws {
            do {
                let attributes = try openAttributes(at: position)
                try check(attributes)
                if query.matches(attributes) {
                    matches.positions.append(position)
                    matches.attributes.append(attributes)
                }
            } catch VaultError.locked where skipLocked {
            } catch VaultError.boundToAnotherDevice where skipLocked {
            }
        }
        if let service = query.service, let account = query.account {
            for groupID in groupIDs {
                let tag = Bytes16(try keys.lookupTag(groupID: groupID, service: service, account: account))
                for (position, entry) in file.index.enumerated() where entry.groupID == groupID && entry.tag == tag {
                    try consider(position) { attributes in
                        guard attributes.service == service, attributes.account == account else {
                            throw VaultError.corrupted(path: path, detail: "a lookup tag does not match its record")
                        }
                    }
                }
            }
            return matches
        }
        let wanted = Set(groupIDs)
        for (position, entry) in file.index.enumerated() where wanted.contains(entry.groupID) {
            if let accessibility = query.accessibility, accessibility.fileID != entry.classID { continue }
            try consider(position)
        }
        return matches
    }

    /// How many records of the groups in scope this ring cannot open (locked or bound to another device).
    /// Decides by keys, not by decrypting: the base key of (group, class) answers for all its records.
    func lockedCount(in group: AccessGroup?) -> Int {
        let groupID = group.flatMap { keys.groupID(of: $0) }
        return file.index.filter { entry in
            if group != nil, entry.groupID != groupID { return false }
            if let scope, !scope.contains(entry.groupID) { return false }
            guard keys.groups[entry.groupID] != nil else { return group == nil }
            guard let accessibility = Accessibility(fileID: entry.classID) else { return false }
            guard (try? keys.baseKey(groupID: entry.groupID, classID: entry.classID)) != nil else { return true }
            return accessibility.isDeviceBound && keys.deviceKey == nil
        }.count
    }

    /// Decrypts the record at `position`.
    func openRecord(at position: Int) throws -> Item {
        try openRecord(at: position, decode: RecordCodec.decodePlaintext)
    }

    /// Decrypts the record at `position` and reads its attributes, leaving the secret where it is.
    func openAttributes(at position: Int) throws -> ItemAttributes {
        try openRecord(at: position, decode: RecordCodec.decodeAttributes)
    }

    private func openRecord<Decoded>(at position: Int,
                                     decode: (SecretBytes, AccessGroup, Accessibility) throws -> Decoded) throws -> Decoded {
        let (plaintext, group, accessibility) = try openPlaintext(at: position)
        do {
            return try decode(plaintext, group, accessibility)
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.detail)
        }
    }

    private func openPlaintext(at position: Int) throws -> (SecretBytes, AccessGroup, Accessibility) {
        let entry = file.index[position]
        guard let accessibility = Accessibility(fileID: entry.classID) else {
            throw VaultError.corrupted(path: path, detail: "an index entry names an unknown class")
        }
        guard let group = keys.groups[entry.groupID]?.group else { throw VaultError.locked(accessibility) }
        let key: SecretBytes
        do {
            key = try keys.recordKey(groupID: entry.groupID, accessibility: accessibility, recordID: entry.id)
        } catch KeyRingError.missingDeviceKey {
            throw VaultError.boundToAnotherDevice(group: group, accessibility: accessibility)
        } catch {
            throw VaultError.locked(accessibility)
        }
        let aad = AAD.record(vaultID: file.vaultID, recordID: entry.recordID, groupID: entry.groupID, classID: entry.classID)
        do {
            return (try AESGCM.open(file.records[position], key: key, aad: aad), group, accessibility)
        } catch {
            throw VaultError.corrupted(path: path, detail: "a record does not open")
        }
    }

    // MARK: changing

    /// The id of `group`, creating the group (and its key) when `creating` is set.
    mutating func groupID(for group: AccessGroup, creating: Bool) throws -> UInt32? {
        if let id = keys.groupID(of: group) { return id }
        guard creating else { return nil }
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        // A random id, never one a deleted group had a moment ago (whose old keys may still sit in a cache).
        let used = Set(file.groups.map(\.groupID))
        var id = UInt32.random(in: 1...UInt32.max)
        while used.contains(id) { id = UInt32.random(in: 1...UInt32.max) }
        file.groups.append(WrappedGroupKey(groupID: id, keyCheck: [], wrappedNameAndKey: [], deviceWrapped: []))
        file.indexMACs.append([])
        try setGroupKey(SecretBytes(random: AESGCM.keySize), of: group, at: file.groups.count - 1, wrapKey: wrapKey)
        return id
    }

    /// Makes `groupKey` the key of the group at `slot` of the header: its key check, wrapped entry and device grant.
    private mutating func setGroupKey(_ groupKey: SecretBytes, of group: AccessGroup, at slot: Int, wrapKey: SecretBytes) throws {
        let id = file.groups[slot].groupID
        keys.addGroup(keys.groupKeys(group, groupKey: groupKey), id: id)
        file.groups[slot].keyCheck = keys.groupKeyCheck(groupKey, groupID: id)
        file.groups[slot].wrappedNameAndKey = try AESGCM.seal(SecretBytes(Array(group.name.utf8)).appending(groupKey), key: wrapKey,
                                                              aad: AAD.group(vaultID: file.vaultID, groupID: id))
        file.groups[slot].deviceWrapped = try deviceGrant(for: id)
    }

    /// Gives a group a fresh key and re-seals its items under it, so every key
    /// handed out for it before (scoped credentials, copies of caches) opens
    /// nothing of it from then on. Returns how many items were re-sealed.
    mutating func rotateGroupKey(_ groupID: UInt32, progress: ProgressHandler? = nil) throws -> Int {
        guard let wrapKey = keys.wrapKey, let group = keys.groups[groupID]?.group,
              let slot = file.groups.firstIndex(where: { $0.groupID == groupID }) else { throw VaultError.locked(nil) }
        let positions = file.index.indices.filter { file.index[$0].groupID == groupID }
        let items = try positions.map { try openRecord(at: $0) }
        try setGroupKey(SecretBytes(random: AESGCM.keySize), of: group, at: slot, wrapKey: wrapKey)
        for (done, (position, item)) in zip(positions, items).enumerated() {
            progress?(done + 1, items.count)
            try store(item.attributes, secret: item.secret, replacing: position)
        }
        return items.count
    }

    /// Removes a group, its key and its items; returns how many items went with it.
    mutating func removeGroup(_ groupID: UInt32) throws -> Int {
        guard keys.masterKey != nil, let slot = file.groups.firstIndex(where: { $0.groupID == groupID }) else {
            throw VaultError.locked(nil)
        }
        let positions = file.index.indices.filter { file.index[$0].groupID == groupID }
        remove(at: positions)
        file.groups.remove(at: slot)
        file.indexMACs.remove(at: slot)
        keys.removeGroup(id: groupID)
        return positions.count
    }

    /// A scoped credential for `groups`: their base keys of every class, lookup
    /// keys and key checks; the index MAC keys too unless it is read-only. Needs a full ring.
    func grant(_ groups: [AccessGroup], readOnly: Bool, issued: Date, expires: Date?) throws -> ScopedCredential {
        guard keys.masterKey != nil else { throw VaultError.locked(nil) }
        guard groups.count <= ScopedCredential.maxGroups else {
            throw VaultError.invalidValue(field: "grant", detail: "\(groups.count) groups; a credential covers at most \(ScopedCredential.maxGroups)")
        }
        let grants = try groups.map { group -> CredentialGrant in
            guard let id = keys.groupID(of: group), let held = keys.groups[id],
                  let entry = file.groups.first(where: { $0.groupID == id }) else { throw VaultError.noSuchGroup(group) }
            var bases: [UInt8: SecretBytes] = [:]
            for accessibility in Accessibility.allCases {
                bases[accessibility.fileID] = try keys.baseKey(groupID: id, classID: accessibility.fileID)
            }
            return CredentialGrant(groupID: id, group: group, keyCheck: entry.keyCheck, lookupKey: held.lookupKey,
                                   indexMACKey: readOnly ? nil : held.indexMACKey, baseKeys: bases)
        }
        return ScopedCredential(vaultID: file.vaultID, readOnly: readOnly, issued: issued, expires: expires,
                                grants: grants)
    }

    /// What the device key alone opens of a group: its `always` classes. Empty without a device key.
    private func deviceGrant(for groupID: UInt32) throws -> [UInt8] {
        guard keys.deviceKey != nil else { return [] }
        var w = ByteWriter()
        try GroupGrant.of(groupID, in: keys, classes: OpenVault.deviceClasses).encode(into: &w)
        defer { w.wipeBytes() }
        return try AESGCM.seal(w.bytes, key: keys.deviceWrapKey(), aad: AAD.group(vaultID: file.vaultID, groupID: groupID, device: true))
    }

    /// The master key of a full ring.
    func masterKey() throws -> SecretBytes {
        guard let masterKey = keys.masterKey else { throw VaultError.locked(nil) }
        return masterKey
    }

    /// This vault moved to a new device key: the header MAC key and every
    /// group's device grant re-wrapped under `newKey`, the `always` class keys
    /// replaced (their base keys sat in the old device grants), and every item
    /// that the old key opened or was bound to re-sealed: device-bound items
    /// and items of the `always` classes. Needs a full ring; returns how many
    /// items were re-sealed.
    func rebound(toDeviceKey newKey: SecretBytes) throws -> (vault: OpenVault, resealed: Int) {
        let masterKey = try masterKey()
        let moving = file.index.indices.filter { position in
            guard let accessibility = Accessibility(fileID: file.index[position].classID) else { return false }
            return accessibility.isDeviceBound || OpenVault.deviceClasses.contains(accessibility)
        }
        let items = try moving.map { try openRecord(at: $0) }
        var moved = self
        moved.remove(at: moving)
        moved.file.deviceCheck = KeyRing.deviceCheck(deviceKey: newKey, vaultID: file.vaultID)
        moved.file.deviceWrappedHeaderMACKey = try AESGCM.seal(try headerMACKey(), key: KeyRing.deviceWrapKey(newKey, vaultID: file.vaultID),
                                                               aad: AAD.deviceHeader(vaultID: file.vaultID))
        var reopened = try OpenVault.open(try moved.encode(), masterKey: masterKey, deviceKey: newKey, path: path)
        for accessibility in OpenVault.deviceClasses { try reopened.rotateClassKey(accessibility) }
        for slot in reopened.file.groups.indices {
            reopened.file.groups[slot].deviceWrapped = try reopened.deviceGrant(for: reopened.file.groups[slot].groupID)
        }
        for item in items { try reopened.store(item.attributes, secret: item.secret) }
        return (reopened, items.count)
    }

    /// Whether `key` is the device key the vault in `bytes` is sealed under.
    static func isDeviceKey(_ key: SecretBytes, of bytes: [UInt8]) -> Bool {
        guard let file = try? VaultFile.decode(bytes).file else { return false }
        return matches(key, file)
    }

    private func headerMACKey() throws -> SecretBytes {
        guard let key = keys.headerMACKey else { throw VaultError.locked(nil) }
        return key
    }

    /// Seals `attributes` and `secret` as a new record with a fresh record id,
    /// at `position` (replacing what is there) or at the end.
    mutating func store(_ attributes: ItemAttributes, secret: SecretBytes, replacing position: Int? = nil) throws {
        if attributes.accessibility.isDeviceBound && !deviceMatches {
            throw VaultError.boundToAnotherDevice(group: attributes.group, accessibility: attributes.accessibility)
        }
        if attributes.accessibility == .whenPasscodeSetThisDeviceOnly && !hasKeyslot(.passphrase) {
            throw VaultError.passcodeNotSet
        }
        guard let groupID = try groupID(for: attributes.group, creating: true) else { return }
        let recordID = SecureRandom.bytes(16)
        let classID = attributes.accessibility.fileID
        let key = try keys.recordKey(groupID: groupID, accessibility: attributes.accessibility, recordID: Bytes16(recordID))
        let aad = AAD.record(vaultID: file.vaultID, recordID: recordID, groupID: groupID, classID: classID)
        let sealed = try AESGCM.seal(RecordCodec.encodePlaintext(attributes, secret: secret), key: key, aad: aad)
        let entry = IndexEntry(recordID: recordID,
                               lookupTag: try keys.lookupTag(groupID: groupID, service: attributes.service, account: attributes.account),
                               groupID: groupID, classID: classID, length: UInt32(sealed.count))
        if let position {
            file.index[position] = entry
            file.records[position] = sealed[...]
        } else {
            file.index.append(entry)
            file.records.append(sealed[...])
        }
    }

    /// Removes the records at `positions`.
    mutating func remove(at positions: [Int]) {
        for position in positions.sorted(by: >) {
            file.index.remove(at: position)
            file.records.remove(at: position)
        }
    }

    /// Replaces a class key with a fresh one, so copies of the old key open nothing written after.
    mutating func rotateClassKey(_ accessibility: Accessibility) throws {
        let classKey = SecretBytes(random: AESGCM.keySize)
        let id = accessibility.fileID
        guard let index = file.classes.firstIndex(where: { $0.classID == id }) else { return }
        file.classes[index].wrapped = try OpenVault.wrapClassKey(classKey, id, keys)
        keys.addClassKey(classKey, classID: id)
        keys.forgetBaseKeys(classID: id)
    }

    /// Replaces the keyslots (at least one must remain).
    mutating func setKeyslots(_ slots: [Keyslot]) throws {
        guard !slots.isEmpty else { throw VaultError.lastKeyslot }
        file.keyslots = slots
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

    private static func wrapClassKey(_ classKey: SecretBytes, _ classID: UInt8, _ keys: KeyRing) throws -> [UInt8] {
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        return try AESGCM.seal(classKey, key: wrapKey, aad: AAD.classKey(vaultID: keys.vaultID, classID: classID))
    }

}

// MARK: keyslots

extension OpenVault {
    /// Adds a keyslot that opens with `secret`.
    mutating func addKeyslot(kind: Keyslot.Kind, secret: SecretBytes, kdf: Scrypt.Parameters) throws {
        guard let masterKey = keys.masterKey else { throw VaultError.locked(nil) }
        guard file.keyslots.count < VaultFile.maxKeyslots else {
            throw VaultError.invalidValue(field: "keyslot", detail: "a vault holds at most \(VaultFile.maxKeyslots) keyslots")
        }
        file.keyslots.append(try Keyslot.make(kind: kind, secret: secret, kdf: kdf, masterKey: masterKey, vaultID: file.vaultID))
    }

    /// Replaces every passphrase keyslot with one for `secret`.
    mutating func replacePassphrase(with secret: SecretBytes, kdf: Scrypt.Parameters) throws {
        guard let masterKey = keys.masterKey else { throw VaultError.locked(nil) }
        let slot = try Keyslot.make(kind: .passphrase, secret: secret, kdf: kdf, masterKey: masterKey, vaultID: file.vaultID)
        try setKeyslots(file.keyslots.filter { $0.kind != .passphrase } + [slot])
    }

    /// Removes the keyslots of `kind` that `secret` opens (every slot of `kind` when `secret` is nil);
    /// returns how many were removed. The last keyslot is never removed.
    mutating func removeKeyslots(kind: Keyslot.Kind, openedBy secret: SecretBytes?) throws -> Int {
        let keep = try file.keyslots.filter { slot in
            guard slot.kind == kind else { return true }
            guard let secret else { return false }
            if case .opened = try slot.open(with: secret, vaultID: file.vaultID) { return false }
            return true
        }
        let removed = file.keyslots.count - keep.count
        try setKeyslots(keep)
        return removed
    }

    /// Whether a keyslot of `kind` opens with `secret`.
    func keyslotOpening(kind: Keyslot.Kind, with secret: SecretBytes) throws -> Bool {
        try file.keyslots.contains { slot in
            guard slot.kind == kind else { return false }
            if case .opened = try slot.open(with: secret, vaultID: file.vaultID) { return true }
            return false
        }
    }

    /// Whether the vault has a keyslot of `kind`.
    func hasKeyslot(_ kind: Keyslot.Kind) -> Bool {
        file.keyslots.contains { $0.kind == kind }
    }
}
