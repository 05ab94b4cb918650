internal import COpenSSL

/// SHA-256 (FIPS 180-4).
package enum SHA256 {
    /// Digest length in bytes.
    package static let digestSize = 32

    // Fetched once: with EVP_sha256(), every EVP_Digest fetches the implementation by name again.
    nonisolated(unsafe) private static let digest = EVP_MD_fetch(nil, "SHA256", nil)

    /// Returns the 32-byte SHA-256 digest of `data`. Never throws: OpenSSL can only fail here if
    /// SHA-256 is missing or memory runs out, and then the process stops with `fatalError`.
    package static func hash(_ data: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: digestSize) { out, initialized in
            hash(data, into: UnsafeMutableRawBufferPointer(out))
            initialized = digestSize
        }
    }

    /// Writes the 32-byte SHA-256 digest of `data` into `out` (at least 32 bytes): no allocation,
    /// for checks made once per record.
    package static func hash(_ data: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= digestSize, "a SHA-256 digest needs \(digestSize) bytes")
        var length: UInt32 = 0
        // EVP_Digest wants a valid pointer even for empty input.
        var empty: UInt8 = 0
        do {
            try withUnsafeMutableBytes(of: &empty) { spare in
                let input = data.baseAddress ?? UnsafeRawPointer(spare.baseAddress!)
                try check(
                    EVP_Digest(
                        input, data.count, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length,
                        try check(digest, "EVP_MD_fetch(SHA256)"), nil), "EVP_Digest")
            }
        } catch {
            fatalError("SHA-256: \(error)")
        }
        precondition(length == UInt32(digestSize), "SHA-256 produced \(length) bytes")
    }

    /// Returns the SHA-256 digest of a byte array; see `hash(_:)`. Never throws.
    package static func hash(_ data: [UInt8]) -> [UInt8] {
        data.withUnsafeBytes { hash($0) }
    }
}
