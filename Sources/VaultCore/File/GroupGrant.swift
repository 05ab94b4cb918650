import VaultCrypto

/// What a partial key ring holds of one group, as bytes: a scoped
/// credential's groups, this device's grants (the `always` classes) and the
/// after-first-unlock cache. One type and one codec for all three: they differ
/// only in which base keys they carry and whether the index MAC key (the
/// group's write key) is among them.
struct GroupGrant {
    var groupID: GroupID
    var group: AccessGroup
    /// The header's key check of the group key when granted; a different one means the group was re-keyed.
    var keyCheck: [UInt8]
    var lookupKey: LookupKey
    /// The group's write key: present only in a read-write credential.
    var indexMACKey: IndexMACKey?
    /// Base keys by class id.
    var baseKeys: [ClassID: BaseKey]

    /// The grant of `classes` of a group in a full ring; `writable` adds the index MAC key.
    static func of(_ groupID: GroupID, in ring: KeyRing, keyCheck: [UInt8], classes: [Accessibility], writable: Bool) throws -> GroupGrant {
        guard let keys = ring.groups[groupID] else { throw KeyRingError.missingGroupKey(groupID) }
        var bases: [ClassID: BaseKey] = [:]
        for accessibility in classes {
            bases[accessibility.fileID] = try ring.baseKey(groupID: groupID, classID: accessibility.fileID)
        }
        return GroupGrant(
            groupID: groupID, group: keys.group, keyCheck: keyCheck, lookupKey: keys.lookupKey,
            indexMACKey: writable ? keys.indexMACKey : nil, baseKeys: bases)
    }

    /// The ring's view of this grant.
    var groupKeys: GroupKeys {
        GroupKeys(group: group, groupKey: nil, lookupKey: lookupKey, indexMACKey: indexMACKey, baseKeys: baseKeys)
    }

    /// u32 group id ‖ bytes(name) ‖ key check (16) ‖ LK (32) ‖ optional IMK ‖ base keys.
    func encode(into w: inout ByteWriter) {
        w.group(groupID, group)
        w.raw(keyCheck)
        w.raw(lookupKey.secret.copyBytes())
        w.optionalKey(indexMACKey)
        w.baseKeys(baseKeys)
    }

    static func decode(from r: inout ByteReader) throws -> GroupGrant {
        let (id, group) = try r.group()
        let keyCheck = Array(try r.raw(VaultFile.checkSize))
        let lookupKey = LookupKey(SecretBytes(try r.raw(AESGCM.keySize)))
        let indexMACKey: IndexMACKey? = try r.optionalKey()
        return GroupGrant(
            groupID: id, group: group, keyCheck: keyCheck, lookupKey: lookupKey,
            indexMACKey: indexMACKey, baseKeys: try r.baseKeys())
    }

    /// A v1 header's device grant (read only, to open v1 files): u32 group id ‖ bytes(name) ‖ LK ‖ IMK ‖
    /// optional GK (always absent) ‖ base keys. It carried no key check; `keyCheck` is the header's.
    static func decodeV1DeviceGrant(from r: inout ByteReader, keyCheck: [UInt8]) throws -> GroupGrant {
        let (id, group) = try r.group()
        let lookupKey = LookupKey(SecretBytes(try r.raw(AESGCM.keySize)))
        let indexMACKey = IndexMACKey(SecretBytes(try r.raw(AESGCM.keySize)))
        _ = try r.optionalKey() as GroupKey?
        return GroupGrant(
            groupID: id, group: group, keyCheck: keyCheck, lookupKey: lookupKey,
            indexMACKey: indexMACKey, baseKeys: try r.baseKeys())
    }
}
