import FoundationEssentials
import VaultCrypto

/// A vault file unlocked in memory: its parsed layout and its keys, with the
/// item operations that read or change it. `Vault` wraps these in reads and
/// locked read-modify-write transactions.
struct OpenVault {
    var file: VaultFile
    let keys: KeyRing
    let path: String
    /// Whether this machine's device key is the one the vault's device-bound items are sealed with.
    let deviceMatches: Bool

    // MARK: creating and unlocking

    /// A new, empty vault with one keyslot, every class key and the default group.
    static func create(slotKind: Keyslot.Kind, secret: SecretBytes, kdf: Scrypt.Parameters,
                       deviceKey: SecretBytes, path: String) throws -> OpenVault {
        let vaultID = SecureRandom.bytes(VaultFile.idSize)
        let masterKey = SecretBytes(random: AESGCM.keySize)
        let keys = KeyRing(vaultID: vaultID, masterKey: masterKey, deviceKey: deviceKey)
        let slot = try Keyslot.make(kind: slotKind, secret: secret, kdf: kdf, masterKey: masterKey, vaultID: vaultID)
        var classes: [WrappedClassKey] = []
        for accessibility in Accessibility.allCases {
            let classKey = SecretBytes(random: AESGCM.keySize)
            keys.addClassKey(classKey, classID: accessibility.fileID)
            let wrapped = try AESGCM.seal(classKey, key: keys.wrapKey, aad: classAAD(vaultID, accessibility.fileID))
            classes.append(WrappedClassKey(classID: accessibility.fileID, wrapped: wrapped))
        }
        let file = VaultFile(vaultID: vaultID, deviceCheck: KeyRing.deviceCheck(deviceKey: deviceKey, vaultID: vaultID),
                             keyslots: [slot], classes: classes, groups: [], index: [], indexMACs: [], records: [])
        var vault = OpenVault(file: file, keys: keys, path: path, deviceMatches: true)
        _ = try vault.groupID(for: .default, creating: true)
        return vault
    }

    /// Parses `bytes`, opens a keyslot with the credential, then checks the
    /// header MAC and every index MAC before any record is opened.
    static func unlock(_ bytes: [UInt8], credential: Credential, deviceKey: SecretBytes?, path: String) throws -> OpenVault {
        let decoded: (file: VaultFile, headerMAC: [UInt8], parametersEnd: Int)
        do {
            decoded = try VaultFile.decode(bytes)
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.detail)
        }
        let file = decoded.file
        let masterKey = try openKeyslot(file, credential: credential, path: path)
        let deviceMatches = deviceKey.map {
            constantTimeEquals(KeyRing.deviceCheck(deviceKey: $0, vaultID: file.vaultID), file.deviceCheck)
        } ?? false
        let keys = KeyRing(vaultID: file.vaultID, masterKey: masterKey, deviceKey: deviceMatches ? deviceKey : nil)
        let covered = Array(bytes[0..<decoded.parametersEnd + VaultFile.digestSize])
        guard constantTimeEquals(HMAC.sha256(key: keys.headerMACKey, data: covered), decoded.headerMAC) else {
            throw VaultError.corrupted(path: path, detail: "the header MAC does not match")
        }
        do {
            try unwrapKeys(file, into: keys)
        } catch {
            throw VaultError.corrupted(path: path, detail: "a wrapped key does not open")
        }
        let vault = OpenVault(file: file, keys: keys, path: path, deviceMatches: deviceMatches)
        try vault.verifyIndex()
        return vault
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
        for entry in file.classes {
            let key = try AESGCM.open(entry.wrapped, key: keys.wrapKey, aad: classAAD(file.vaultID, entry.classID))
            keys.addClassKey(key, classID: entry.classID)
        }
        for entry in file.groups {
            let plaintext = try AESGCM.open(entry.wrappedNameAndKey, key: keys.wrapKey, aad: groupAAD(file.vaultID, entry.groupID))
            let (group, key) = try plaintext.withUnsafeBytes { bytes -> (AccessGroup, SecretBytes) in
                guard bytes.count > AESGCM.keySize else { throw MalformedInput(detail: "a group entry too short") }
                let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - AESGCM.keySize])
                guard let name = String(validating: nameBytes, as: UTF8.self), let group = AccessGroup(name),
                      keys.groupID(of: group) == nil else {
                    throw MalformedInput(detail: "a malformed or repeated group name")
                }
                return (group, SecretBytes(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - AESGCM.keySize)...])))
            }
            guard keys.groups[entry.groupID] == nil else { throw MalformedInput(detail: "a repeated group id") }
            keys.addGroup(group, id: entry.groupID, key: key)
        }
    }

    /// Every index entry names a known group and class, and each group's index MAC matches.
    private func verifyIndex() throws {
        for entry in file.index {
            guard keys.groups[entry.groupID] != nil, Accessibility(fileID: entry.classID) != nil,
                  entry.recordID.count == 16 else {
                throw VaultError.corrupted(path: path, detail: "an index entry names an unknown group or class")
            }
        }
        for (group, mac) in zip(file.groups, file.indexMACs) {
            guard constantTimeEquals(try keys.indexMAC(groupID: group.groupID, entries: file.index), mac) else {
                throw VaultError.corrupted(path: path, detail: "the index MAC of a group does not match")
            }
        }
    }

    // MARK: reading

    /// Positions (in index order) of the records that match the query.
    func positions(matching query: Query) throws -> [Int] {
        let groupIDs: [UInt32]
        if let group = query.group {
            guard let id = keys.groupID(of: group) else { return [] }
            groupIDs = [id]
        } else {
            groupIDs = file.groups.map(\.groupID)
        }
        var matches: [Int] = []
        if let service = query.service, let account = query.account {
            for groupID in groupIDs {
                let tag = try keys.lookupTag(groupID: groupID, service: service, account: account)
                for (position, entry) in file.index.enumerated() where entry.groupID == groupID && entry.lookupTag == tag {
                    let attributes = try openRecord(at: position).attributes
                    guard attributes.service == service, attributes.account == account else {
                        throw VaultError.corrupted(path: path, detail: "a lookup tag does not match its record")
                    }
                    if query.matches(attributes) { matches.append(position) }
                }
            }
            return matches
        }
        let wanted = Set(groupIDs)
        for (position, entry) in file.index.enumerated() where wanted.contains(entry.groupID) {
            if let accessibility = query.accessibility, accessibility.fileID != entry.classID { continue }
            if query.matches(try openRecord(at: position).attributes) { matches.append(position) }
        }
        return matches
    }

    /// Decrypts the record at `position`.
    func openRecord(at position: Int) throws -> Item {
        let entry = file.index[position]
        guard let accessibility = Accessibility(fileID: entry.classID), let group = keys.groups[entry.groupID]?.group else {
            throw VaultError.corrupted(path: path, detail: "an index entry names an unknown group or class")
        }
        let aad = RecordCodec.aad(vaultID: file.vaultID, recordID: entry.recordID, groupID: entry.groupID, classID: entry.classID)
        let plaintext: SecretBytes
        do {
            let key = try keys.recordKey(groupID: entry.groupID, accessibility: accessibility, recordID: entry.recordID)
            plaintext = try AESGCM.open(file.records[position], key: key, aad: aad)
        } catch {
            if accessibility.isDeviceBound && !deviceMatches {
                throw VaultError.boundToAnotherDevice(group: group, accessibility: accessibility)
            }
            throw VaultError.corrupted(path: path, detail: "a record does not open")
        }
        do {
            return try RecordCodec.decodePlaintext(plaintext, group: group, accessibility: accessibility)
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.detail)
        }
    }

    // MARK: changing

    /// The id of `group`, creating the group (and its key) when `creating` is set.
    mutating func groupID(for group: AccessGroup, creating: Bool) throws -> UInt32? {
        if let id = keys.groupID(of: group) { return id }
        guard creating else { return nil }
        let id = (file.groups.map(\.groupID).max() ?? 0) + 1
        let groupKey = SecretBytes(random: AESGCM.keySize)
        keys.addGroup(group, id: id, key: groupKey)
        let wrapped = try AESGCM.seal(SecretBytes(Array(group.name.utf8)).appending(groupKey), key: keys.wrapKey,
                                      aad: OpenVault.groupAAD(file.vaultID, id))
        var deviceWrapped: [(classID: UInt8, wrapped: [UInt8])] = []
        if keys.deviceKey != nil {
            for accessibility in Accessibility.allCases where accessibility.opensWithoutUnlock {
                let base = try keys.baseKey(groupID: id, classID: accessibility.fileID)
                let sealed = try AESGCM.seal(base, key: keys.deviceWrapKey(),
                                             aad: OpenVault.deviceAAD(file.vaultID, id, accessibility.fileID))
                deviceWrapped.append((accessibility.fileID, sealed))
            }
        }
        file.groups.append(WrappedGroupKey(groupID: id, wrappedNameAndKey: wrapped, deviceWrapped: deviceWrapped))
        file.indexMACs.append([])
        return id
    }

    /// Seals `attributes` and `secret` as a new record with a fresh record id,
    /// at `position` (replacing what is there) or at the end.
    mutating func store(_ attributes: ItemAttributes, secret: SecretBytes, replacing position: Int? = nil) throws {
        if attributes.accessibility.isDeviceBound && !deviceMatches {
            throw VaultError.boundToAnotherDevice(group: attributes.group, accessibility: attributes.accessibility)
        }
        guard let groupID = try groupID(for: attributes.group, creating: true) else { return }
        let recordID = SecureRandom.bytes(16)
        let classID = attributes.accessibility.fileID
        let key = try keys.recordKey(groupID: groupID, accessibility: attributes.accessibility, recordID: recordID)
        let aad = RecordCodec.aad(vaultID: file.vaultID, recordID: recordID, groupID: groupID, classID: classID)
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

    /// Replaces the keyslots (at least one must remain).
    mutating func setKeyslots(_ slots: [Keyslot]) throws {
        guard !slots.isEmpty else { throw VaultError.lastKeyslot }
        file.keyslots = slots
    }

    /// The whole file with fresh index MACs and header MAC.
    func encode() throws -> [UInt8] {
        var file = self.file
        file.indexMACs = try file.groups.map { try keys.indexMAC(groupID: $0.groupID, entries: file.index) }
        let parameters = file.encodeHeaderParameters()
        let checksum = SHA256.hash(parameters)
        let headerMAC = HMAC.sha256(key: keys.headerMACKey, data: parameters + checksum)
        return file.encode(parameters: parameters, checksum: checksum, headerMAC: headerMAC)
    }

    // MARK: AAD of wrapped keys

    private static func classAAD(_ vaultID: [UInt8], _ classID: UInt8) -> [UInt8] {
        Array("class".utf8) + vaultID + [classID]
    }

    private static func groupAAD(_ vaultID: [UInt8], _ groupID: UInt32) -> [UInt8] {
        var w = ByteWriter()
        w.raw(Array("group".utf8))
        w.raw(vaultID)
        w.u32(groupID)
        return w.bytes
    }

    private static func deviceAAD(_ vaultID: [UInt8], _ groupID: UInt32, _ classID: UInt8) -> [UInt8] {
        var w = ByteWriter()
        w.raw(Array("device".utf8))
        w.raw(vaultID)
        w.u32(groupID)
        w.u8(classID)
        return w.bytes
    }
}

// MARK: keyslots

extension OpenVault {
    /// Adds a keyslot that opens with `secret`.
    mutating func addKeyslot(kind: Keyslot.Kind, secret: SecretBytes, kdf: Scrypt.Parameters) throws {
        guard file.keyslots.count < VaultFile.maxKeyslots else {
            throw VaultError.invalidValue(field: "keyslot", detail: "a vault holds at most \(VaultFile.maxKeyslots) keyslots")
        }
        file.keyslots.append(try Keyslot.make(kind: kind, secret: secret, kdf: kdf, masterKey: keys.masterKey, vaultID: file.vaultID))
    }

    /// Replaces every passphrase keyslot with one for `secret`.
    mutating func replacePassphrase(with secret: SecretBytes, kdf: Scrypt.Parameters) throws {
        let slot = try Keyslot.make(kind: .passphrase, secret: secret, kdf: kdf, masterKey: keys.masterKey, vaultID: file.vaultID)
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

    /// Whether the vault has a keyslot of `kind`.
    func hasKeyslot(_ kind: Keyslot.Kind) -> Bool {
        file.keyslots.contains { $0.kind == kind }
    }
}
