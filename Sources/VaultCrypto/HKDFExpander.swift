internal import COpenSSL

/// HKDF-SHA256 (RFC 5869) for many 32-byte keys that share input key material
/// and salt and differ only in `info` — the record keys of one group and class.
///
/// `HKDF.deriveKey` runs extract and expand through EVP_KDF for every key, and
/// OpenSSL's HKDF fetches HMAC and SHA-256 by name and builds its contexts on
/// each call. Here the extract step, PRK = HMAC(salt, IKM), runs once; an
/// HMAC context keyed with the PRK is kept, and each key is T(1) = HMAC(PRK,
/// info ‖ 0x01) from a duplicate of that context (a 32-byte output is one
/// expand block). The output is byte for byte `HKDF.deriveKey`'s.
public final class HKDFExpander {
    /// The length of every key it derives: one SHA-256 block of expand output.
    public static let keySize = 32

    private let keyedContext: OpaquePointer

    /// Runs the extract step for `inputKeyMaterial` and `salt` (possibly empty).
    /// Throws `CryptoError.openSSL` if OpenSSL cannot provide HMAC-SHA256.
    public init(inputKeyMaterial: SecretBytes, salt: [UInt8]) throws {
        let extract = try HMACSHA256(key: SecretBytes(salt))
        inputKeyMaterial.withUnsafeBytes { extract.update($0) }
        let pseudorandomKey = SecretBytes(count: HMACSHA256.macSize)
        extract.finalize(into: pseudorandomKey)
        keyedContext = try HMACSHA256.keyedContext(pseudorandomKey)
    }

    deinit {
        EVP_MAC_CTX_free(keyedContext)
    }

    /// The 32-byte HKDF-SHA256 output for `info`. Never throws: OpenSSL can only
    /// fail here if memory runs out, and then the process stops with `fatalError`.
    public func deriveKey(info: UnsafeRawBufferPointer) -> SecretBytes {
        guard let context = EVP_MAC_CTX_dup(keyedContext) else { fatalError("HKDF-SHA256: EVP_MAC_CTX_dup failed") }
        defer { EVP_MAC_CTX_free(context) }
        let key = SecretBytes(count: Self.keySize)
        var counter: UInt8 = 1
        key.withUnsafeMutableBytes { out in
            let output = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var length = 0
            let fed = (info.isEmpty || EVP_MAC_update(context, info.baseAddress!.assumingMemoryBound(to: UInt8.self), info.count) == 1)
                && EVP_MAC_update(context, &counter, 1) == 1
            guard fed, EVP_MAC_final(context, output, &length, Self.keySize) == 1, length == Self.keySize else {
                fatalError("HKDF-SHA256: HMAC expand failed")
            }
        }
        return key
    }

    /// `deriveKey(info:)` for a byte array.
    public func deriveKey(info: [UInt8]) -> SecretBytes {
        info.withUnsafeBytes { deriveKey(info: $0) }
    }
}
