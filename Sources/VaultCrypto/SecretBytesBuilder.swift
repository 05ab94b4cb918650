#if canImport(Glibc)
import Glibc
#endif

/// Secret bytes assembled piece by piece (an env file, a filled-in template)
/// in locked memory: when it grows, the old storage is wiped as it is freed,
/// so no copy is left behind in ordinary memory.
package struct SecretBytesBuilder {
    private var storage: SecretBytes
    /// Bytes written so far.
    package private(set) var count = 0

    /// An empty builder with room for `capacity` bytes before it first grows.
    package init(capacity: Int = 4096) {
        storage = SecretBytes(count: Swift.max(capacity, 16))
    }

    /// Appends raw bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        let offset = count
        storage.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
            (target.baseAddress! + offset).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    /// Appends the bytes of a secret.
    package mutating func append(_ secret: SecretBytes) {
        secret.withUnsafeBytes { append($0) }
    }

    /// Appends the UTF-8 of text that is not secret (names, quotes, markup).
    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `bytes`, each byte for which `escape` gives text replaced by
    /// that text; the runs between are copied whole.
    package mutating func append(_ bytes: UnsafeRawBufferPointer, escaping escape: (UInt8) -> String?) {
        var runStart = 0
        for (index, byte) in bytes.enumerated() {
            guard let replacement = escape(byte) else { continue }
            append(UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
            append(replacement)
            runStart = index + 1
        }
        append(UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
    }

    /// The bytes written, as a secret of exactly that size.
    package func finish() -> SecretBytes {
        storage.withUnsafeBytes { SecretBytes(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    private mutating func reserve(_ more: Int) {
        guard count + more > storage.count else { return }
        let grown = SecretBytes(count: Swift.max(storage.count * 2, count + more))
        let used = count
        storage.withUnsafeBytes { old in
            grown.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: old.baseAddress!, byteCount: used) }
        }
        storage = grown
    }
}
