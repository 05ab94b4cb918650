import VaultCrypto

/// One Secret Service session: how secrets cross the bus between the provider and the client
/// connection that opened it (and no other).
final class TransferSession {
    /// The unique bus name of the connection that opened it.
    let owner: String
    let path: String
    /// nil for the `plain` algorithm; the AES-128 key of a `dh-ietf1024-sha256-aes128-cbc-pkcs7` one.
    private let key: SecretBytes?

    init(owner: String, path: String, key: SecretBytes?) {
        self.owner = owner
        self.path = path
        self.key = key
    }

    /// The algorithm names the provider offers.
    static let plain = "plain"
    static let diffieHellman = "dh-ietf1024-sha256-aes128-cbc-pkcs7"

    /// The 16-byte AES key both sides derive from the DH shared secret: HKDF-SHA256, no salt, no info
    /// (as gnome-keyring and libsecret do).
    static func transferKey(sharedSecret: SecretBytes) throws -> SecretBytes {
        try HKDF.deriveKey(inputKeyMaterial: sharedSecret, salt: [], info: [], length: AES128CBC.keySize)
    }

    /// A `(oayays)` Secret struct carrying `secret`: in the clear for `plain`, else encrypted under a fresh IV.
    func encode(_ secret: SecretBytes, contentType: String) throws -> DBusValue {
        guard let key else {
            return .structure([.objectPath(path), .bytes([]), .bytes(secret.copyBytes()), .string(contentType)])
        }
        let iv = SecureRandom.bytes(AES128CBC.ivSize)
        let sealed = try AES128CBC.encrypt(secret, key: key, iv: iv)
        return .structure([.objectPath(path), .bytes(iv), .bytes(sealed), .string(contentType)])
    }

    /// The secret a client sent in a Secret struct's parameters and value; throws for a bad IV or padding.
    func decode(parameters: [UInt8], value: [UInt8]) throws -> SecretBytes {
        guard let key else { return SecretBytes(value) }
        return try AES128CBC.decrypt(value, key: key, iv: parameters)
    }
}
