import VaultCrypto

/// One way to unlock a vault: a key-encryption key derived from a passphrase
/// (scrypt), a key file or a desktop keyring's key (HKDF) wraps the master key. A check value tells a
/// wrong credential (exit 51) from a damaged slot (exit 93).
struct Keyslot: Equatable {
    enum Kind: UInt8 {
        case passphrase = 1
        case keyFile = 2
        /// A random key kept in the desktop keyring (`vault passwd --add-keyring-slot`).
        case desktopKeyring = 3
    }

    static let saltSize = 16
    /// Key files shorter than this are refused: they would be guessable.
    static let minimumKeyFileBytes = 32
    static let maximumKeyFileBytes = 64 * 1024

    var kind: Kind
    var salt: [UInt8]
    /// scrypt cost for passphrase slots; all zero for the others.
    var kdf: Scrypt.Parameters
    var check: [UInt8]
    var wrappedMasterKey: [UInt8]

    func encode(into w: inout ByteWriter) {
        w.raw(describingBytes)
        w.raw(wrappedMasterKey)
    }

    /// Everything but the wrapped key: the AAD the wrapped key is bound to.
    private var describingBytes: [UInt8] {
        var w = ByteWriter(capacity: 48)
        w.u8(kind.rawValue)
        w.raw(salt)
        w.u8(kdf.logN)
        w.u32(kdf.r)
        w.u32(kdf.p)
        w.raw(check)
        return w.bytes
    }

    static func decode(from r: inout ByteReader) throws -> Keyslot {
        guard let kind = Kind(rawValue: try r.u8()) else { throw MalformedInput(.violates(.unknownKeyslotKind)) }
        let salt = Array(try r.raw(saltSize))
        let kdf = Scrypt.Parameters(logN: try r.u8(), r: try r.u32(), p: try r.u32())
        let check = Array(try r.raw(VaultFile.checkSize))
        let wrapped = Array(try r.raw(VaultFile.wrappedKeySize))
        if kind == .passphrase {
            do { try kdf.validate() } catch { throw MalformedInput(.violates(.scryptParametersOutOfBounds)) }
        }
        return Keyslot(kind: kind, salt: salt, kdf: kdf, check: check, wrappedMasterKey: wrapped)
    }

    /// A new slot of `kind` that wraps `masterKey` under the key derived from `secret`.
    static func make(kind: Kind, secret: SecretBytes, kdf: Scrypt.Parameters, masterKey: MasterKey, vaultID: [UInt8]) throws -> Keyslot {
        let salt = SecureRandom.bytes(saltSize)
        let parameters = kind == .passphrase ? kdf : Scrypt.Parameters(logN: 0, r: 0, p: 0)
        let kek = try deriveKEK(kind: kind, secret: secret, salt: salt, kdf: parameters, vaultID: vaultID)
        var slot = Keyslot(kind: kind, salt: salt, kdf: parameters, check: checkValue(kek: kek, vaultID: vaultID), wrappedMasterKey: [])
        slot.wrappedMasterKey = try AESGCM.seal(masterKey.secret, key: kek, aad: AAD.keyslot(vaultID: vaultID, describing: slot.describingBytes))
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

    private static func deriveKEK(kind: Kind, secret: SecretBytes, salt: [UInt8], kdf: Scrypt.Parameters, vaultID: [UInt8]) throws -> SecretBytes {
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
