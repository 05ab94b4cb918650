#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// Byte patterns of at least 8 bytes, found in a buffer by their first 8 bytes: a hash table of
/// those prefixes, probed only where a pattern can start, and each candidate compared whole.
/// What `vault scan` searches with: tens of thousands of secrets, each in a dozen encodings, cost
/// their bytes and a few words each here, where an Aho–Corasick automaton holds a state per byte
/// (about 150 MB at 10 000 secrets). The patterns, the table and the filters are in locked memory
/// (`LockedArena.shared`) and wiped when freed.
final class PrefixMatcher: @unchecked Sendable {
    static let prefixLength = 8

    /// The length of each pattern, by id (its index).
    let patternLengths: [Int]
    /// Every pattern, back to back; `starts[id]` is where pattern `id` begins.
    private let bytes: LockedBuffer<UInt8>
    private let starts: LockedBuffer<Int32>
    /// Pattern ids in order of their prefixes, so that the ids of one prefix are a run.
    private let order: LockedBuffer<Int32>
    /// The table: per slot a prefix, the first index of its run in `order` and the run's length (0: empty).
    private let slotPrefix: LockedBuffer<UInt64>
    private let slotRun: LockedBuffer<Int32>
    private let slotCount: LockedBuffer<Int32>
    private let mask: Int
    /// One bit per hash of a prefix: most places that start no pattern stop here.
    private let prefixBits: LockedBuffer<UInt64>
    private static let prefixBitCount = 1 << 22
    /// One bit per pair of bytes that starts a pattern, and per pair found anywhere in a pattern's prefix:
    /// where the pair that ends a window of 8 bytes is not there, no pattern starts in that window.
    private let startPairs: LockedBuffer<UInt64>
    private let windowPairs: LockedBuffer<UInt64>

    /// Compiles `patterns`, each at least `prefixLength` bytes long.
    init(patterns: [[UInt8]]) {
        precondition(patterns.allSatisfy { $0.count >= PrefixMatcher.prefixLength }, "patterns are at least 8 bytes long")
        patternLengths = patterns.map(\.count)
        let total = patterns.reduce(0) { $0 + $1.count }
        bytes = LockedBuffer(count: total)
        starts = LockedBuffer(count: patterns.count + 1)
        var offset = 0
        for (id, pattern) in patterns.enumerated() {
            starts[id] = Int32(offset)
            for byte in pattern {
                bytes[offset] = byte
                offset += 1
            }
        }
        starts[patterns.count] = Int32(offset)

        let prefixes = LockedBuffer<UInt64>(count: patterns.count)
        for id in patterns.indices { prefixes[id] = PrefixMatcher.load(bytes.base + Int(starts[id])) }
        order = LockedBuffer(count: patterns.count)
        let sorted = patterns.indices.sorted { (prefixes[$0], $0) < (prefixes[$1], $1) }
        for (index, id) in sorted.enumerated() { order[index] = Int32(id) }

        var distinct = 0
        for index in 0..<patterns.count where index == 0 || prefixes[Int(order[index])] != prefixes[Int(order[index - 1])] {
            distinct += 1
        }
        var size = 16
        while size < 2 * distinct { size <<= 1 }
        mask = size - 1
        slotPrefix = LockedBuffer(count: size)
        slotRun = LockedBuffer(count: size)
        slotCount = LockedBuffer(count: size)
        prefixBits = LockedBuffer(count: PrefixMatcher.prefixBitCount / 64)
        startPairs = LockedBuffer(count: 65536 / 64)
        windowPairs = LockedBuffer(count: 65536 / 64)
        var index = 0
        while index < patterns.count {
            let prefix = prefixes[Int(order[index])]
            var end = index + 1
            while end < patterns.count, prefixes[Int(order[end])] == prefix { end += 1 }
            let hash = PrefixMatcher.hash(prefix)
            var slot = hash & mask
            while slotCount[slot] != 0 { slot = (slot + 1) & mask }
            slotPrefix[slot] = prefix
            slotRun[slot] = Int32(index)
            slotCount[slot] = Int32(end - index)
            let bit = hash >> 40 & (PrefixMatcher.prefixBitCount - 1)
            prefixBits[bit >> 6] |= 1 << UInt64(bit & 63)
            index = end
        }
        prefixes.release()
        for id in patterns.indices {
            let start = bytes.base + Int(starts[id])
            for position in 0..<(PrefixMatcher.prefixLength - 1) {
                let pair = Int(start[position]) << 8 | Int(start[position + 1])
                windowPairs[pair >> 6] |= 1 << UInt64(pair & 63)
                if position == 0 { startPairs[pair >> 6] |= 1 << UInt64(pair & 63) }
            }
        }
    }

    deinit {
        bytes.release()
        starts.release()
        order.release()
        slotPrefix.release()
        slotRun.release()
        slotCount.release()
        prefixBits.release()
        startPairs.release()
        windowPairs.release()
    }

    /// Every occurrence of every pattern that lies whole in `buffer`: `found` gets the pattern's id
    /// and the offset just past its last byte.
    func search(_ buffer: UnsafeRawBufferPointer, found: (_ id: Int, _ end: Int) -> Void) {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count >= PrefixMatcher.prefixLength else { return }
        let last = buffer.count - PrefixMatcher.prefixLength  // the last place a pattern can start
        @inline(__always) func has(_ set: LockedBuffer<UInt64>, _ at: Int) -> Bool {
            let pair = Int(base[at]) << 8 | Int(base[at + 1])
            return set[pair >> 6] & (1 << UInt64(pair & 63)) != 0
        }
        var position = 0
        while position <= last {
            // No pattern starts in a window of 8 bytes whose last pair lies in no pattern's prefix.
            if !has(windowPairs, position + PrefixMatcher.prefixLength - 2) {
                position += PrefixMatcher.prefixLength - 1
                continue
            }
            let windowEnd = min(position + PrefixMatcher.prefixLength - 2, last)
            while position <= windowEnd {
                if has(startPairs, position) { check(base, at: position, count: buffer.count, found: found) }
                position += 1
            }
        }
    }

    @inline(__always)
    private func check(_ base: UnsafePointer<UInt8>, at position: Int, count: Int, found: (_ id: Int, _ end: Int) -> Void) {
        let prefix = PrefixMatcher.load(base + position)
        let hash = PrefixMatcher.hash(prefix)
        let bit = hash >> 40 & (PrefixMatcher.prefixBitCount - 1)
        guard prefixBits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return }
        var slot = hash & mask
        while slotCount[slot] != 0 {
            if slotPrefix[slot] == prefix {
                let run = Int(slotRun[slot])
                for index in run..<(run + Int(slotCount[slot])) {
                    let id = Int(order[index])
                    let length = patternLengths[id]
                    if position + length <= count,
                       memcmp(base + position, bytes.base + Int(starts[id]), length) == 0 {
                        found(id, position + length)
                    }
                }
                return
            }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
    }

    /// A multiplicative hash (Fibonacci hashing) with the high bits folded down.
    @inline(__always)
    private static func hash(_ prefix: UInt64) -> Int {
        let mixed = prefix &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }
}

/// A fixed count of zeroed elements in locked memory, wiped and freed by `release`.
struct LockedBuffer<Element: BitwiseCopyable> {
    let base: UnsafeMutablePointer<Element>
    let count: Int

    init(count: Int) {
        self.count = max(count, 1)
        let byteCount = self.count * MemoryLayout<Element>.stride
        let raw = LockedArena.shared.allocate(byteCount: byteCount)
        memset(raw, 0, byteCount)
        base = raw.bindMemory(to: Element.self, capacity: self.count)
    }

    subscript(index: Int) -> Element {
        @inline(__always) get { base[index] }
        @inline(__always) nonmutating set { base[index] = newValue }
    }

    /// Wipes and frees the memory; the buffer may not be used after.
    func release() {
        let byteCount = count * MemoryLayout<Element>.stride
        memset(base, 0, byteCount)
        LockedArena.shared.deallocate(UnsafeMutableRawPointer(base), byteCount: byteCount)
    }
}
