/// Where in a buffer patterns can start, decided from pairs of bytes: one bit per pair that
/// starts a pattern, and one per pair found anywhere in a pattern's first `window` bytes. Where
/// the pair that ends a window is not among the second, no pattern starts in that window, and
/// the whole window is passed over; most bytes of most input are never looked at one by one.
/// `PrefixMatcher` asks it where to probe, for `vault scan` and for the masker of `vault run`
/// and `vault redact` alike. The bits are in locked memory (they say something of the secrets).
struct PairFilter {
    /// How many leading bytes of every pattern the window pairs cover (2 to 8).
    let window: Int
    private let startPairs: LockedBuffer<UInt64>
    private let windowPairs: LockedBuffer<UInt64>

    /// A filter for patterns whose first `window` bytes (each at least that long) are given by
    /// `leading(id)` for every id in `0..<count`.
    init(window: Int, count: Int, leading: (Int) -> UnsafePointer<UInt8>) {
        precondition(window >= 2, "a window holds at least one pair")
        self.window = window
        startPairs = LockedBuffer(count: 65536 / 64)
        windowPairs = LockedBuffer(count: 65536 / 64)
        for id in 0..<count {
            let start = leading(id)
            for position in 0..<(window - 1) {
                let pair = Int(start[position]) << 8 | Int(start[position + 1])
                windowPairs[pair >> 6] |= 1 << UInt64(pair & 63)
                if position == 0 { startPairs[pair >> 6] |= 1 << UInt64(pair & 63) }
            }
        }
    }

    /// Wipes and frees the bits; the filter may not be used after.
    func release() {
        startPairs.release()
        windowPairs.release()
    }

    /// Whether a pattern can start at `at` (its byte and the next are a pattern's first two).
    @inline(__always)
    func startsPattern(_ base: UnsafePointer<UInt8>, at: Int) -> Bool {
        PairFilter.has(startPairs, Int(base[at]) << 8 | Int(base[at + 1]))
    }

    /// Whether some pattern starts with `byte`.
    func startsPattern(withByte byte: UInt8) -> Bool {
        let first = Int(byte) << 2  // the 256 pairs that begin with the byte: four words
        return startPairs[first] | startPairs[first + 1] | startPairs[first + 2] | startPairs[first + 3] != 0
    }

    /// Calls `body` with every position in `0...last` where a pattern can start, in order; bytes
    /// through `last + window - 1` must be readable.
    @inline(__always)
    func forEachCandidate(_ base: UnsafePointer<UInt8>, through last: Int, _ body: (Int) -> Void) {
        var position = 0
        while position <= last {
            // No pattern starts in a window whose last pair lies in no pattern's first bytes.
            if !PairFilter.has(windowPairs, Int(base[position + window - 2]) << 8 | Int(base[position + window - 1])) {
                position += window - 1
                continue
            }
            let windowEnd = min(position + window - 2, last)
            while position <= windowEnd {
                if startsPattern(base, at: position) { body(position) }
                position += 1
            }
        }
    }

    @inline(__always)
    private static func has(_ set: LockedBuffer<UInt64>, _ pair: Int) -> Bool {
        set[pair >> 6] & (1 << UInt64(pair & 63)) != 0
    }
}
