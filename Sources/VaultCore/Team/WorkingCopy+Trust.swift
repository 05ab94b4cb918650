import VaultCrypto

// The vault's signing and trust keys unwrapped, replaced, sealed, and the trust statement signed (docs/TEAMS.md, "Trust").
extension WorkingCopy {
    /// A new signing key: made with the vault, on conversion from v1, and by every re-key
    /// (whoever held the old wrap key could unwrap the old one). The next write seals it under WK
    /// and has the trust key vouch for it.
    mutating func replaceSigningKey() throws {
        let key = SigningKey.random()
        file.signingPublicKey = try key.publicKey()
        signingKey = key
    }

    /// A new trust key, and so a new trust fingerprint: made with the vault, on conversion from
    /// v1, and by the re-keys that may drop someone who held the master key (`vault rekey`, a
    /// rotating `passwd`); a member's removal keeps it, since no member ever holds it.
    mutating func replaceTrustKey() throws {
        let key = TrustKey.random()
        file.trustPublicKey = try key.publicKey()
        trustKey = key
    }

    /// Unwraps, once, the signing key (with the wrap key: the owner and full members), checked
    /// against its public key in the header (93 otherwise). A key made in memory is kept. The check
    /// is a derivation, not a seal: WK is shared, and a removed full member holds an old one, which
    /// the owner's unchanged key file opens in that member's old copy of the file.
    mutating func unwrapSigningKey() throws {
        guard file.version >= 2, signingKey == nil, let wrapKey = keys.wrapKey else { return }
        let opened = SealedSigningKey.open(file.wrappedSigningKey, under: wrapKey, vaultID: file.vaultID)
        guard let opened, try opened.publicKey() == file.signingPublicKey else { throw unwrapFailure(.signingKeyNotTheHeaders) }
        signingKey = opened
    }

    /// Unwraps, once, the trust key (with TWK: the owner alone), sealed with the header's public key
    /// in its AAD (93 otherwise). A key made in memory (a new vault, a re-key) is kept. A trust key
    /// sealed without TP in its AAD (`AAD.trustKeyWithoutTP`) opens too, checked against TP by derivation.
    mutating func unwrapTrustKey() throws {
        guard file.version >= 2, trustKey == nil, let trustWrapKey = keys.trustWrapKey else { return }
        if let opened = SealedTrustKey.open(
            file.wrappedTrustKey, under: trustWrapKey, vaultID: file.vaultID, publicKey: file.trustPublicKey)
        {
            trustKey = opened
            return
        }
        let sealedWithoutTP = SealedTrustKey.openSealedWithoutTP(file.wrappedTrustKey, under: trustWrapKey, vaultID: file.vaultID)
        guard let sealedWithoutTP, try sealedWithoutTP.publicKey() == file.trustPublicKey else {
            throw unwrapFailure(.trustKeyNotTheHeaders)
        }
        trustKey = sealedWithoutTP
        pending.trustKeySealedWithoutTP = true
    }

    /// Before the owner's write: a trust key read sealed without TP is sealed again, with it.
    mutating func sealTrustKeyWithTPIfNeeded() throws {
        guard pending.trustKeySealedWithoutTP, let trustKey, let trustWrapKey = keys.trustWrapKey else { return }
        try sealTrustKey(trustKey, under: trustWrapKey)
    }

    /// The trust key sealed under TWK, with TP in its AAD, into the header.
    private mutating func sealTrustKey(_ trustKey: TrustKey, under trustWrapKey: TrustWrapKey) throws {
        file.wrappedTrustKey = try SealedTrustKey.seal(trustKey, under: trustWrapKey, vaultID: file.vaultID, publicKey: file.trustPublicKey)
        pending.trustKeySealedWithoutTP = false
    }

    private func unwrapFailure(_ rule: Damage.Rule) -> VaultError {
        VaultError.corrupted(path: path, detail: .violates(rule))
    }

    /// Before a write of the owner or a full member. While the header's trust key, key epoch and
    /// signing key are those read, the statement read still vouches for them and is kept. Otherwise
    /// the trust key (the owner's) is sealed under TWK again and signs a new statement, for a fresh
    /// signing key whenever the key epoch rose (so no signing key read from a file — perhaps a
    /// removed member's old copy — is ever vouched for beyond its epoch). Without the trust key
    /// (a full member, who cannot raise the key epoch or replace the signing key) throws `trustKeyNeeded`.
    mutating func signTrustStatement() throws {
        if TrustFields(of: file) == trustAsRead { return }
        try unwrapTrustKey()
        guard let trustKey, let trustWrapKey = keys.trustWrapKey else { throw VaultError.trustKeyNeeded(.raiseKeyEpoch) }
        if let read = trustAsRead, file.keyEpoch != read.keyEpoch, file.signingPublicKey == read.signingPublicKey {
            try replaceSigningKey()
        }
        try sealTrustKey(trustKey, under: trustWrapKey)
        file.trustSignature = try trustKey.sign(TrustFields(of: file).statement(vaultID: file.vaultID))
    }
}
