import VaultCrypto

/// The unwrapped keys of an open vault and every key derived from them
/// (docs/FORMAT.md, "Key derivation"). Derived keys are cached per process.
final class KeyRing {
    let vaultID: [UInt8]
    let masterKey: SecretBytes
    /// Group keys and names by group id.
    private(set) var groups: [UInt32: (group: AccessGroup, key: SecretBytes)] = [:]
    /// Class keys by class id.
    private(set) var classKeys: [UInt8: SecretBytes] = [:]
    /// This machine's device key, when there is one.
    let deviceKey: SecretBytes?

    private var lookupKeys: [UInt32: SecretBytes] = [:]
    private var baseKeys: [UInt64: SecretBytes] = [:]

    init(vaultID: [UInt8], masterKey: SecretBytes, deviceKey: SecretBytes?) {
        self.vaultID = vaultID
        self.masterKey = masterKey
        self.deviceKey = deviceKey
    }

    func addGroup(_ group: AccessGroup, id: UInt32, key: SecretBytes) {
        groups[id] = (group, key)
    }

    func removeGroup(id: UInt32) {
        groups[id] = nil
        lookupKeys[id] = nil
    }

    func addClassKey(_ key: SecretBytes, classID: UInt8) {
        classKeys[classID] = key
    }

    func groupID(of group: AccessGroup) -> UInt32? {
        groups.first(where: { $0.value.group == group })?.key
    }

    // MARK: keys derived from the master key

    lazy var wrapKey: SecretBytes = derive(masterKey, "key wrap", [])
    lazy var headerMACKey: SecretBytes = derive(masterKey, "header mac", [])

    // MARK: keys derived from a group key

    func lookupTag(groupID: UInt32, service: String, account: String) throws -> [UInt8] {
        let key: SecretBytes
        if let cached = lookupKeys[groupID] {
            key = cached
        } else {
            key = derive(try groupKey(groupID), "lookup", [])
            lookupKeys[groupID] = key
        }
        var w = ByteWriter()
        w.lengthPrefixed(Array(service.utf8))
        w.lengthPrefixed(Array(account.utf8))
        return Array(HMAC.sha256(key: key, data: w.bytes).prefix(16))
    }

    func indexMAC(groupID: UInt32, entries: [IndexEntry]) throws -> [UInt8] {
        let mac = try HMACSHA256(key: derive(try groupKey(groupID), "index mac", []))
        var w = ByteWriter(capacity: 64)
        w.raw(vaultID)
        w.u32(groupID)
        mac.update(w.bytes)
        for entry in entries where entry.groupID == groupID {
            var e = ByteWriter(capacity: IndexEntry.size)
            entry.encode(into: &e)
            mac.update(e.bytes)
        }
        return mac.finalize()
    }

    /// The base key of (group, class): what the record keys of that pair derive from.
    func baseKey(groupID: UInt32, classID: UInt8) throws -> SecretBytes {
        let cacheKey = UInt64(groupID) << 8 | UInt64(classID)
        if let cached = baseKeys[cacheKey] { return cached }
        guard let classKey = classKeys[classID] else { throw KeyRingError.missingClassKey(classID) }
        var context = ByteWriter()
        context.u32(groupID)
        context.u8(classID)
        let key = derive(try groupKey(groupID).appending(classKey), "base", context.bytes)
        baseKeys[cacheKey] = key
        return key
    }

    /// The key of one record: fresh for every record id, bound to the device for device-bound classes.
    func recordKey(groupID: UInt32, accessibility: Accessibility, recordID: [UInt8]) throws -> SecretBytes {
        var material = try baseKey(groupID: groupID, classID: accessibility.fileID)
        if accessibility.isDeviceBound {
            guard let deviceKey else { throw KeyRingError.missingDeviceKey }
            material = material.appending(deviceKey)
        }
        return derive(material, "record", recordID)
    }

    /// The key that wraps `always` base keys on this device.
    func deviceWrapKey() throws -> SecretBytes {
        guard let deviceKey else { throw KeyRingError.missingDeviceKey }
        return derive(deviceKey, "device wrap", [])
    }

    /// The device check stored in the header: which device key seals device-bound items.
    static func deviceCheck(deviceKey: SecretBytes, vaultID: [UInt8]) -> [UInt8] {
        Array(HMAC.sha256(key: deviceKey, data: Array("vault v1 device check".utf8) + vaultID).prefix(VaultFile.checkSize))
    }

    private func groupKey(_ id: UInt32) throws -> SecretBytes {
        guard let entry = groups[id] else { throw KeyRingError.missingGroupKey(id) }
        return entry.key
    }

    private func derive(_ material: SecretBytes, _ label: String, _ context: [UInt8]) -> SecretBytes {
        // HKDF only fails on impossible parameters (a 32-byte output of SHA-256 is always possible).
        try! HKDF.deriveKey(inputKeyMaterial: material, salt: vaultID, info: Array("vault v1 \(label)".utf8) + context)
    }
}

/// A key the ring does not hold.
enum KeyRingError: Error {
    case missingGroupKey(UInt32)
    case missingClassKey(UInt8)
    case missingDeviceKey
}
