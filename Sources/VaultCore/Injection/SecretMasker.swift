/// The secrets to conceal in a stream, compiled once into an Aho–Corasick
/// automaton so that one pass over the output finds every occurrence of every
/// secret, however the output is cut into reads. Shared by the streams of one
/// `vault run` (stdout and stderr each have a `MaskingStream`).
public final class MaskPatterns: @unchecked Sendable {
    /// What a concealed secret is replaced with.
    public static let marker = Array("<concealed by vault>".utf8)
    /// Secrets (and lines of multi-line secrets) shorter than this many bytes
    /// are not concealed: masking every "ok" or "1" would garble the output.
    public static let minimumLength = 4

    /// How many of the secrets given were too short to conceal.
    public let tooShortCount: Int
    /// Whether there is nothing to conceal (the stream is copied as is).
    public var isEmpty: Bool { depth.count == 1 }

    // The automaton, in buffers that the scanning loop reads without bounds
    // checks; immutable after init, so sharing is safe.
    /// Per state: the first index into `edgeBytes`/`edgeTargets` and the count.
    private let edgeStart: UnsafeMutableBufferPointer<Int32>
    private let edgeCount: UnsafeMutableBufferPointer<Int32>
    private let edgeBytes: UnsafeMutableBufferPointer<UInt8>
    private let edgeTargets: UnsafeMutableBufferPointer<Int32>
    /// The root's transitions for every byte (0 stays at the root).
    private let rootNext: UnsafeMutableBufferPointer<Int32>
    private let fail: UnsafeMutableBufferPointer<Int32>
    /// One bit per pair of bytes that starts a pattern: at the root, a byte
    /// whose pair with the next is not here cannot start a match and is
    /// skipped without stepping the automaton (most bytes, on most output).
    private let startPairs: UnsafeMutableBufferPointer<UInt64>
    /// One bit per pair of bytes found anywhere in the first `window` bytes
    /// of a pattern: when the pair at the end of a window is not here, no
    /// pattern starts in that window, and the scan jumps `window - 1` bytes.
    private let windowPairs: UnsafeMutableBufferPointer<UInt64>
    private let window: Int
    /// Per state: how many bytes of a pattern it has matched.
    let depth: UnsafeMutableBufferPointer<Int32>
    /// Per state: the length of the longest pattern ending here, or 0.
    let matchLength: UnsafeMutableBufferPointer<Int32>

    /// Compiles `secrets`. Each secret is a pattern, and so is each line of a
    /// multi-line secret (without its `\r`), so that output that rewrites line
    /// ends, as a terminal does, is still concealed.
    public init(secrets: [[UInt8]]) {
        var patterns = Set<[UInt8]>()
        var tooShort = 0
        for secret in secrets {
            guard secret.count >= MaskPatterns.minimumLength else {
                if !secret.isEmpty { tooShort += 1 }
                continue
            }
            patterns.insert(secret)
            guard secret.contains(0x0A) else { continue }
            for var line in secret.split(separator: 0x0A) {
                if line.last == 0x0D { line = line.dropLast() }
                if line.count >= MaskPatterns.minimumLength { patterns.insert(Array(line)) }
            }
        }
        tooShortCount = tooShort

        // The trie, with children as small lists (most nodes have one child).
        var children: [[(UInt8, Int32)]] = [[]]
        var terminal: [Int32] = [0]
        var depths: [Int32] = [0]
        for pattern in patterns {
            var state: Int32 = 0
            for byte in pattern {
                if let next = children[Int(state)].first(where: { $0.0 == byte })?.1 {
                    state = next
                } else {
                    let next = Int32(children.count)
                    children[Int(state)].append((byte, next))
                    children.append([])
                    terminal.append(0)
                    depths.append(depths[Int(state)] + 1)
                    state = next
                }
            }
            terminal[Int(state)] = Int32(pattern.count)
        }

        // Failure links and longest matches, breadth first.
        var failLinks = [Int32](repeating: 0, count: children.count)
        var longest = terminal
        var root = [Int32](repeating: 0, count: 256)
        for (byte, child) in children[0] { root[Int(byte)] = child }
        var queue = children[0].map(\.1)
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for (byte, child) in children[Int(state)] {
                var link = failLinks[Int(state)]
                while link != 0, children[Int(link)].first(where: { $0.0 == byte }) == nil {
                    link = failLinks[Int(link)]
                }
                let target = link == 0 ? root[Int(byte)] : children[Int(link)].first(where: { $0.0 == byte })!.1
                failLinks[Int(child)] = target == child ? 0 : target
                longest[Int(child)] = max(longest[Int(child)], longest[Int(failLinks[Int(child)])])
                queue.append(child)
            }
        }

        var starts: [Int32] = []
        var counts: [Int32] = []
        var bytes: [UInt8] = []
        var targets: [Int32] = []
        for list in children {
            starts.append(Int32(bytes.count))
            counts.append(Int32(list.count))
            for (byte, target) in list {
                bytes.append(byte)
                targets.append(target)
            }
        }
        edgeStart = MaskPatterns.pinned(starts)
        edgeCount = MaskPatterns.pinned(counts)
        edgeBytes = MaskPatterns.pinned(bytes)
        edgeTargets = MaskPatterns.pinned(targets)
        rootNext = MaskPatterns.pinned(root)
        fail = MaskPatterns.pinned(failLinks)
        depth = MaskPatterns.pinned(depths)
        matchLength = MaskPatterns.pinned(longest)
        let window = min(patterns.map(\.count).min() ?? 2, 8)
        var firstPairs = [UInt64](repeating: 0, count: 65536 / 64)
        var anywhere = firstPairs
        for pattern in patterns {
            for offset in 0..<(window - 1) {
                let pair = Int(pattern[offset]) << 8 | Int(pattern[offset + 1])
                anywhere[pair >> 6] |= 1 << UInt64(pair & 63)
                if offset == 0 { firstPairs[pair >> 6] |= 1 << UInt64(pair & 63) }
            }
        }
        startPairs = MaskPatterns.pinned(firstPairs)
        windowPairs = MaskPatterns.pinned(anywhere)
        self.window = window
    }

    deinit {
        for buffer in [edgeStart, edgeCount, edgeTargets, rootNext, fail, depth, matchLength] { buffer.deallocate() }
        edgeBytes.deallocate()
        startPairs.deallocate()
        windowPairs.deallocate()
    }

    private static func pinned<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
        _ = buffer.initialize(from: array)
        return buffer
    }

    /// The state after reading `byte` in `state`.
    @inline(__always)
    func next(_ state: Int32, _ byte: UInt8) -> Int32 {
        var state = state
        while state != 0 {
            let start = Int(edgeStart[Int(state)])
            let end = start + Int(edgeCount[Int(state)])
            var edge = start
            while edge < end {
                if edgeBytes[edge] == byte { return edgeTargets[edge] }
                edge += 1
            }
            state = fail[Int(state)]
        }
        return rootNext[Int(byte)]
    }

    /// The first index at or after `index` where a pattern can start (its
    /// byte and the next are a pattern's first two bytes), or `end`. Bytes
    /// too near the end to decide are candidates. Skipping a byte here gives
    /// the same automaton state as stepping through it from the root.
    @inline(__always)
    func skipToCandidate(_ bytes: UnsafeRawBufferPointer, from index: Int, to end: Int) -> Int {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return end }
        @inline(__always) func has(_ set: UnsafeMutableBufferPointer<UInt64>, _ at: Int) -> Bool {
            let pair = Int(base[at]) << 8 | Int(base[at + 1])
            return set[pair >> 6] & (1 << UInt64(pair & 63)) != 0
        }
        var start = index
        while true {
            let last = start + window - 2
            guard last + 1 < end else {
                while start + 1 < end, !has(startPairs, start) { start += 1 }
                return start
            }
            if has(windowPairs, last) {
                for candidate in start...last where has(startPairs, candidate) { return candidate }
            }
            start = last + 1
        }
    }
}

/// Conceals secrets in one output stream as it passes: bytes are handed on as
/// soon as they cannot be the start of a secret, so output is never held for
/// a newline, only the few bytes that could still become a secret. Every other
/// byte passes through unchanged.
public struct MaskingStream {
    private let patterns: MaskPatterns
    private var state: Int32 = 0
    /// Bytes fed so far.
    private var position = 0
    /// Every byte before this offset has been written or concealed.
    private var emitted = 0
    /// Unwritten bytes, starting at `emitted` (when a concealed range does not reach past them).
    private var held: [UInt8] = []
    private var heldStart = 0
    /// Ranges to conceal that have not been written yet, in order, not overlapping.
    private var pending: [Range<Int>] = []

    /// A masker that conceals every match of `patterns`.
    public init(_ patterns: MaskPatterns) {
        self.patterns = patterns
    }

    /// Feeds the next bytes of the stream; `output` receives what can be written now.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) -> Void) {
        let base = position
        if !patterns.isEmpty {
            scan(chunk, base: base)
        }
        position += chunk.count
        let safe = position - Int(patterns.depth[Int(state)])
        flush(upTo: safe, chunk: chunk, chunkBase: base, output: output)
        keepUnwritten(chunk: chunk, chunkBase: base)
    }

    /// Writes whatever is still held: the stream has ended.
    public mutating func finish(output: (UnsafeRawBufferPointer) -> Void) {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        flush(upTo: position, chunk: empty, chunkBase: position, output: output)
        held = []
        heldStart = position
        state = 0
    }

    private mutating func scan(_ chunk: UnsafeRawBufferPointer, base: Int) {
        let patterns = self.patterns
        var state = self.state
        var index = 0
        let count = chunk.count
        while index < count {
            if state == 0 {
                index = patterns.skipToCandidate(chunk, from: index, to: count)
                if index == count { break }
            }
            state = patterns.next(state, chunk[index])
            index += 1
            let length = Int(patterns.matchLength[Int(state)])
            if length > 0 { conceal(base + index - length..<base + index) }
        }
        self.state = state
    }

    /// Adds a range to conceal, merged with the pending ranges it overlaps.
    private mutating func conceal(_ range: Range<Int>) {
        var merged = range
        while let last = pending.last, last.upperBound > merged.lowerBound {
            merged = min(last.lowerBound, merged.lowerBound)..<max(last.upperBound, merged.upperBound)
            pending.removeLast()
        }
        pending.append(merged)
    }

    /// Writes plain bytes and markers for everything before `safe`: no later
    /// match can start there.
    private mutating func flush(upTo safe: Int, chunk: UnsafeRawBufferPointer, chunkBase: Int,
                                output: (UnsafeRawBufferPointer) -> Void) {
        var concealed = 0
        for range in pending {
            if range.lowerBound < emitted {
                // It overlaps a range whose marker is written: the marker covers it too.
                emitted = max(emitted, range.upperBound)
            } else if range.lowerBound < safe {
                writePlain(emitted..<range.lowerBound, chunk: chunk, chunkBase: chunkBase, output: output)
                MaskPatterns.marker.withUnsafeBytes(output)
                emitted = range.upperBound
            } else {
                break
            }
            concealed += 1
        }
        pending.removeFirst(concealed)
        if emitted < safe {
            writePlain(emitted..<safe, chunk: chunk, chunkBase: chunkBase, output: output)
            emitted = safe
        }
    }

    /// Writes the bytes of `range` (absolute offsets), from the held bytes and the chunk.
    private func writePlain(_ range: Range<Int>, chunk: UnsafeRawBufferPointer, chunkBase: Int,
                            output: (UnsafeRawBufferPointer) -> Void) {
        guard !range.isEmpty else { return }
        let heldEnd = heldStart + held.count
        if range.lowerBound < heldEnd {
            let upper = min(range.upperBound, heldEnd)
            held.withUnsafeBytes { output(UnsafeRawBufferPointer(rebasing: $0[(range.lowerBound - heldStart)..<(upper - heldStart)])) }
        }
        let lower = max(range.lowerBound, chunkBase)
        if lower < range.upperBound {
            output(UnsafeRawBufferPointer(rebasing: chunk[(lower - chunkBase)..<(range.upperBound - chunkBase)]))
        }
    }

    /// Keeps the bytes from `emitted` to the end for the next feed.
    private mutating func keepUnwritten(chunk: UnsafeRawBufferPointer, chunkBase: Int) {
        guard emitted < position else {
            held.removeAll(keepingCapacity: true)
            heldStart = emitted
            return
        }
        var kept: [UInt8] = []
        let heldEnd = heldStart + held.count
        if emitted < heldEnd { kept += held[(emitted - heldStart)...] }
        let lower = max(emitted, chunkBase)
        kept += chunk[(lower - chunkBase)...]
        held = kept
        heldStart = emitted
    }
}
