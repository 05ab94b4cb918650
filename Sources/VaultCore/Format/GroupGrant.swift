import VaultCrypto

/// The keys of one group that a partial ring may hold, as bytes: what the
/// device key opens without an unlock (each group's device blob), what the
/// after-first-unlock cache keeps, and what a scoped credential carries.
struct GroupGrant {
    var groupID: UInt32
    var group: AccessGroup
    /// The group key itself; only where everything of the group may be derived.
    var groupKey: SecretBytes?
    var lookupKey: SecretBytes
    var indexMACKey: SecretBytes
    /// Base keys by class id.
    var baseKeys: [UInt8: SecretBytes]

    /// The grant of `classes` of a group in a full ring.
    static func of(_ groupID: UInt32, in ring: KeyRing, classes: [Accessibility]) throws -> GroupGrant {
        guard let keys = ring.groups[groupID] else { throw KeyRingError.missingGroupKey(groupID) }
        guard let indexMACKey = keys.indexMACKey else { throw KeyRingError.missingIndexMACKey(groupID) }
        var bases: [UInt8: SecretBytes] = [:]
        for accessibility in classes {
            bases[accessibility.fileID] = try ring.baseKey(groupID: groupID, classID: accessibility.fileID)
        }
        return GroupGrant(groupID: groupID, group: keys.group, groupKey: nil, lookupKey: keys.lookupKey,
                          indexMACKey: indexMACKey, baseKeys: bases)
    }

    /// The ring's view of this grant.
    var groupKeys: GroupKeys {
        GroupKeys(group: group, groupKey: groupKey, lookupKey: lookupKey, indexMACKey: indexMACKey, baseKeys: baseKeys)
    }

    func encode(into w: inout ByteWriter) {
        w.u32(groupID)
        w.lengthPrefixed(Array(group.name.utf8))
        w.raw(lookupKey.copyBytes())
        w.raw(indexMACKey.copyBytes())
        if let groupKey {
            w.u8(1)
            w.raw(groupKey.copyBytes())
        } else {
            w.u8(0)
        }
        w.u8(UInt8(baseKeys.count))
        for (classID, key) in baseKeys.sorted(by: { $0.key < $1.key }) {
            w.u8(classID)
            w.raw(key.copyBytes())
        }
    }

    static func decode(from r: inout ByteReader) throws -> GroupGrant {
        let id = try r.u32()
        guard let name = String(validating: try r.lengthPrefixed(limit: AccessGroup.maxLength), as: UTF8.self), let group = AccessGroup(name) else {
            throw MalformedInput(detail: "a malformed group name")
        }
        let lookupKey = SecretBytes(try r.raw(32))
        let indexMACKey = SecretBytes(try r.raw(32))
        let groupKey = try r.u8() == 1 ? SecretBytes(try r.raw(32)) : nil
        var bases: [UInt8: SecretBytes] = [:]
        for _ in 0..<Int(try r.u8()) {
            let classID = try r.u8()
            bases[classID] = SecretBytes(try r.raw(32))
        }
        return GroupGrant(groupID: id, group: group, groupKey: groupKey, lookupKey: lookupKey, indexMACKey: indexMACKey, baseKeys: bases)
    }
}
