internal import COpenSSL
import Synchronization

/// HKDF-SHA256 (RFC 5869) with the extract step run once, for many keys that share input key
/// material and salt and differ only in `info` — the record keys of one group and class — and
/// for `HKDF.deriveKey`.
///
/// OpenSSL's EVP_KDF "HKDF" fetches HMAC and SHA-256 by name and builds its contexts on each
/// call. Here PRK = HMAC(salt, IKM) is computed once and an HMAC context keyed with it is kept;
/// each expand block T(i) = HMAC(PRK, T(i-1) ‖ info ‖ i) runs on a duplicate of that context.
package final class HKDFExpander {
    /// The length of every key `deriveKey` gives: one SHA-256 block of expand output.
    package static let keySize = 32
    /// The longest expand output: 255 blocks.
    package static let maximumLength = 255 * keySize

    private let keyedContext: OpaquePointer
    private let keyedContextInUse = Mutex(())

    /// Runs the extract step for `inputKeyMaterial` and `salt` (possibly empty).
    /// Throws `CryptoError.openSSL` if OpenSSL cannot provide HMAC-SHA256.
    package init(inputKeyMaterial: SecretBytes, salt: [UInt8]) throws {
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
    package func deriveKey(info: UnsafeRawBufferPointer) -> SecretBytes {
        expand(info: info, length: Self.keySize)
    }

    /// `deriveKey(info:)` for a byte array.
    package func deriveKey(info: [UInt8]) -> SecretBytes {
        info.withUnsafeBytes { deriveKey(info: $0) }
    }

    /// The first `length` bytes (1...8160) of the expand output for `info`. Never throws (see `deriveKey`).
    package func expand(info: [UInt8], length: Int) -> SecretBytes {
        info.withUnsafeBytes { expand(info: $0, length: length) }
    }

    private func expand(info: UnsafeRawBufferPointer, length: Int) -> SecretBytes {
        precondition((1...Self.maximumLength).contains(length), "HKDF-SHA256 output length \(length)")
        let output = SecretBytes(count: length)
        if length == Self.keySize {
            // One block, T(1), straight into the output: a key per record, so no second buffer each.
            output.withUnsafeMutableBytes { expandBlock(previous: nil, info: info, counter: 1, into: $0) }
            return output
        }
        let block = SecretBytes(count: Self.keySize)  // T(i), fed into T(i+1)
        output.withUnsafeMutableBytes { out in
            block.withUnsafeMutableBytes { block in
                var counter: UInt8 = 1
                for start in stride(from: 0, to: length, by: Self.keySize) {
                    expandBlock(previous: counter == 1 ? nil : UnsafeRawBufferPointer(block), info: info, counter: counter, into: block)
                    out.baseAddress!.advanced(by: start).copyMemory(from: block.baseAddress!, byteCount: min(Self.keySize, length - start))
                    counter &+= 1
                }
            }
        }
        return output
    }

    /// T(i) = HMAC(PRK, T(i-1) ‖ info ‖ i) into `block` (32 bytes).
    private func expandBlock(
        previous: UnsafeRawBufferPointer?, info: UnsafeRawBufferPointer, counter: UInt8,
        into block: UnsafeMutableRawBufferPointer
    ) {
        let context = keyedContext
        keyedContextInUse.withLock { _ in
            var counter = counter
            var length = 0
            // A key of nil starts a new MAC under the key the context holds.
            let fed =
                EVP_MAC_init(context, nil, 0, nil) == 1
                && [previous, info].allSatisfy { piece in
                    guard let piece, !piece.isEmpty else { return true }
                    return EVP_MAC_update(context, piece.baseAddress!.assumingMemoryBound(to: UInt8.self), piece.count) == 1
                } && EVP_MAC_update(context, &counter, 1) == 1
            guard fed, EVP_MAC_final(context, block.baseAddress!.assumingMemoryBound(to: UInt8.self), &length, Self.keySize) == 1,
                length == Self.keySize
            else {
                fatalError("HKDF-SHA256: HMAC expand failed")
            }
        }
    }
}
