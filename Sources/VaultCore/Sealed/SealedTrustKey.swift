import VaultCrypto

/// The vault's Ed25519 trust key in the header: `AES-GCM(TWK, the private key, AAD = AAD.trustKey)`,
/// its public key (TP) in the AAD (docs/TEAMS.md, "Trust"). Only the master key gives TWK.
enum SealedTrustKey {
    /// `trustKey` sealed under `trustWrapKey`, bound to its public key.
    static func seal(_ trustKey: TrustKey, under trustWrapKey: TrustWrapKey, vaultID: [UInt8], publicKey: TrustPublicKey) throws -> [UInt8]
    {
        try AESGCM.seal(trustKey.secret, key: trustWrapKey.secret, aad: AAD.trustKey(vaultID: vaultID, publicKey: publicKey))
    }

    /// The trust key in `wrapped`, sealed with `publicKey` in its AAD; nil when it does not open.
    static func open(_ wrapped: [UInt8], under trustWrapKey: TrustWrapKey, vaultID: [UInt8], publicKey: TrustPublicKey) -> TrustKey? {
        (try? AESGCM.open(wrapped, key: trustWrapKey.secret, aad: AAD.trustKey(vaultID: vaultID, publicKey: publicKey))).map(TrustKey.init)
    }

    /// The trust key in `wrapped` as vaults written before 2026-11-25 sealed it, without TP in its
    /// AAD; nil when it does not open (the caller checks it against TP by derivation). Read only.
    static func openSealedWithoutTP(_ wrapped: [UInt8], under trustWrapKey: TrustWrapKey, vaultID: [UInt8]) -> TrustKey? {
        (try? AESGCM.open(wrapped, key: trustWrapKey.secret, aad: AAD.trustKeyWithoutTP(vaultID: vaultID))).map(TrustKey.init)
    }
}
