#if canImport(Glibc)
import Glibc
#endif

/// Patterns gathered end to end in locked memory, what a `PrefixMatcher` is built from: the
/// masker appends each secret straight from its `SecretBytes`, so no pattern is ever copied into
/// ordinary heap memory on the way.
struct PatternList {
    /// The patterns' bytes back to back; the first `byteCount` are used.
    private(set) var bytes = LockedBuffer<UInt8>(count: 256)
    private(set) var byteCount = 0
    /// Where pattern `id` begins in `bytes`, and at `count` the end of the last one.
    private(set) var starts = LockedBuffer<Int32>(count: 64)
    /// How many patterns there are.
    private(set) var count = 0

    /// Appends one pattern.
    mutating func append(_ pattern: UnsafeRawBufferPointer) {
        while byteCount + pattern.count > bytes.count { bytes = bytes.grown(to: 2 * bytes.count) }
        while count + 2 > starts.count { starts = starts.grown(to: 2 * starts.count) }
        if let source = pattern.baseAddress { memcpy(bytes.base + byteCount, source, pattern.count) }
        starts[count] = Int32(byteCount)
        byteCount += pattern.count
        count += 1
        starts[count] = Int32(byteCount)
    }

    /// The length of pattern `id`.
    func length(of id: Int) -> Int { Int(starts[id + 1] - starts[id]) }

    /// The first byte of pattern `id`.
    func start(of id: Int) -> UnsafeMutablePointer<UInt8> { bytes.base + Int(starts[id]) }
}

extension PatternList {
    /// A list of `patterns` (tests, and `vault scan`'s encoded forms).
    init(_ patterns: [[UInt8]]) {
        self.init()
        for pattern in patterns { pattern.withUnsafeBytes { append($0) } }
    }
}

extension LockedBuffer {
    /// A buffer of `count` elements holding this one's at its start; this one is released.
    func grown(to count: Int) -> LockedBuffer {
        let larger = LockedBuffer(count: count)
        memcpy(larger.base, base, self.count * MemoryLayout<Element>.stride)
        release()
        return larger
    }
}
