internal import COpenSSL

/// Ed25519 signatures (RFC 8032) through OpenSSL's `EVP_PKEY_ED25519`: the public
/// key of a 32-byte private key (its seed), signing, and checking a signature.
package enum Ed25519 {
    /// The size of a private key (seed) and of a public key.
    package static let keySize = 32
    /// The size of a signature.
    package static let signatureSize = 64

    /// The public key of `privateKey` (32 bytes, as RFC 8032 encodes it).
    /// Throws `CryptoError.invalidParameters` for a key of another size.
    package static func publicKey(of privateKey: SecretBytes) throws -> [UInt8] {
        try RawKey.publicKey(of: privateKey, type: EVP_PKEY_ED25519, name: "Ed25519")
    }

    /// The 64-byte signature of `message` under `privateKey`.
    package static func sign(_ message: [UInt8], privateKey: SecretBytes) throws -> [UInt8] {
        let key = try privateKeyObject(privateKey)
        defer { EVP_PKEY_free(key) }
        let context = try check(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(context) }
        try check(EVP_DigestSignInit(context, nil, nil, nil, key), "EVP_DigestSignInit(Ed25519)")
        var signature = [UInt8](repeating: 0, count: signatureSize)
        var length = signatureSize
        try check(EVP_DigestSign(context, &signature, &length, message, message.count), "EVP_DigestSign(Ed25519)")
        guard length == signatureSize else { throw CryptoError.openSSL("EVP_DigestSign(Ed25519): \(length) bytes") }
        return signature
    }

    /// Whether `signature` is a valid signature of `message` under `publicKey`. A key or
    /// signature of the wrong size, or one OpenSSL refuses, is simply not valid.
    package static func isValid(signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard publicKey.count == keySize, signature.count == signatureSize,
            let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, publicKey, keySize)
        else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signatureSize, message, message.count) == 1
    }

    private static func privateKeyObject(_ privateKey: SecretBytes) throws -> OpaquePointer {
        try RawKey.privateKeyObject(privateKey, type: EVP_PKEY_ED25519, name: "Ed25519")
    }
}
