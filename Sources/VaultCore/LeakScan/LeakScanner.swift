/// A secret found in a scanned stream: where it starts (1-based line, and
/// 1-based byte column in that line) and what it is.
package struct LeakHit: Hashable, Sendable {
    /// The line the hit starts on, from 1.
    package var line: Int
    /// The byte column in that line where the hit starts, from 1.
    package var column: Int
    /// Which secret, in which encoding.
    package var source: LeakSource

    /// A hit of `source` starting at `line` and `column` (both from 1).
    package init(line: Int, column: Int, source: LeakSource) {
        self.line = line
        self.column = column
        self.source = source
    }
}

/// Searches streams (files, git blobs) for every pattern of `LeakPatterns`,
/// chunk by chunk: the last bytes of a chunk that could begin a pattern are
/// searched again with the next, so a secret split between reads is found,
/// once. One scanner serves many streams, one after the other, with one buffer.
package final class LeakScanner {
    static let chunkSize = 1 << 20
    private let patterns: LeakPatterns
    private let overlap: Int
    private let buffer: UnsafeMutableRawBufferPointer

    /// A scanner for `patterns`, with a buffer of a little over 1 MiB.
    package init(_ patterns: LeakPatterns) {
        self.patterns = patterns
        overlap = max(patterns.matcher.longestPattern - 1, 0)
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: overlap + LeakScanner.chunkSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Every hit in the stream that `read` fills (it returns the count of
    /// bytes read, 0 at the end), in the order they start.
    package func scan(read: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows -> [LeakHit] {
        let patterns = self.patterns
        var hits: [LeakHit] = []
        var seen = Set<LeakHit>()
        /// Bytes at the front of the buffer carried over from the last chunk.
        var kept = 0
        /// Line and column of the buffer's first byte.
        var line = 1, column = 1
        while true {
            let count = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[kept..<(kept + LeakScanner.chunkSize)]))
            guard count > 0 else { break }
            let filled = kept + count
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<filled])
            var found: [(start: Int, id: Int)] = []
            patterns.matcher.search(bytes) { id, end in
                // A match that ends in the carried-over bytes was found with the last chunk.
                if end > kept { found.append((end - patterns.matcher.patternLengths[id], id)) }
            }
            found.sort { $0.start < $1.start }
            let keep = min(overlap, filled)
            var position = LinePosition(line: line, column: column)
            var next: (line: Int, column: Int)?
            for (start, id) in found {
                if next == nil, start >= filled - keep { next = position.advanced(over: bytes, to: filled - keep) }
                let place = position.advanced(over: bytes, to: start)
                for source in patterns.sources[id] {
                    let hit = LeakHit(line: place.line, column: place.column, source: source)
                    if seen.insert(hit).inserted { hits.append(hit) }
                }
            }
            (line, column) = next ?? position.advanced(over: bytes, to: filled - keep)
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + (filled - keep), byteCount: keep)
            kept = keep
        }
        return hits
    }
}

/// Line and column of an offset in a buffer, counted forward from the last offset asked for.
private struct LinePosition {
    var line: Int
    var column: Int
    private var offset = 0

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The line and column at `target` (not before the last offset asked for).
    mutating func advanced(over bytes: UnsafeRawBufferPointer, to target: Int) -> (line: Int, column: Int) {
        while offset < target {
            if bytes[offset] == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            offset += 1
        }
        return (line, column)
    }
}
