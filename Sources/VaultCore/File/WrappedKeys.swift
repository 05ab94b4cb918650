import VaultCrypto

/// A class key wrapped under the vault's wrap key.
struct WrappedClassKey {
    var classID: ClassID
    var wrapped: [UInt8]
}

/// A group: its id, its name and key wrapped under the wrap key, and what
/// this device may open without an unlock, sealed under the device key.
struct WrappedGroupKey {
    static let maxWrappedBytes = 256

    var groupID: GroupID
    /// `HMAC(GK, "vault v1 group key check" ‖ vault id ‖ group id)[0..16]`: tells a
    /// credential holding an older (revoked) group key from a damaged file.
    var keyCheck: [UInt8]
    var wrappedNameAndKey: [UInt8]
    /// v1 only: the group's lookup and index MAC keys and its `always` base keys, with its
    /// name, under the device key. v2 keeps this machine-local (`DeviceGrants`).
    var deviceWrapped: [UInt8] = []

    func encode(into w: inout ByteWriter, version: UInt16) {
        w.groupID(groupID)
        w.raw(keyCheck)
        w.lengthPrefixed(wrappedNameAndKey)
        if version == 1 { w.lengthPrefixed(deviceWrapped) }
    }

    static func decode(from r: inout ByteReader, version: UInt16) throws -> WrappedGroupKey {
        WrappedGroupKey(
            groupID: try r.groupID(), keyCheck: Array(try r.raw(VaultFile.checkSize)),
            wrappedNameAndKey: Array(try r.lengthPrefixed(limit: maxWrappedBytes)),
            deviceWrapped: version == 1 ? Array(try r.lengthPrefixed(limit: maxWrappedBytes)) : [])
    }
}
