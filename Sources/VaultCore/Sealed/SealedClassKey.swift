import VaultCrypto

/// A class key in the header: `AES-GCM(WK, the class key, AAD = AAD.classKey)` (docs/FORMAT.md, "Classes").
enum SealedClassKey {
    /// `classKey` of `classID` sealed under `wrapKey`.
    static func seal(_ classKey: ClassKey, classID: ClassID, under wrapKey: WrapKey, vaultID: [UInt8]) throws -> [UInt8] {
        try AESGCM.seal(classKey.secret, key: wrapKey.secret, aad: AAD.classKey(vaultID: vaultID, classID: classID))
    }

    /// The class key of `classID` in `wrapped`. Throws when it does not open.
    static func open(_ wrapped: [UInt8], classID: ClassID, under wrapKey: WrapKey, vaultID: [UInt8]) throws -> ClassKey {
        ClassKey(try AESGCM.open(wrapped, key: wrapKey.secret, aad: AAD.classKey(vaultID: vaultID, classID: classID)))
    }
}
