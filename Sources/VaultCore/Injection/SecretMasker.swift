#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// The secrets to conceal in a stream, compiled once into a `PrefixMatcher`.
/// Shared by the streams of one `vault run` (stdout and stderr each have a
/// `MaskingStream`).
package final class MaskPatterns: @unchecked Sendable {
    /// What a concealed secret is replaced with.
    package static let marker = Array("<concealed by vault>".utf8)
    /// Secrets (and lines of multi-line secrets) shorter than this many bytes
    /// are not concealed: masking every "ok" or "1" would garble the output.
    package static let minimumLength = 4

    /// How many of the secrets given were too short to conceal.
    package let tooShortCount: Int
    /// Whether there is nothing to conceal (the stream is copied as is).
    package var isEmpty: Bool { matcher.patternLengths.isEmpty }
    let matcher: PrefixMatcher

    /// Compiles `secrets`. Each secret is a pattern, and so is each line of a
    /// multi-line secret (without its `\r`), so that output that rewrites line
    /// ends, as a terminal does, is still concealed. The patterns go from each
    /// secret's locked memory straight into the matcher's (see `PrefixMatcher`),
    /// never through an ordinary array.
    package init(secrets: [SecretBytes]) {
        var list = PatternList()
        var tooShort = 0
        for secret in secrets {
            guard secret.count >= MaskPatterns.minimumLength else {
                if secret.count > 0 { tooShort += 1 }
                continue
            }
            secret.withUnsafeBytes { bytes in
                list.append(bytes)
                guard bytes.contains(0x0A) else { return }
                for var line in bytes.split(separator: 0x0A) {
                    if line.last == 0x0D { line = line.dropLast() }
                    if line.count >= MaskPatterns.minimumLength { list.append(UnsafeRawBufferPointer(rebasing: line)) }
                }
            }
        }
        tooShortCount = tooShort
        matcher = PrefixMatcher(list)
    }

    /// Compiles secrets given as plain arrays (tests and benchmarks).
    package convenience init(secrets: [[UInt8]]) {
        self.init(secrets: secrets.map { SecretBytes($0) })
    }
}

/// Conceals secrets in one output stream as it passes: bytes are handed on as
/// soon as they cannot be the start of a secret, so output is never held for
/// a newline, only the few bytes that could still become a secret. Every other
/// byte passes through unchanged.
package struct MaskingStream {
    private let matcher: PrefixMatcher
    /// The stream's last bytes, as many as the longest pattern less one: where a pattern
    /// that ends in the next bytes can begin.
    private var recent: [UInt8] = []
    /// Scratch for the recent bytes followed by the first of the next.
    private var junction: [UInt8] = []
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
    package init(_ patterns: MaskPatterns) {
        matcher = patterns.matcher
    }

    /// Feeds the next bytes of the stream; `output` receives what can be written now.
    package mutating func feed(_ chunk: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) -> Void) {
        let base = position
        var safe = position + chunk.count
        if !matcher.patternLengths.isEmpty {
            scan(chunk, base: base)
            safe -= recent.withUnsafeBytes { matcher.pendingPrefixLength($0) }
        }
        position += chunk.count
        flush(upTo: safe, chunk: chunk, chunkBase: base, output: output)
        keepUnwritten(chunk: chunk, chunkBase: base)
    }

    /// Writes whatever is still held: the stream has ended.
    package mutating func finish(output: (UnsafeRawBufferPointer) -> Void) {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        flush(upTo: position, chunk: empty, chunkBase: position, output: output)
        held = []
        heldStart = position
        recent = []
    }

    /// Conceals every match that ends in `chunk`: first those that begin in the recent bytes,
    /// then those that lie whole in the chunk, so ranges come in the order they begin.
    private mutating func scan(_ chunk: UnsafeRawBufferPointer, base: Int) {
        let matcher = self.matcher
        let reach = matcher.longestPattern - 1
        if !recent.isEmpty, !chunk.isEmpty {
            let boundary = recent.count
            junction.removeAll(keepingCapacity: true)
            junction += recent
            junction += chunk[..<min(reach, chunk.count)]
            let junction = self.junction
            junction.withUnsafeBytes { bytes in
                matcher.search(bytes) { id, end in
                    let start = end - matcher.patternLengths[id]
                    if start < boundary, end > boundary { conceal(base - boundary + start..<base - boundary + end) }
                }
            }
        }
        matcher.search(chunk) { id, end in conceal(base + end - matcher.patternLengths[id]..<base + end) }
        if chunk.count >= reach {
            recent = Array(chunk[(chunk.count - reach)...])
        } else {
            recent += chunk
            recent.removeFirst(max(recent.count - reach, 0))
        }
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
    private mutating func flush(
        upTo safe: Int, chunk: UnsafeRawBufferPointer, chunkBase: Int,
        output: (UnsafeRawBufferPointer) -> Void
    ) {
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
    private func writePlain(
        _ range: Range<Int>, chunk: UnsafeRawBufferPointer, chunkBase: Int,
        output: (UnsafeRawBufferPointer) -> Void
    ) {
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
