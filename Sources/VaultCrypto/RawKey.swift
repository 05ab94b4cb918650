internal import COpenSSL

/// OpenSSL key objects of 32-byte raw keys, as RFC 7748 (X25519) and RFC 8032 (Ed25519) encode them.
enum RawKey {
    static let size = 32

    /// An EVP_PKEY of `type` (`EVP_PKEY_X25519`, `EVP_PKEY_ED25519`) for `privateKey`; the caller frees it.
    /// Throws `CryptoError.invalidParameters` for a key of another size.
    static func privateKeyObject(_ privateKey: SecretBytes, type: Int32, name: String) throws -> OpaquePointer {
        guard privateKey.count == size else {
            throw CryptoError.invalidParameters("an \(name) private key is \(size) bytes, got \(privateKey.count)")
        }
        return try privateKey.withUnsafeBytes { bytes in
            try check(
                EVP_PKEY_new_raw_private_key(type, nil, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size),
                "EVP_PKEY_new_raw_private_key")
        }
    }

    /// The public key of `privateKey` of `type`, 32 bytes.
    static func publicKey(of privateKey: SecretBytes, type: Int32, name: String) throws -> [UInt8] {
        let key = try privateKeyObject(privateKey, type: type, name: name)
        defer { EVP_PKEY_free(key) }
        var publicKey = [UInt8](repeating: 0, count: size)
        var length = size
        try check(EVP_PKEY_get_raw_public_key(key, &publicKey, &length), "EVP_PKEY_get_raw_public_key")
        guard length == size else { throw CryptoError.openSSL("EVP_PKEY_get_raw_public_key: \(length) bytes") }
        return publicKey
    }
}
