import VaultCrypto

// A keyslot's master key sealed and opened: `AES-GCM(KEK, master key, AAD = AAD.keyslot)`, the KEK
// derived from the slot's secret (docs/FORMAT.md, "Keyslots"). An export bundle's keyslot wraps
// the bundle key the same way.
extension Keyslot {
    /// A new slot of `kind` that wraps `masterKey` under the key derived from `secret`.
    static func make(kind: Kind, secret: SecretBytes, kdf: Scrypt.Parameters, masterKey: MasterKey, vaultID: [UInt8]) throws -> Keyslot {
        let salt = SecureRandom.bytes(saltSize)
        let parameters = kind == .passphrase ? kdf : Scrypt.Parameters(logN: 0, r: 0, p: 0)
        let kek = try deriveKEK(kind: kind, secret: secret, salt: salt, kdf: parameters, vaultID: vaultID)
        var slot = Keyslot(kind: kind, salt: salt, kdf: parameters, check: checkValue(kek: kek, vaultID: vaultID), wrappedMasterKey: [])
        slot.wrappedMasterKey = try AESGCM.seal(
            masterKey.secret, key: kek, aad: AAD.keyslot(vaultID: vaultID, describing: slot.describingBytes))
        return slot
    }

    /// The outcome of trying a credential on this slot.
    enum Attempt {
        /// The credential is not the one this slot was made with.
        case wrongCredential
        case opened(MasterKey)
    }

    /// Derives the KEK from `secret`; a check mismatch is a wrong credential,
    /// a check match whose wrapped key does not open is damage (throws).
    func open(with secret: SecretBytes, vaultID: [UInt8]) throws -> Attempt {
        let kek = try Keyslot.deriveKEK(kind: kind, secret: secret, salt: salt, kdf: kdf, vaultID: vaultID)
        guard constantTimeEquals(check, Keyslot.checkValue(kek: kek, vaultID: vaultID)) else { return .wrongCredential }
        do {
            let masterKey = try AESGCM.open(wrappedMasterKey, key: kek, aad: AAD.keyslot(vaultID: vaultID, describing: describingBytes))
            guard masterKey.count == AESGCM.keySize else { throw MalformedInput(.violates(.masterKeySize)) }
            return .opened(MasterKey(masterKey))
        } catch is CryptoError {
            throw MalformedInput(.violates(.keyslotOpensOnlyItsCheck))
        }
    }

    private static func deriveKEK(kind: Kind, secret: SecretBytes, salt: [UInt8], kdf: Scrypt.Parameters, vaultID: [UInt8]) throws
        -> SecretBytes
    {
        switch kind {
        case .passphrase:
            return try Scrypt.deriveKey(passphrase: secret, salt: salt, parameters: kdf)
        case .keyFile:
            return try HKDF.deriveKey(inputKeyMaterial: secret, salt: salt, info: KeyLabel.keyFile.bytes + vaultID)
        case .desktopKeyring:
            return try HKDF.deriveKey(inputKeyMaterial: secret, salt: salt, info: KeyLabel.desktopKeyring.bytes + vaultID)
        }
    }

    private static func checkValue(kek: SecretBytes, vaultID: [UInt8]) -> [UInt8] {
        Array(HMAC.sha256(key: kek, data: KeyLabel.keyslotCheck.bytes + vaultID).prefix(VaultFile.checkSize))
    }
}
