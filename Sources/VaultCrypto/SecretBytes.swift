#if canImport(Glibc)
import Glibc
#endif
internal import COpenSSL

/// A buffer of secret bytes (keys, passphrases, plaintexts) that owns its memory.
///
/// The buffer lives in `LockedArena.shared`: memory locked into RAM where the
/// process is allowed to, excluded from core dumps, and wiped with
/// `OPENSSL_cleanse` in `deinit`. Contents are reachable only through
/// `withUnsafeBytes`, `withUnsafeMutableBytes` and `copyBytes()`; the
/// descriptions print only the size.
public final class SecretBytes: @unchecked Sendable {
    private let base: UnsafeMutableRawPointer

    /// The number of secret bytes.
    public let count: Int

    /// Allocates `count` zero bytes. Never throws; traps if `count` is negative or memory is exhausted.
    package init(count: Int) {
        precondition(count >= 0, "SecretBytes count must not be negative")
        // The arena hands out zeroed memory, and a valid pointer even for 0 bytes (OpenSSL wants one).
        base = LockedArena.shared.allocate(byteCount: count)
        self.count = count
    }

    /// Copies `bytes` into a new secret buffer. Never throws.
    public convenience init(_ bytes: [UInt8]) {
        self.init(count: bytes.count)
        bytes.withUnsafeBytes { copyIn($0) }
    }

    /// Copies `bytes` into a new secret buffer. Never throws.
    public convenience init(_ bytes: ArraySlice<UInt8>) {
        self.init(count: bytes.count)
        bytes.withUnsafeBytes { copyIn($0) }
    }

    /// Copies the bytes of `buffer` into a new secret buffer. Never throws.
    public convenience init(_ buffer: UnsafeRawBufferPointer) {
        self.init(count: buffer.count)
        copyIn(buffer)
    }

    /// Fills a new secret buffer with `count` bytes from OpenSSL's CSPRNG (`RAND_bytes`).
    /// Never throws; traps if the CSPRNG fails, as `SecureRandom.bytes` does.
    package convenience init(random count: Int) {
        self.init(count: count)
        SecureRandom.fill(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    deinit {
        LockedArena.shared.deallocate(base, byteCount: count)
    }

    private func copyIn(_ source: UnsafeRawBufferPointer) {
        if let start = source.baseAddress, source.count > 0 {
            base.copyMemory(from: start, byteCount: source.count)
        }
    }

    /// Calls `body` with a read-only view of the secret bytes; the pointer must not escape `body`.
    /// Rethrows whatever `body` throws.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Calls `body` with a writable view of the secret bytes; the pointer must not escape `body`.
    /// Rethrows whatever `body` throws.
    package func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// Constant-time comparison (CRYPTO_memcmp), false when sizes differ. Never throws.
    package func constantTimeEquals(_ other: SecretBytes) -> Bool {
        guard count == other.count else { return false }
        return CRYPTO_memcmp(base, other.base, count) == 0
    }

    /// A new SecretBytes holding self followed by other (for key concatenation). Never throws.
    package func appending(_ other: SecretBytes) -> SecretBytes {
        let result = SecretBytes(count: count + other.count)
        result.base.copyMemory(from: base, byteCount: count)
        (result.base + count).copyMemory(from: other.base, byteCount: other.count)
        return result
    }

    /// Copies the bytes out into an Array — only for writing into a sealed buffer / file at the last moment.
    /// The copy is ordinary memory that is neither locked nor wiped. Never throws.
    public func copyBytes() -> [UInt8] {
        [UInt8](UnsafeRawBufferPointer(start: base, count: count))
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// "SecretBytes(N bytes)": the size only, never the contents.
    public var description: String { "SecretBytes(\(count) bytes)" }

    /// Same as `description`: the size only, never the contents.
    public var debugDescription: String { description }

    /// A mirror with no children, so `dump` and debuggers' summaries show no contents.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .class) }
}

/// Constant-time comparison of two byte arrays (CRYPTO_memcmp), false when sizes differ.
/// Only the contents are compared in constant time; the sizes are not secret. Never throws.
package func constantTimeEquals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0
}

/// `constantTimeEquals` for byte arrays.
package func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in constantTimeEquals(pa, pb) } }
}
