internal import COpenSSL

/// X25519 (RFC 7748) through OpenSSL's `EVP_PKEY_X25519`: public keys of private
/// keys, and the shared secret of Diffie-Hellman between two.
package enum X25519 {
    /// The size of a private key, a public key and a shared secret.
    package static let keySize = 32

    /// The public key of `privateKey` (32 bytes, as RFC 7748 encodes it).
    /// Throws `CryptoError.invalidParameters` for a key of another size.
    package static func publicKey(of privateKey: SecretBytes) throws -> [UInt8] {
        try RawKey.publicKey(of: privateKey, type: EVP_PKEY_X25519, name: "X25519")
    }

    /// The shared secret of `privateKey` and `peer`'s public key. OpenSSL refuses a result of all
    /// zeros, which a low-order (small-subgroup) public key gives: that throws `CryptoError.openSSL`.
    package static func sharedSecret(privateKey: SecretBytes, peer: [UInt8]) throws -> SecretBytes {
        guard peer.count == keySize else {
            throw CryptoError.invalidParameters("an X25519 public key is \(keySize) bytes, got \(peer.count)")
        }
        let mine = try privateKeyObject(privateKey)
        defer { EVP_PKEY_free(mine) }
        let theirs = try check(EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nil, peer, keySize), "EVP_PKEY_new_raw_public_key(X25519)")
        defer { EVP_PKEY_free(theirs) }
        let context = try check(EVP_PKEY_CTX_new(mine, nil), "EVP_PKEY_CTX_new")
        defer { EVP_PKEY_CTX_free(context) }
        try check(EVP_PKEY_derive_init(context), "EVP_PKEY_derive_init")
        try check(EVP_PKEY_derive_set_peer(context, theirs), "EVP_PKEY_derive_set_peer")
        let secret = SecretBytes(count: keySize)
        var length = keySize
        try secret.withUnsafeMutableBytes { out in
            try check(EVP_PKEY_derive(context, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length), "EVP_PKEY_derive(X25519)")
        }
        guard length == keySize else { throw CryptoError.openSSL("EVP_PKEY_derive(X25519): \(length) bytes") }
        return secret
    }

    private static func privateKeyObject(_ privateKey: SecretBytes) throws -> OpaquePointer {
        try RawKey.privateKeyObject(privateKey, type: EVP_PKEY_X25519, name: "X25519")
    }
}
