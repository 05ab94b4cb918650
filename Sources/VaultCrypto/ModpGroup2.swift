internal import COpenSSL

/// Diffie-Hellman in the 1024-bit MODP group of RFC 2409 (its "second Oakley group", generator 2):
/// the group of the Secret Service's `dh-ietf1024-sha256-aes128-cbc-pkcs7` session algorithm.
/// It is weak by today's measure; the Secret Service fixes it, and only a program on the same
/// session bus, which could ask for the secrets anyway, sees the exchange.
package final class ModpGroup2KeyPair: @unchecked Sendable {
    /// The size of the prime, of a public key and of the shared secret, in bytes.
    package static let byteCount = 128
    private let privateKey: SecretBytes
    /// This side's public key, 2^private mod p, big-endian, left-padded to 128 bytes.
    package let publicKey: [UInt8]

    /// A fresh key pair: a private exponent of 1024 random bits.
    package convenience init() throws {
        try self.init(privateKey: SecretBytes(random: ModpGroup2KeyPair.byteCount))
    }

    /// The key pair of a given private exponent (big-endian), for known-answer tests.
    package init(privateKey: SecretBytes) throws {
        self.privateKey = privateKey
        let generator = try BigNumber(word: 2)
        publicKey = try generator.power(privateKey, modulo: BigNumber.modpGroup2Prime()).bytes(padded: ModpGroup2KeyPair.byteCount)
    }

    /// The shared secret with the peer's public key (big-endian, any length up to 128 bytes), left-padded to 128 bytes.
    /// Throws `invalidParameters` for a public key outside 2...p-2 (which would give a guessable secret).
    package func sharedSecret(peerPublicKey: [UInt8]) throws -> SecretBytes {
        let prime = try BigNumber.modpGroup2Prime()
        guard peerPublicKey.count <= ModpGroup2KeyPair.byteCount else {
            throw CryptoError.invalidParameters("a MODP group 2 public key has at most 128 bytes, got \(peerPublicKey.count)")
        }
        let peer = try BigNumber(bytes: peerPublicKey)
        let highest = try prime.minus(word: 1)
        guard peer.compare(try BigNumber(word: 1)) > 0, peer.compare(highest) < 0 else {
            throw CryptoError.invalidParameters("the peer's MODP group 2 public key is not within 2...p-2")
        }
        let shared = try peer.power(privateKey, modulo: prime).bytes(padded: ModpGroup2KeyPair.byteCount)
        let secret = SecretBytes(shared)
        var wipe = shared
        OPENSSL_cleanse(&wipe, wipe.count)
        return secret
    }
}

/// One OpenSSL BIGNUM, owned and freed (cleared first).
private final class BigNumber {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer?) throws {
        self.pointer = try check(pointer, "BN_new")
    }

    convenience init(word: UInt) throws {
        try self.init(owning: BN_new())
        try check(BN_set_word(pointer, word), "BN_set_word")
    }

    convenience init(bytes: [UInt8]) throws {
        try self.init(owning: BN_bin2bn(bytes, Int32(bytes.count), nil))
    }

    static func modpGroup2Prime() throws -> BigNumber {
        try BigNumber(owning: BN_get_rfc2409_prime_1024(nil))
    }

    deinit { BN_clear_free(pointer) }

    func compare(_ other: BigNumber) -> Int32 { BN_cmp(pointer, other.pointer) }

    func minus(word: UInt) throws -> BigNumber {
        let result = try BigNumber(owning: BN_dup(pointer))
        try check(BN_sub_word(result.pointer, word), "BN_sub_word")
        return result
    }

    /// self^exponent mod modulus, the exponent's bits handled in constant time.
    func power(_ exponent: SecretBytes, modulo modulus: BigNumber) throws -> BigNumber {
        let secretExponent = try exponent.withUnsafeBytes { raw in
            try BigNumber(owning: BN_secure_new()).loading(raw)
        }
        BN_set_flags(secretExponent.pointer, BN_FLG_CONSTTIME)
        let context = try check(BN_CTX_new(), "BN_CTX_new")
        defer { BN_CTX_free(context) }
        let result = try BigNumber(owning: BN_new())
        try check(BN_mod_exp(result.pointer, pointer, secretExponent.pointer, modulus.pointer, context), "BN_mod_exp")
        return result
    }

    private func loading(_ raw: UnsafeRawBufferPointer) throws -> BigNumber {
        let base = raw.bindMemory(to: UInt8.self).baseAddress
        guard BN_bin2bn(base, Int32(raw.count), pointer) != nil else { throw openSSLError("BN_bin2bn") }
        return self
    }

    func bytes(padded length: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        guard BN_bn2binpad(pointer, &out, Int32(length)) == Int32(length) else { throw openSSLError("BN_bn2binpad") }
        return out
    }
}
