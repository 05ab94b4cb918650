import VaultCrypto

/// The secrets to conceal in a stream, compiled once into a `PatternAutomaton`.
/// Shared by the streams of one `vault run` (stdout and stderr each have a
/// `MaskingStream`).
public final class MaskPatterns: @unchecked Sendable {
    /// What a concealed secret is replaced with.
    public static let marker = Array("<concealed by vault>".utf8)
    /// Secrets (and lines of multi-line secrets) shorter than this many bytes
    /// are not concealed: masking every "ok" or "1" would garble the output.
    public static let minimumLength = 4

    /// How many of the secrets given were too short to conceal.
    public let tooShortCount: Int
    /// Whether there is nothing to conceal (the stream is copied as is).
    public var isEmpty: Bool { automaton.isEmpty }
    let automaton: PatternAutomaton

    /// Compiles `secrets`. Each secret is a pattern, and so is each line of a
    /// multi-line secret (without its `\r`), so that output that rewrites line
    /// ends, as a terminal does, is still concealed. The automaton lives in
    /// locked memory (see `PatternAutomaton`); the patterns' copies made here
    /// are wiped once it is built.
    public init(secrets: [SecretBytes]) {
        var patterns = Set<[UInt8]>()
        var tooShort = 0
        for secret in secrets {
            guard secret.count >= MaskPatterns.minimumLength else {
                if secret.count > 0 { tooShort += 1 }
                continue
            }
            var bytes = secret.copyBytes()
            defer { PatternAutomaton.wipe(&bytes) }
            patterns.insert(bytes)
            guard bytes.contains(0x0A) else { continue }
            for var line in bytes.split(separator: 0x0A) {
                if line.last == 0x0D { line = line.dropLast() }
                if line.count >= MaskPatterns.minimumLength { patterns.insert(Array(line)) }
            }
        }
        tooShortCount = tooShort
        var list = Array(patterns)
        patterns.removeAll()
        automaton = PatternAutomaton(patterns: list)
        for index in list.indices { PatternAutomaton.wipe(&list[index]) }
    }

    /// Compiles secrets given as plain arrays (tests and benchmarks).
    public convenience init(secrets: [[UInt8]]) {
        self.init(secrets: secrets.map { SecretBytes($0) })
    }
}

/// Conceals secrets in one output stream as it passes: bytes are handed on as
/// soon as they cannot be the start of a secret, so output is never held for
/// a newline, only the few bytes that could still become a secret. Every other
/// byte passes through unchanged.
public struct MaskingStream {
    private let automaton: PatternAutomaton
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
        automaton = patterns.automaton
    }

    /// Feeds the next bytes of the stream; `output` receives what can be written now.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) -> Void) {
        let base = position
        if !automaton.isEmpty {
            scan(chunk, base: base)
        }
        position += chunk.count
        let safe = position - Int(automaton.depth[Int(state)])
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
        let automaton = self.automaton
        var state = self.state
        var index = 0
        let count = chunk.count
        while index < count {
            if state == 0 {
                index = automaton.skipToCandidate(chunk, from: index, to: count)
                if index == count { break }
            }
            state = automaton.next(state, chunk[index])
            index += 1
            let length = Int(automaton.matchLength[Int(state)])
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
