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
        w.group(groupID, group)
        w.raw(lookupKey.copyBytes())
        w.raw(indexMACKey.copyBytes())
        w.optionalKey(groupKey)
        w.baseKeys(baseKeys)
    }

    static func decode(from r: inout ByteReader) throws -> GroupGrant {
        let (id, group) = try r.group()
        let lookupKey = SecretBytes(try r.raw(AESGCM.keySize))
        let indexMACKey = SecretBytes(try r.raw(AESGCM.keySize))
        let groupKey = try r.optionalKey()
        return GroupGrant(groupID: id, group: group, groupKey: groupKey, lookupKey: lookupKey, indexMACKey: indexMACKey,
                          baseKeys: try r.baseKeys())
    }
}
