import VaultCrypto

// The fields of a grant of group keys (`GroupGrant`), one codec each, so the
// credential, the device grants and the after-first-unlock cache cannot drift.

extension ByteWriter {
    /// u32 group id ‖ u32-length-prefixed UTF-8 group name.
    mutating func group(_ id: GroupID, _ group: AccessGroup) {
        groupID(id)
        lengthPrefixed(Array(group.name.utf8))
    }

    /// u8 1 ‖ 32-byte key, or u8 0 when there is none.
    mutating func optionalKey(_ key: (some TypedKey)?) {
        if let key {
            u8(1)
            raw(key.secret.copyBytes())
        } else {
            u8(0)
        }
    }

    /// u8 count ‖ (u8 class id ‖ 32-byte base key) in class id order.
    mutating func baseKeys(_ keys: [ClassID: BaseKey]) {
        u8(UInt8(keys.count))
        for (classID, key) in keys.sorted(by: { $0.key < $1.key }) {
            self.classID(classID)
            raw(key.secret.copyBytes())
        }
    }
}

extension ByteReader {
    /// See `ByteWriter.group`; throws on a name that is no valid group.
    mutating func group() throws -> (id: GroupID, group: AccessGroup) {
        let id = try groupID()
        guard let name = String(validating: try lengthPrefixed(limit: AccessGroup.maxLength), as: UTF8.self),
            let group = AccessGroup(name)
        else {
            throw MalformedInput(.violates(.malformedGroupName))
        }
        return (id, group)
    }

    /// See `ByteWriter.optionalKey`; throws on a flag other than 0 or 1.
    mutating func optionalKey<Key: TypedKey>() throws -> Key? {
        switch try u8() {
        case 0: return nil
        case 1: return Key(SecretBytes(try raw(AESGCM.keySize)))
        default: throw MalformedInput(.violates(.malformedKeyField))
        }
    }

    /// See `ByteWriter.baseKeys`; throws on an unknown or repeated class.
    mutating func baseKeys() throws -> [ClassID: BaseKey] {
        var keys: [ClassID: BaseKey] = [:]
        for _ in 0..<Int(try u8()) {
            let classID = try self.classID()
            guard Accessibility(fileID: classID) != nil, keys[classID] == nil else {
                throw MalformedInput(.violates(.unknownOrRepeatedClass))
            }
            keys[classID] = BaseKey(SecretBytes(try raw(AESGCM.keySize)))
        }
        return keys
    }
}
