import VaultCrypto

/// The vault's Ed25519 signing key in the header: `AES-GCM(WK, the private key, AAD = AAD.signingKey)`
/// (docs/FORMAT.md, "Signing key"), so the owner and full members (who hold WK) sign a write.
enum SealedSigningKey {
    /// `signingKey` sealed under `wrapKey`.
    static func seal(_ signingKey: SigningKey, under wrapKey: WrapKey, vaultID: [UInt8]) throws -> [UInt8] {
        try AESGCM.seal(signingKey.secret, key: wrapKey.secret, aad: AAD.signingKey(vaultID: vaultID))
    }

    /// The signing key in `wrapped`; nil when it does not open (the caller checks it against the header's public key).
    static func open(_ wrapped: [UInt8], under wrapKey: WrapKey, vaultID: [UInt8]) -> SigningKey? {
        (try? AESGCM.open(wrapped, key: wrapKey.secret, aad: AAD.signingKey(vaultID: vaultID))).map(SigningKey.init)
    }
}
