import VaultCrypto

/// An Ed25519 private key of one role (docs/TEAMS.md, "Trust"), held as the symmetric keys are
/// (`TypedKey`: locked memory, compared in constant time), with its public key a type of the role
/// too, so a signing key cannot be passed where the trust key is wanted, nor either as bytes.
protocol SignatureKey: TypedKey {
    associatedtype PublicKey: SignaturePublicKey
}

extension SignatureKey {
    /// A fresh random key of Ed25519's size.
    static func random() -> Self { Self(SecretBytes(random: Ed25519.keySize)) }

    /// Its public key.
    func publicKey() throws -> PublicKey { PublicKey(bytes: try Ed25519.publicKey(of: secret)) }

    /// Its signature of `message`.
    func sign(_ message: [UInt8]) throws -> [UInt8] { try Ed25519.sign(message, privateKey: secret) }
}

/// The public key of a `SignatureKey`, as the header holds it (32 bytes; none in a v1 file).
protocol SignaturePublicKey: Equatable {
    /// The key's bytes, for the header's layout and the AADs that bind it (File/).
    var bytes: [UInt8] { get }
    init(bytes: [UInt8])
}

extension SignaturePublicKey {
    /// Whether `signature` is this key's signature of `message`.
    func isValid(signature: [UInt8], of message: [UInt8]) -> Bool {
        Ed25519.isValid(signature: signature, of: message, publicKey: bytes)
    }
}

/// The key epoch's signing key, held with the wrap key: the owner and full members sign every
/// header they write with it; a re-key replaces it.
struct SigningKey: SignatureKey {
    typealias PublicKey = SigningPublicKey
    let secret: SecretBytes
}

/// The signing key's public key, which the trust statement names.
struct SigningPublicKey: SignaturePublicKey {
    let bytes: [UInt8]
}

/// The vault's trust key, held with the master key alone: it signs the trust statement that
/// vouches for each key epoch's signing key.
struct TrustKey: SignatureKey {
    typealias PublicKey = TrustPublicKey
    let secret: SecretBytes
}

/// The trust key's public key (TP), whose SHA-256 is the trust fingerprint readers pin.
struct TrustPublicKey: SignaturePublicKey {
    let bytes: [UInt8]

    /// The SHA-256 of the key, in hex: what `vault trust` prints and readers pin.
    var fingerprint: String { hex(SHA256.hash(bytes)) }
}
