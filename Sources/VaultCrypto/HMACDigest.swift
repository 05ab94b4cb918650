internal import COpenSSL

/// The hash functions one-time codes may name (RFC 6238: SHA-1, SHA-256, SHA-512).
package enum HMACDigest: String, CaseIterable, Sendable {
    /// SHA-1: the default of one-time codes (HMAC-SHA-1 is still sound there).
    case sha1 = "SHA1"
    /// SHA-256.
    case sha256 = "SHA256"
    /// SHA-512.
    case sha512 = "SHA512"

    private var md: OpaquePointer? {
        switch self {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha512: EVP_sha512()
        }
    }

    /// One-shot HMAC of `data` under `key` with this hash (OpenSSL's `HMAC`).
    /// Never throws: OpenSSL fails here only without the digest or memory,
    /// and then the process stops with `fatalError`.
    package func mac(key: SecretBytes, data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { k in
            data.withUnsafeBytes { d in
                COpenSSL.HMAC(
                    md, k.baseAddress, Int32(k.count), d.baseAddress?.assumingMemoryBound(to: UInt8.self), d.count,
                    &out, &length)
            }
        }
        guard result != nil else { fatalError("HMAC-\(rawValue) failed in OpenSSL") }
        return Array(out.prefix(Int(length)))
    }
}
