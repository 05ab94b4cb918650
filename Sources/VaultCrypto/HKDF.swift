/// HKDF with SHA-256 (RFC 5869).
package enum HKDF {
    /// HKDF-SHA256 (RFC 5869), extract-and-expand: derives `length` bytes from the input key
    /// material, an optional (possibly empty) salt and context `info`, through `HKDFExpander`.
    /// Throws `CryptoError.invalidParameters` if `length` is not 1...8160 (255 hash blocks),
    /// `CryptoError.openSSL` if OpenSSL cannot provide HMAC-SHA256.
    package static func deriveKey(
        inputKeyMaterial: SecretBytes, salt: [UInt8], info: [UInt8],
        length: Int = 32
    ) throws -> SecretBytes {
        guard (1...HKDFExpander.maximumLength).contains(length) else {
            throw CryptoError.invalidParameters("HKDF-SHA256 output length must be 1...8160, got \(length)")
        }
        return try HKDFExpander(inputKeyMaterial: inputKeyMaterial, salt: salt).expand(info: info, length: length)
    }
}
