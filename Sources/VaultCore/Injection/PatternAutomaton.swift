#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// Byte patterns compiled once into an Aho–Corasick automaton, so that one
/// pass over a stream finds every occurrence of every pattern, however the
/// stream is cut into reads. The masker of `vault run` and `vault redact`
/// conceals what it finds; `vault scan` reports it by pattern. The patterns
/// are secrets: the automaton, which holds their bytes, lives in locked memory
/// (`LockedArena.shared`) and is wiped when freed, and so are the scratch
/// tables of the build; it keeps no copy of the patterns themselves.
public final class PatternAutomaton: @unchecked Sendable {
    /// The length of each pattern, by id (its index).
    public let patternLengths: [Int]
    /// Whether there are no patterns (nothing can match).
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
    /// skipped without stepping the automaton (most bytes, on most input).
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
    /// Per state: the id of the pattern that ends exactly here, or -1.
    private let patternID: UnsafeMutableBufferPointer<Int32>
    /// Per state: the nearest shorter suffix state where a pattern ends, or 0.
    private let outputLink: UnsafeMutableBufferPointer<Int32>

    /// Compiles `patterns`, each at least 2 bytes long and none repeated.
    public init(patterns: [[UInt8]]) {
        precondition(patterns.allSatisfy { $0.count >= 2 }, "patterns are at least 2 bytes long")
        patternLengths = patterns.map(\.count)

        // The trie in flat arrays, one entry per state: its children as a list (first child, next
        // sibling, the byte on the edge into a state), so a state costs no allocation of its own
        // (most states have one child; 10 000 secrets in every encoding make millions of them).
        var firstChild: [Int32] = [-1]
        var nextSibling: [Int32] = [-1]
        var edgeByte: [UInt8] = [0]
        var ids: [Int32] = [-1]
        var depths: [Int32] = [0]
        var longest: [Int32] = [0]
        var root = [Int32](repeating: 0, count: 256)
        let capacity = patterns.reduce(1) { $0 + $1.count }
        firstChild.reserveCapacity(capacity)
        nextSibling.reserveCapacity(capacity)
        edgeByte.reserveCapacity(capacity)
        ids.reserveCapacity(capacity)
        depths.reserveCapacity(capacity)
        longest.reserveCapacity(capacity)
        // States with many children (near the root, where every pattern passes) get a table by
        // byte once the trie is built: the failure links below look up their children millions of times.
        var denseIndex: [Int32] = []
        var denseTables: [Int32] = []
        func child(_ state: Int32, _ byte: UInt8) -> Int32 {
            if state == 0 { return root[Int(byte)] }
            if !denseIndex.isEmpty, denseIndex[Int(state)] >= 0 { return denseTables[Int(denseIndex[Int(state)]) << 8 | Int(byte)] }
            var candidate = firstChild[Int(state)]
            while candidate >= 0 {
                if edgeByte[Int(candidate)] == byte { return candidate }
                candidate = nextSibling[Int(candidate)]
            }
            return 0
        }
        for (id, pattern) in patterns.enumerated() {
            var state: Int32 = 0
            for byte in pattern {
                let existing = child(state, byte)
                if existing != 0 {
                    state = existing
                    continue
                }
                let next = Int32(depths.count)
                firstChild.append(-1)
                nextSibling.append(firstChild[Int(state)])
                edgeByte.append(byte)
                ids.append(-1)
                depths.append(depths[Int(state)] + 1)
                longest.append(0)
                firstChild[Int(state)] = next
                if state == 0 { root[Int(byte)] = next }
                state = next
            }
            longest[Int(state)] = Int32(pattern.count)
            ids[Int(state)] = Int32(id)
        }
        let stateCount = depths.count
        denseIndex = [Int32](repeating: -1, count: stateCount)
        for state in 1..<max(stateCount, 1) {
            var count = 0
            var next = firstChild[state]
            while next >= 0, count < PatternAutomaton.denseChildren {
                count += 1
                next = nextSibling[Int(next)]
            }
            guard count == PatternAutomaton.denseChildren else { continue }
            denseIndex[state] = Int32(denseTables.count >> 8)
            denseTables += [Int32](repeating: 0, count: 256)
            next = firstChild[state]
            while next >= 0 {
                denseTables[Int(denseIndex[state]) << 8 | Int(edgeByte[Int(next)])] = next
                next = nextSibling[Int(next)]
            }
        }

        // Failure links, longest matches and output links, breadth first.
        var failLinks = [Int32](repeating: 0, count: stateCount)
        var outputs = [Int32](repeating: 0, count: stateCount)
        var queue: [Int32] = []
        queue.reserveCapacity(stateCount)
        var rootChild = firstChild[0]
        while rootChild >= 0 {
            queue.append(rootChild)
            rootChild = nextSibling[Int(rootChild)]
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            var next = firstChild[Int(state)]
            while next >= 0 {
                let byte = edgeByte[Int(next)]
                var link = failLinks[Int(state)]
                while link != 0, child(link, byte) == 0 {
                    link = failLinks[Int(link)]
                }
                let target = child(link, byte)
                let suffix = target == next ? 0 : target
                failLinks[Int(next)] = suffix
                longest[Int(next)] = max(longest[Int(next)], longest[Int(suffix)])
                outputs[Int(next)] = ids[Int(suffix)] >= 0 ? suffix : outputs[Int(suffix)]
                queue.append(next)
                next = nextSibling[Int(next)]
            }
        }
        queue = []
        // Each table goes to locked memory as soon as it is final, and its scratch copy is dropped.
        fail = PatternAutomaton.pinned(failLinks)
        failLinks = []
        outputLink = PatternAutomaton.pinned(outputs)
        outputs = []
        matchLength = PatternAutomaton.pinned(longest)
        longest = []
        patternID = PatternAutomaton.pinned(ids)
        ids = []
        depth = PatternAutomaton.pinned(depths)
        depths = []
        rootNext = PatternAutomaton.pinned(root)

        // Each state's edges side by side, in the order of its child list.
        let edgeTotal = max(stateCount - 1, 1)
        edgeStart = PatternAutomaton.locked(Int32.self, count: stateCount)
        edgeCount = PatternAutomaton.locked(Int32.self, count: stateCount)
        edgeBytes = PatternAutomaton.locked(UInt8.self, count: edgeTotal)
        edgeTargets = PatternAutomaton.locked(Int32.self, count: edgeTotal)
        var edges: Int32 = 0
        for state in 0..<stateCount {
            edgeStart[state] = edges
            var next = firstChild[state]
            while next >= 0 {
                edgeBytes[Int(edges)] = edgeByte[Int(next)]
                edgeTargets[Int(edges)] = next
                edges += 1
                next = nextSibling[Int(next)]
            }
            edgeCount[state] = edges - edgeStart[state]
        }
        PatternAutomaton.wipe(&edgeByte)
        PatternAutomaton.wipe(&denseTables)
        denseIndex = []
        firstChild = []
        nextSibling = []
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
        startPairs = PatternAutomaton.pinned(firstPairs)
        windowPairs = PatternAutomaton.pinned(anywhere)
        self.window = window
        PatternAutomaton.wipe(&root)
        PatternAutomaton.wipe(&firstPairs)
        PatternAutomaton.wipe(&anywhere)
    }

    deinit {
        for buffer in [edgeStart, edgeCount, edgeTargets, rootNext, fail, depth, matchLength, patternID, outputLink] {
            PatternAutomaton.release(buffer)
        }
        PatternAutomaton.release(edgeBytes)
        PatternAutomaton.release(startPairs)
        PatternAutomaton.release(windowPairs)
    }

    /// How many children make a state's children worth a table by byte while the automaton is built.
    private static let denseChildren = 4

    /// Overwrites an array that held secret bytes (or facts about them) before it is dropped.
    static func wipe<T>(_ array: inout [T]) {
        array.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { memset(base, 0, raw.count) }
        }
    }

    private static func release<T>(_ buffer: UnsafeMutableBufferPointer<T>) {
        LockedArena.shared.deallocate(UnsafeMutableRawPointer(buffer.baseAddress!), byteCount: buffer.count * MemoryLayout<T>.stride)
    }

    /// A copy of `array` in locked memory.
    private static func pinned<T: BitwiseCopyable>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
        let buffer = locked(T.self, count: array.count)
        _ = buffer.initialize(from: array)
        return buffer
    }

    /// `count` zeroed elements in locked memory (at least one).
    private static func locked<T: BitwiseCopyable>(_ type: T.Type, count: Int) -> UnsafeMutableBufferPointer<T> {
        let capacity = max(count, 1)
        let raw = LockedArena.shared.allocate(byteCount: capacity * MemoryLayout<T>.stride)
        memset(raw, 0, capacity * MemoryLayout<T>.stride)
        return UnsafeMutableBufferPointer(start: raw.bindMemory(to: T.self, capacity: capacity), count: capacity)
    }

    /// Finds every occurrence of every pattern in `bytes`, continuing from
    /// `state` (0 at the start of a stream) and leaving there the state to
    /// continue from with the next bytes. `found` gets the pattern's id and
    /// the offset in `bytes` just past its last byte (which may be less than
    /// the pattern's length when it began in earlier bytes).
    public func search(_ bytes: UnsafeRawBufferPointer, state: inout Int32, found: (_ id: Int, _ end: Int) -> Void) {
        var current = state
        var index = 0
        let count = bytes.count
        while index < count {
            if current == 0 {
                index = skipToCandidate(bytes, from: index, to: count)
                if index == count { break }
            }
            current = next(current, bytes[index])
            index += 1
            guard matchLength[Int(current)] > 0 else { continue }
            var ending = patternID[Int(current)] >= 0 ? current : outputLink[Int(current)]
            while ending != 0 {
                found(Int(patternID[Int(ending)]), index)
                ending = outputLink[Int(ending)]
            }
        }
        state = current
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
