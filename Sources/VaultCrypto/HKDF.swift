internal import COpenSSL

/// HKDF with SHA-256 (RFC 5869).
public enum HKDF {
    nonisolated(unsafe) private static let kdf = EVP_KDF_fetch(nil, "HKDF", nil)

    /// HKDF-SHA256 (RFC 5869), extract-and-expand, via EVP_KDF "HKDF": derives `length` bytes
    /// from the input key material, an optional (possibly empty) salt and context `info`.
    /// Throws `CryptoError.invalidParameters` if `length` is not 1...8160 (255 hash blocks),
    /// `CryptoError.openSSL` if OpenSSL fails.
    public static func deriveKey(inputKeyMaterial: SecretBytes, salt: [UInt8], info: [UInt8],
                                 length: Int = 32) throws -> SecretBytes {
        guard (1...(255 * 32)).contains(length) else {
            throw CryptoError.invalidParameters("HKDF-SHA256 output length must be 1...8160, got \(length)")
        }
        let context = try KDFContext(try check(kdf, "EVP_KDF_fetch(HKDF)"))
        let output = SecretBytes(count: length)
        // The spare byte keeps pointers valid when salt or info is empty; SecretBytes always has one.
        let saltBuffer = salt + [0], infoBuffer = info + [0]
        try inputKeyMaterial.withUnsafeBytes { ikm in
            try saltBuffer.withUnsafeBufferPointer { s in
                try infoBuffer.withUnsafeBufferPointer { i in
                    try output.withUnsafeMutableBytes { out in
                        try check(vault_hkdf_sha256_derive(context.pointer,
                                                           ikm.baseAddress!.assumingMemoryBound(to: UInt8.self), ikm.count,
                                                           s.baseAddress, salt.count,
                                                           i.baseAddress, info.count,
                                                           out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count),
                                  "EVP_KDF_derive(HKDF)")
                    }
                }
            }
        }
        return output
    }
}

/// Owns one EVP_KDF_CTX for the length of a derivation.
private final class KDFContext {
    let pointer: OpaquePointer

    init(_ kdf: OpaquePointer) throws {
        pointer = try check(EVP_KDF_CTX_new(kdf), "EVP_KDF_CTX_new")
    }

    deinit {
        EVP_KDF_CTX_free(pointer)
    }
}
