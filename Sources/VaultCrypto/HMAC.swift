internal import COpenSSL

/// One-shot HMAC-SHA256 (RFC 2104, FIPS 198-1).
package enum HMAC {
    /// One-shot HMAC-SHA256 of `data` under `key`; returns the 32-byte MAC.
    /// Never throws: OpenSSL can only fail here if its HMAC implementation is missing or memory
    /// runs out, and then the process stops with `fatalError`.
    package static func sha256(key: SecretBytes, data: UnsafeRawBufferPointer) -> [UInt8] {
        do {
            let mac = try HMACSHA256(key: key)
            mac.update(data)
            return mac.finalize()
        } catch {
            fatalError("HMAC-SHA256: \(error)")
        }
    }

    /// One-shot HMAC-SHA256 of a byte array; see `sha256(key:data:)`. Never throws.
    package static func sha256(key: SecretBytes, data: [UInt8]) -> [UInt8] {
        data.withUnsafeBytes { sha256(key: key, data: $0) }
    }
}

/// Streaming HMAC-SHA256 for MACs over many pieces (e.g. a header plus an index of 100 000 entries) without concatenating them.
///
/// Feed pieces with `update` and call `finalize()` once; the object owns an EVP_MAC_CTX freed in deinit.
package final class HMACSHA256 {
    /// MAC output length in bytes.
    package static let macSize = 32

    /// HMAC-SHA256 keyed with the empty key, its digest set once. Every context is a duplicate of
    /// it keyed again: OpenSSL's HMAC fetches the digest by name whenever it is given one, which
    /// cost more than the MAC of a small record.
    nonisolated(unsafe) private static let template: OpaquePointer? = {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else { return nil }
        var empty: UInt8 = 0
        guard vault_hmac_sha256_init(context, &empty, 0) == 1 else {
            EVP_MAC_CTX_free(context)
            return nil
        }
        return context
    }()

    private let context: OpaquePointer
    private var finalized = false

    /// Starts an HMAC-SHA256 computation under `key` (any length; keys longer than 64 bytes are hashed first).
    /// Throws `CryptoError.openSSL` if OpenSSL cannot provide HMAC-SHA256.
    package init(key: SecretBytes) throws {
        context = try Self.keyedContext(key)
    }

    /// A new EVP_MAC_CTX for HMAC-SHA256 keyed with `key`, a duplicate of the template; the caller
    /// frees it. Throws `CryptoError.openSSL` if OpenSSL cannot provide HMAC-SHA256.
    static func keyedContext(_ key: SecretBytes) throws -> OpaquePointer {
        let context = try check(EVP_MAC_CTX_dup(try check(template, "EVP_MAC_fetch(HMAC-SHA256)")), "EVP_MAC_CTX_dup")
        do {
            try key.withUnsafeBytes { k in
                // SecretBytes always has a valid pointer, even for an empty key.
                try check(
                    EVP_MAC_init(context, k.baseAddress!.assumingMemoryBound(to: UInt8.self), k.count, nil),
                    "EVP_MAC_init(HMAC-SHA256)")
            }
        } catch {
            EVP_MAC_CTX_free(context)
            throw error
        }
        return context
    }

    deinit {
        EVP_MAC_CTX_free(context)
    }

    /// Adds `bytes` to the MAC. Never throws; traps if called after `finalize()`.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finalized, "HMACSHA256.update called after finalize()")
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        do {
            try check(EVP_MAC_update(context, start.assumingMemoryBound(to: UInt8.self), bytes.count), "EVP_MAC_update")
        } catch {
            fatalError("HMAC-SHA256: \(error)")
        }
    }

    /// Adds a byte array to the MAC; see `update(_:)`. Never throws.
    package func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Returns the 32-byte MAC of everything added. Call it once. Never throws; traps if called twice.
    package func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.macSize)
        out.withUnsafeMutableBytes { finalize(into: $0) }
        return out
    }

    /// Writes the 32-byte MAC of everything added into `mac` (32 bytes): a MAC that is itself a key
    /// never passes through ordinary memory. Call it once. Never throws; traps if called twice.
    package func finalize(into mac: SecretBytes) {
        mac.withUnsafeMutableBytes { finalize(into: $0) }
    }

    private func finalize(into out: UnsafeMutableRawBufferPointer) {
        precondition(!finalized, "HMACSHA256.finalize called twice")
        precondition(out.count == Self.macSize, "HMAC-SHA256 output buffer of \(out.count) bytes")
        finalized = true
        var length = 0
        do {
            try check(EVP_MAC_final(context, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length, out.count), "EVP_MAC_final")
        } catch {
            fatalError("HMAC-SHA256: \(error)")
        }
        precondition(length == Self.macSize, "HMAC-SHA256 produced \(length) bytes")
    }
}
