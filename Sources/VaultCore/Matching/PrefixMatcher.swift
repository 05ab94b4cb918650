#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// Byte patterns found in a buffer by their first bytes (`prefixLength` of them: 8, or fewer when
/// a pattern is shorter): a hash table of those prefixes, probed only where the `PairFilter` says a
/// pattern can start, and each candidate compared whole. What `vault scan` and the masker of
/// `vault run` and `vault redact` search with: tens of thousands of secrets cost their bytes and a
/// few words each here, where an Aho–Corasick automaton holds a state per byte (about 150 MB at
/// 10 000 secrets in a dozen encodings). The patterns, the table and the filters are in locked
/// memory (`LockedArena.shared`) and wiped when freed.
final class PrefixMatcher: @unchecked Sendable {
    /// The most bytes a prefix has (one `UInt64`).
    static let maximumPrefixLength = 8

    /// How many leading bytes of each pattern the table holds: 8, or the shortest pattern's length.
    let prefixLength: Int
    /// The length of each pattern, by id (its index).
    let patternLengths: [Int]
    /// The longest pattern's length (0 without patterns).
    let longestPattern: Int
    /// Every pattern, back to back; `starts[id]` is where pattern `id` begins.
    private let bytes: LockedBuffer<UInt8>
    private let starts: LockedBuffer<Int32>
    /// Pattern ids in order of their prefixes, so that the ids of one prefix are a run.
    private let order: LockedBuffer<Int32>
    /// The distinct prefixes, ascending: prefixes are read big-endian, so this is their byte order.
    private let sortedPrefixes: LockedBuffer<UInt64>
    private let distinctPrefixes: Int
    /// The table: per slot a prefix, the first index of its run in `order` and the run's length (0: empty).
    private let slotPrefix: LockedBuffer<UInt64>
    private let slotRun: LockedBuffer<Int32>
    private let slotCount: LockedBuffer<Int32>
    private let mask: Int
    /// One bit per hash of a prefix, about 64 bits a prefix (up to 2^22): most places that start
    /// no pattern stop here. Sized by the patterns, so a few secrets do not cost 512 KiB to clear.
    private let prefixBits: LockedBuffer<UInt64>
    private let prefixBitShift: Int
    private static let maximumPrefixBits = 22
    private let filter: PairFilter

    /// Compiles `list`'s patterns, each at least 2 bytes long, taking over the list's memory. A
    /// pattern equal to one with a lower id is never reported: secrets repeat across items.
    init(_ list: PatternList) {
        let count = list.count
        var lengths: [Int] = []
        lengths.reserveCapacity(count)
        for id in 0..<count { lengths.append(list.length(of: id)) }
        precondition(lengths.allSatisfy { $0 >= 2 }, "patterns are at least 2 bytes long")
        prefixLength = min(lengths.min() ?? PrefixMatcher.maximumPrefixLength, PrefixMatcher.maximumPrefixLength)
        patternLengths = lengths
        longestPattern = lengths.max() ?? 0
        bytes = list.bytes
        starts = list.starts

        let prefixes = LockedBuffer<UInt64>(count: count)
        for id in 0..<count { prefixes[id] = PrefixMatcher.load(list.start(of: id), prefixLength, available: prefixLength) }
        order = LockedBuffer(count: count)
        let ordered = PrefixMatcher.distinctIDs(list, prefixes: prefixes)
        for (index, id) in ordered.enumerated() { order[index] = id }

        var distinct = 0
        for index in ordered.indices where index == 0 || prefixes[Int(order[index])] != prefixes[Int(order[index - 1])] {
            distinct += 1
        }
        distinctPrefixes = distinct
        sortedPrefixes = LockedBuffer(count: distinct)
        var size = 16
        while size < 2 * distinct { size <<= 1 }
        mask = size - 1
        slotPrefix = LockedBuffer(count: size)
        slotRun = LockedBuffer(count: size)
        slotCount = LockedBuffer(count: size)
        var bits = 12
        while bits < PrefixMatcher.maximumPrefixBits, 1 << bits < 64 * distinct { bits += 1 }
        prefixBits = LockedBuffer(count: (1 << bits) / 64)
        prefixBitShift = 64 - bits
        var index = 0
        var run = 0
        while index < ordered.count {
            let prefix = prefixes[Int(order[index])]
            var end = index + 1
            while end < ordered.count, prefixes[Int(order[end])] == prefix { end += 1 }
            sortedPrefixes[run] = prefix
            run += 1
            let hash = PrefixMatcher.hash(prefix)
            var slot = hash & mask
            while slotCount[slot] != 0 { slot = (slot + 1) & mask }
            slotPrefix[slot] = prefix
            slotRun[slot] = Int32(index)
            slotCount[slot] = Int32(end - index)
            let bit = PrefixMatcher.prefixBit(hash, shift: prefixBitShift)
            prefixBits[bit >> 6] |= 1 << UInt64(bit & 63)
            index = end
        }
        prefixes.release()
        let bytes = self.bytes, starts = self.starts
        filter = PairFilter(window: prefixLength, count: count) { UnsafePointer(bytes.base + Int(starts[$0])) }
    }

    /// Compiles `patterns`, each at least 2 bytes long (tests, and `vault scan`'s encoded forms).
    convenience init(patterns: [[UInt8]]) {
        self.init(PatternList(patterns))
    }

    /// The ids of `list`'s distinct patterns in order of their prefixes, the ids of one prefix
    /// ascending: sorted by prefix and then whole bytes, so that equal patterns are neighbours and
    /// only the lowest id of each is kept, then each prefix's run put back in id order.
    private static func distinctIDs(_ list: PatternList, prefixes: LockedBuffer<UInt64>) -> [Int32] {
        let prefix = prefixes.base
        var ids = (0..<Int32(list.count)).sorted { a, b in
            let first = Int(a), second = Int(b)
            if prefix[first] != prefix[second] { return prefix[first] < prefix[second] }
            let length = list.length(of: first), otherLength = list.length(of: second)
            if length != otherLength { return length < otherLength }
            let order = memcmp(list.start(of: first), list.start(of: second), length)
            return order != 0 ? order < 0 : a < b
        }
        var kept = 0
        for index in ids.indices {
            let id = Int(ids[index])
            if kept > 0 {
                let previous = Int(ids[kept - 1])
                if prefix[previous] == prefix[id], list.length(of: previous) == list.length(of: id),
                    memcmp(list.start(of: previous), list.start(of: id), list.length(of: id)) == 0
                {
                    continue
                }
            }
            ids[kept] = ids[index]
            kept += 1
        }
        ids.removeLast(ids.count - kept)
        var runStart = 0
        while runStart < ids.count {
            var runEnd = runStart + 1
            while runEnd < ids.count, prefix[Int(ids[runEnd])] == prefix[Int(ids[runStart])] { runEnd += 1 }
            if runEnd - runStart > 1 { ids[runStart..<runEnd].sort() }
            runStart = runEnd
        }
        return ids
    }

    deinit {
        bytes.release()
        starts.release()
        order.release()
        sortedPrefixes.release()
        slotPrefix.release()
        slotRun.release()
        slotCount.release()
        prefixBits.release()
        filter.release()
    }

    /// Every occurrence of every pattern that lies whole in `buffer`, in order of where it starts:
    /// `found` gets the pattern's id and the offset just past its last byte.
    func search(_ buffer: UnsafeRawBufferPointer, found: (_ id: Int, _ end: Int) -> Void) {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), !patternLengths.isEmpty,
            buffer.count >= prefixLength
        else { return }
        let count = buffer.count
        filter.forEachCandidate(base, through: count - prefixLength) { position in
            check(base, at: position, count: count, found: found)
        }
    }

    /// The length of the longest end of `buffer` that is the start of a pattern longer than it:
    /// bytes a masker holds back, because what follows may make them a pattern. 0 when none is.
    func pendingPrefixLength(_ buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), longestPattern > 1 else { return 0 }
        let count = buffer.count
        for position in max(0, count - (longestPattern - 1))..<count {
            let length = count - position
            let canStart = length == 1 ? filter.startsPattern(withByte: base[position]) : filter.startsPattern(base, at: position)
            if canStart, startsLongerPattern(base + position, length: length) { return length }
        }
        return 0
    }

    /// Whether the `length` bytes at `start` are the first bytes of a pattern longer than that.
    private func startsLongerPattern(_ start: UnsafePointer<UInt8>, length: Int) -> Bool {
        guard length >= prefixLength else {
            // Shorter than a prefix: the first prefix at or above it, zero-padded, is the one it can begin.
            let shift = UInt64(8 * (prefixLength - length))
            let wanted = PrefixMatcher.load(start, length, available: length)
            var low = 0, high = distinctPrefixes
            while low < high {
                let middle = (low + high) / 2
                if sortedPrefixes[middle] < wanted << shift { low = middle + 1 } else { high = middle }
            }
            return low < distinctPrefixes && sortedPrefixes[low] >> shift == wanted
        }
        var longer = false
        forEachPattern(withPrefixAt: start, available: length) { id in
            if patternLengths[id] > length,
                memcmp(start + prefixLength, bytes.base + Int(starts[id]) + prefixLength, length - prefixLength) == 0
            {
                longer = true
            }
        }
        return longer
    }

    @inline(__always)
    private func check(_ base: UnsafePointer<UInt8>, at position: Int, count: Int, found: (_ id: Int, _ end: Int) -> Void) {
        forEachPattern(withPrefixAt: base + position, available: count - position) { id in
            let length = patternLengths[id]
            if position + length <= count,
                memcmp(base + position, bytes.base + Int(starts[id]), length) == 0
            {
                found(id, position + length)
            }
        }
    }

    /// Calls `body` with the id of every pattern whose prefix is the one at `start` (`available`
    /// bytes readable there, at least `prefixLength`).
    @inline(__always)
    private func forEachPattern(withPrefixAt start: UnsafePointer<UInt8>, available: Int, _ body: (Int) -> Void) {
        let prefix = PrefixMatcher.load(start, prefixLength, available: available)
        let hash = PrefixMatcher.hash(prefix)
        let bit = PrefixMatcher.prefixBit(hash, shift: prefixBitShift)
        guard prefixBits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return }
        var slot = hash & mask
        while slotCount[slot] != 0 {
            if slotPrefix[slot] == prefix {
                let run = Int(slotRun[slot])
                for index in run..<(run + Int(slotCount[slot])) { body(Int(order[index])) }
                return
            }
            slot = (slot + 1) & mask
        }
    }

    /// The first `length` bytes at `pointer`, big-endian (the first byte highest), with `available`
    /// bytes readable there.
    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>, _ length: Int, available: Int) -> UInt64 {
        if available >= 8 {
            return UInt64(bigEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)) >> UInt64(8 * (8 - length))
        }
        var value: UInt64 = 0
        for index in 0..<length { value = value << 8 | UInt64(pointer[index]) }
        return value
    }

    /// The prefix's bit in `prefixBits`: the hash's top bits (its low ones pick the table slot).
    @inline(__always)
    private static func prefixBit(_ hash: Int, shift: Int) -> Int {
        Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: hash) >> UInt64(shift))
    }

    /// A multiplicative hash (Fibonacci hashing) with the high bits folded down.
    @inline(__always)
    private static func hash(_ prefix: UInt64) -> Int {
        let mixed = prefix &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }
}
