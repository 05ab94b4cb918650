import VaultCrypto

// The vault's signing key and the trust fingerprint readers pin (docs/TEAMS.md, "Trust").
extension OpenVault {
    /// A new signing key: made with the vault, on conversion from v1, and by every re-key
    /// (whoever held the old master key could unwrap the old one). The next write seals it under WK.
    mutating func replaceSigningKey() throws {
        let key = SecretBytes(random: Ed25519.keySize)
        file.signingPublicKey = try Ed25519.publicKey(of: key)
        signingKey = key
    }

    /// The SHA-256 of the file's signing public key, in hex: what `vault trust` prints and readers pin.
    static func trustFingerprint(of publicKey: [UInt8]) -> String {
        hex(SHA256.hash(publicKey))
    }

    /// Whether the header as read is signed by the signing key whose fingerprint is `fingerprint`:
    /// the file's public key has that fingerprint and the signature over the header checks under it.
    func headerIsSigned(byFingerprint fingerprint: String) -> Bool {
        OpenVault.isSigned(file, header: header, byFingerprint: fingerprint)
    }

    /// Whether `header` (the header parameters and checksum of `file`, as read) is signed by the
    /// signing key whose fingerprint is `fingerprint`.
    static func isSigned(_ file: VaultFile, header: [UInt8], byFingerprint fingerprint: String) -> Bool {
        file.version >= 2 && !header.isEmpty
            && constantTimeEquals(Array(trustFingerprint(of: file.signingPublicKey).utf8), Array(fingerprint.lowercased().utf8))
            && Ed25519.isValid(signature: file.headerSignature, of: AAD.headerSignature(header: header), publicKey: file.signingPublicKey)
    }
}
