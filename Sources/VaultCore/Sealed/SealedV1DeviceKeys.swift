import VaultCrypto

/// What a v1 header sealed under this machine's device wrap key (DWK): the header MAC key
/// (`AAD.deviceHeader`) and each group's device grant (`AAD.group`, device). Opened only: a v1
/// file is converted to the current format before it is written, and the conversion drops both.
enum SealedV1DeviceKeys {
    /// The header MAC key in `wrapped`; nil when it does not open.
    static func openHeaderMACKey(_ wrapped: [UInt8], under key: DeviceWrapKey, vaultID: [UInt8]) -> HeaderMACKey? {
        try? HeaderMACKey(AESGCM.open(wrapped, key: key.secret, aad: AAD.deviceHeader(vaultID: vaultID)))
    }

    /// The device grant of `entry`'s group. Throws when it does not open, parse, or is another group's.
    static func openGroupGrant(_ entry: WrappedGroupKey, under key: DeviceWrapKey, vaultID: [UInt8]) throws -> GroupGrant {
        let plaintext = try AESGCM.open(
            entry.deviceWrapped, key: key.secret, aad: AAD.group(vaultID: vaultID, groupID: entry.groupID, device: true))
        var reader = ByteReader(plaintext.copyBytes())
        let grant = try GroupGrant.decodeV1DeviceGrant(from: &reader, keyCheck: entry.keyCheck)
        guard grant.groupID == entry.groupID, reader.isAtEnd else { throw MalformedInput(.violates(.deviceGrantOfAnotherGroup)) }
        return grant
    }
}
