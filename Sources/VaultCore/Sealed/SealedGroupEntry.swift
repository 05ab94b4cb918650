import VaultCrypto

/// A group's name and key in the header: `AES-GCM(WK, UTF-8 name ‖ group key, AAD = AAD.group)`
/// (docs/FORMAT.md, "Groups").
enum SealedGroupEntry {
    /// `group`'s name and `groupKey` sealed under `wrapKey` as the entry of `groupID`.
    static func seal(_ group: AccessGroup, key groupKey: GroupKey, groupID: GroupID, under wrapKey: WrapKey, vaultID: [UInt8]) throws
        -> [UInt8]
    {
        try AESGCM.seal(
            SecretBytes(Array(group.name.utf8)).appending(groupKey.secret), key: wrapKey.secret,
            aad: AAD.group(vaultID: vaultID, groupID: groupID))
    }

    /// The group and key in `wrapped`. Throws `CryptoError` when it does not open, `MalformedInput`
    /// when what opens is no valid group name and key.
    static func open(_ wrapped: [UInt8], groupID: GroupID, under wrapKey: WrapKey, vaultID: [UInt8]) throws -> (AccessGroup, GroupKey) {
        let plaintext = try AESGCM.open(wrapped, key: wrapKey.secret, aad: AAD.group(vaultID: vaultID, groupID: groupID))
        return try plaintext.withUnsafeBytes { bytes -> (AccessGroup, GroupKey) in
            guard bytes.count > AESGCM.keySize else { throw MalformedInput(.violates(.groupEntryTooShort)) }
            let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - AESGCM.keySize])
            guard let name = String(validating: nameBytes, as: UTF8.self), let group = AccessGroup(name) else {
                throw MalformedInput(.violates(.malformedOrRepeatedGroupName))
            }
            return (group, GroupKey(SecretBytes(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - AESGCM.keySize)...]))))
        }
    }
}
