internal import COpenSSL
import Synchronization

/// AES-256-GCM authenticated encryption (NIST SP 800-38D) with 96-bit nonces and 128-bit tags.
package enum AESGCM {
    /// Key length in bytes (AES-256).
    package static let keySize = 32
    /// Nonce length in bytes (96 bits, the size GCM handles without hashing the IV).
    package static let nonceSize = 12
    /// Authentication tag length in bytes (128 bits).
    package static let tagSize = 16

    // Fetched once: EVP_aes_256_gcm() makes every EVP_*Init_ex fetch the implementation
    // again (OpenSSL 3's implicit fetch), which cost more than opening a small record.
    nonisolated(unsafe) private static let cipher = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)

    // EVP_*Update take an int length, so large inputs go through in pieces.
    private static let maxPiece = 1 << 30

    // MARK: seal

    /// Seals plaintext under a 256-bit key with a fresh random 96-bit nonce; returns nonce ‖ ciphertext ‖ tag.
    /// Throws `CryptoError.invalidParameters` if the key is not 32 bytes, `CryptoError.openSSL` if OpenSSL fails.
    package static func seal(_ plaintext: UnsafeRawBufferPointer, key: SecretBytes, aad: [UInt8]) throws -> [UInt8] {
        try checkKey(key)
        let nonce = SecureRandom.bytes(nonceSize)
        var box = [UInt8](repeating: 0, count: nonceSize + plaintext.count + tagSize)
        try box.withUnsafeMutableBytes { out in
            out.copyBytes(from: nonce)
            try nonce.withUnsafeBytes { n in
                try encrypt(
                    plaintext, key: key, nonce: n, aad: aad,
                    into: UnsafeMutableRawBufferPointer(rebasing: out[nonceSize...]))
            }
        }
        return box
    }

    /// Seals a byte array; see `seal(_:key:aad:)` for the output and what it throws.
    package static func seal(_ plaintext: [UInt8], key: SecretBytes, aad: [UInt8]) throws -> [UInt8] {
        try plaintext.withUnsafeBytes { try seal($0, key: key, aad: aad) }
    }

    /// Seals secret bytes; see `seal(_:key:aad:)` for the output and what it throws.
    package static func seal(_ plaintext: SecretBytes, key: SecretBytes, aad: [UInt8]) throws -> [UInt8] {
        try plaintext.withUnsafeBytes { try seal($0, key: key, aad: aad) }
    }

    /// Same with an explicit nonce (for known-answer tests and fixed vectors only); returns ciphertext ‖ tag (no nonce).
    /// Never reuse a nonce with the same key. Throws `CryptoError.invalidParameters` if the key is not
    /// 32 bytes or the nonce not 12, `CryptoError.openSSL` if OpenSSL fails.
    package static func seal(_ plaintext: [UInt8], key: SecretBytes, nonce: [UInt8], aad: [UInt8]) throws -> [UInt8] {
        try checkKey(key)
        try checkNonce(nonce)
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagSize)
        try sealed.withUnsafeMutableBytes { out in
            try plaintext.withUnsafeBytes { p in
                try nonce.withUnsafeBytes { n in try encrypt(p, key: key, nonce: n, aad: aad, into: out) }
            }
        }
        return sealed
    }

    // MARK: open

    /// Opens nonce ‖ ciphertext ‖ tag and returns the plaintext as SecretBytes.
    /// Throws `CryptoError.authenticationFailed` on any mismatch (including input shorter than nonce+tag),
    /// `CryptoError.invalidParameters` if the key is not 32 bytes, `CryptoError.openSSL` if OpenSSL fails.
    package static func open(_ box: UnsafeRawBufferPointer, key: SecretBytes, aad: [UInt8]) throws -> SecretBytes {
        try checkKey(key)
        guard box.count >= nonceSize + tagSize else { throw CryptoError.authenticationFailed }
        return try decrypt(
            ciphertext: UnsafeRawBufferPointer(rebasing: box[nonceSize..<box.count - tagSize]),
            tag: UnsafeRawBufferPointer(rebasing: box[(box.count - tagSize)...]),
            key: key,
            nonce: UnsafeRawBufferPointer(rebasing: box[..<nonceSize]),
            aad: aad)
    }

    /// Opens a box whose plaintext is not secret into ordinary memory: no locked region, no wipe when
    /// it is freed (vault's listing blocks hold items' attributes, never a secret; what is listed is
    /// printed from ordinary strings anyway). Throws as `open(_:key:aad:)` does.
    package static func openNonSecret(_ box: UnsafeRawBufferPointer, key: SecretBytes, aad: [UInt8]) throws -> [UInt8] {
        try checkKey(key)
        guard box.count >= nonceSize + tagSize else { throw CryptoError.authenticationFailed }
        let count = box.count - nonceSize - tagSize
        // A capacity of at least one: the buffer then always has an address, even for no plaintext.
        return try [UInt8](unsafeUninitializedCapacity: max(count, 1)) { out, initialized in
            try aad.withUnsafeBytes { aad in
                try decrypt(
                    ciphertext: UnsafeRawBufferPointer(rebasing: box[nonceSize..<box.count - tagSize]),
                    tag: UnsafeRawBufferPointer(rebasing: box[(box.count - tagSize)...]),
                    key: key, nonce: UnsafeRawBufferPointer(rebasing: box[..<nonceSize]), aad: aad,
                    into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(out)[..<count]))
            }
            initialized = count
        }
    }

    /// Opens a byte array; see `open(_:key:aad:)` for the input and what it throws.
    package static func open(_ box: [UInt8], key: SecretBytes, aad: [UInt8]) throws -> SecretBytes {
        try box.withUnsafeBytes { try open($0, key: key, aad: aad) }
    }

    /// Opens an array slice; see `open(_:key:aad:)` for the input and what it throws.
    package static func open(_ box: ArraySlice<UInt8>, key: SecretBytes, aad: [UInt8]) throws -> SecretBytes {
        try box.withUnsafeBytes { try open($0, key: key, aad: aad) }
    }

    /// KAT form: explicit nonce, input ciphertext ‖ tag. Throws `CryptoError.authenticationFailed` on any
    /// mismatch (including input shorter than the tag), `CryptoError.invalidParameters` if the key is not
    /// 32 bytes or the nonce not 12, `CryptoError.openSSL` if OpenSSL fails.
    package static func open(ciphertextAndTag: [UInt8], key: SecretBytes, nonce: [UInt8], aad: [UInt8]) throws -> SecretBytes {
        try checkKey(key)
        try checkNonce(nonce)
        guard ciphertextAndTag.count >= tagSize else { throw CryptoError.authenticationFailed }
        return try ciphertextAndTag.withUnsafeBytes { input in
            try nonce.withUnsafeBytes { n in
                try decrypt(
                    ciphertext: UnsafeRawBufferPointer(rebasing: input[..<(input.count - tagSize)]),
                    tag: UnsafeRawBufferPointer(rebasing: input[(input.count - tagSize)...]),
                    key: key, nonce: n, aad: aad)
            }
        }
    }

    // MARK: OpenSSL

    private static func checkKey(_ key: SecretBytes) throws {
        guard key.count == keySize else {
            throw CryptoError.invalidParameters("AES-256-GCM key must be \(keySize) bytes, got \(key.count)")
        }
    }

    private static func checkNonce(_ nonce: [UInt8]) throws {
        guard nonce.count == nonceSize else {
            throw CryptoError.invalidParameters("AES-GCM nonce must be \(nonceSize) bytes, got \(nonce.count)")
        }
    }

    /// Writes ciphertext ‖ tag into `out`, which holds exactly plaintext.count + tagSize bytes.
    private static func encrypt(
        _ plaintext: UnsafeRawBufferPointer, key: SecretBytes, nonce: UnsafeRawBufferPointer,
        aad: [UInt8], into out: UnsafeMutableRawBufferPointer
    ) throws {
        let context = try aad.withUnsafeBytes { try start(encrypting: true, key: key, nonce: nonce, aad: $0) }
        let body = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var written = try update(context.pointer, plaintext, into: body)
        var finalLength: Int32 = 0
        try check(EVP_CipherFinal_ex(context.pointer, body + written, &finalLength), "EVP_CipherFinal_ex")
        written += Int(finalLength)
        guard written == plaintext.count else {
            throw CryptoError.openSSL("EVP_CipherUpdate: wrote \(written) of \(plaintext.count) bytes")
        }
        try check(
            EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_GET_TAG, Int32(tagSize), body + written),
            "EVP_CIPHER_CTX_ctrl(GET_TAG)")
    }

    private static func decrypt(
        ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer, key: SecretBytes,
        nonce: UnsafeRawBufferPointer, aad: [UInt8]
    ) throws -> SecretBytes {
        let plaintext = SecretBytes(count: ciphertext.count)
        // SecretBytes always has a valid pointer, even for 0 bytes.
        try plaintext.withUnsafeMutableBytes { out in
            try aad.withUnsafeBytes { try decrypt(ciphertext: ciphertext, tag: tag, key: key, nonce: nonce, aad: $0, into: out) }
        }
        return plaintext
    }

    /// Writes the plaintext into `out` (ciphertext.count bytes, a valid pointer even for none); on
    /// failure what it wrote is not authentic, and the caller drops it.
    private static func decrypt(
        ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer, key: SecretBytes,
        nonce: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer,
        reusing reused: CipherContext? = nil
    ) throws {
        let context = try start(encrypting: false, key: key, nonce: nonce, aad: aad, reusing: reused)
        let body = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let written = try update(context.pointer, ciphertext, into: body)
        // SET_TAG copies the tag; it only takes a mutable pointer.
        try check(
            EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_TAG, Int32(tagSize), UnsafeMutableRawPointer(mutating: tag.baseAddress!)),
            "EVP_CIPHER_CTX_ctrl(SET_TAG)")
        var finalLength: Int32 = 0
        guard EVP_CipherFinal_ex(context.pointer, body + written, &finalLength) > 0 else {
            ERR_clear_error()
            throw CryptoError.authenticationFailed
        }
    }

    /// A context keyed for one seal or open, with the associated data already fed: `reused` keyed
    /// again (it has the cipher already), or a new one.
    private static func start(
        encrypting: Bool, key: SecretBytes, nonce: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
        reusing reused: CipherContext? = nil
    ) throws -> CipherContext {
        let context = try reused ?? CipherContext()
        try key.withUnsafeBytes { k in
            try check(
                EVP_CipherInit_ex(
                    context.pointer, reused != nil ? nil : try check(cipher, "EVP_CIPHER_fetch(AES-256-GCM)"), nil,
                    k.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    nonce.baseAddress!.assumingMemoryBound(to: UInt8.self), encrypting ? 1 : 0),
                "EVP_CipherInit_ex")
        }
        // An update with no output buffer is GCM's associated-data input.
        _ = try update(context.pointer, aad, into: nil)
        return context
    }

    /// Passes `input` through the cipher into `output` (nil: associated data), in
    /// pieces that fit OpenSSL's Int32 lengths; returns how many bytes it wrote.
    private static func update(
        _ ctx: OpaquePointer, _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutablePointer<UInt8>?
    ) throws -> Int {
        guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        var read = 0
        var written = 0
        while read < input.count {
            let piece = min(input.count - read, maxPiece)
            var outLength: Int32 = 0
            try check(
                EVP_CipherUpdate(ctx, output.map { $0 + written }, &outLength, base + read, Int32(piece)),
                "EVP_CipherUpdate")
            read += piece
            written += Int(outLength)
        }
        return written
    }
}

extension AESGCM {
    /// Opens many boxes one after another on one cipher context, keyed again for each: what a
    /// read of every record uses (a context made, set up for AES-256-GCM and freed per record cost
    /// about what opening a small record does). Each box is authenticated whole, as `open` does;
    /// one caller at a time holds the context.
    package final class Opener: Sendable {
        private let context = Mutex<CipherContext?>(nil)

        /// An opener; its context is made on the first open.
        package init() {}

        /// Opens nonce ‖ ciphertext ‖ tag as `AESGCM.open(_:key:aad:)` does, and throws what it throws;
        /// the associated data is taken where it lies (a record's is built on the stack).
        package func open(_ box: UnsafeRawBufferPointer, key: SecretBytes, aad: UnsafeRawBufferPointer) throws -> SecretBytes {
            try checkKey(key)
            guard box.count >= nonceSize + tagSize else { throw CryptoError.authenticationFailed }
            let plaintext = SecretBytes(count: box.count - nonceSize - tagSize)
            try context.withLock { context in
                let reused = context
                if reused == nil {
                    let fresh = try CipherContext()
                    try check(
                        EVP_CipherInit_ex(fresh.pointer, try check(cipher, "EVP_CIPHER_fetch(AES-256-GCM)"), nil, nil, nil, 0),
                        "EVP_CipherInit_ex")
                    context = fresh
                }
                try plaintext.withUnsafeMutableBytes { out in
                    try decrypt(
                        ciphertext: UnsafeRawBufferPointer(rebasing: box[nonceSize..<box.count - tagSize]),
                        tag: UnsafeRawBufferPointer(rebasing: box[(box.count - tagSize)...]),
                        key: key, nonce: UnsafeRawBufferPointer(rebasing: box[..<nonceSize]), aad: aad,
                        into: out, reusing: context)
                }
            }
            return plaintext
        }
    }
}

/// Owns one EVP_CIPHER_CTX for the length of a seal or open, or of an `AESGCM.Opener`.
private final class CipherContext: @unchecked Sendable {
    let pointer: OpaquePointer

    init() throws {
        pointer = try check(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
    }

    deinit {
        EVP_CIPHER_CTX_free(pointer)
    }
}
