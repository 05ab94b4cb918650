import VaultCrypto

/// A JSON document read from an `ExportStream` one value at a time: the structure around the values
/// (an object's keys, an array's commas) is walked here, and each value is taken whole into locked
/// memory and parsed as a `JSONTree` on its own, so a reader of a large array holds one element at a
/// time. Problems are `malformedJSON` at their offset in the whole export.
struct JSONStreamReader {
    let stream: ExportStream
    let origin: ImportOrigin

    init(_ stream: ExportStream, origin: ImportOrigin) throws {
        self.stream = stream
        self.origin = origin
        // A byte order mark before the document, as JSONTree takes it.
        if try stream.peek() == 0xEF {
            for expected: UInt8 in [0xEF, 0xBB, 0xBF] where try stream.next() != expected { throw failure(.unexpectedCharacter) }
        }
    }

    func failure(_ fault: JSONFault, at offset: Int? = nil) -> ImportProblem {
        ImportProblem(origin, .malformedJSON(fault, at: offset ?? stream.offset))
    }

    /// The next byte after white space, not taken; `unexpectedEnd` at the end.
    func peekPastSpace() throws -> UInt8 {
        try stream.take(while: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { _ in }
        guard let byte = try stream.peek() else { throw failure(.unexpectedEnd) }
        return byte
    }

    /// Takes `byte` after white space, or throws `fault`.
    func expect(_ byte: UInt8, else fault: JSONFault = .unexpectedCharacter) throws {
        guard try peekPastSpace() == byte else { throw failure(fault) }
        _ = try stream.next()
    }

    /// Whether the document ends here (only white space left).
    func isAtEnd() throws -> Bool {
        try stream.take(while: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { _ in }
        return try stream.peek() == nil
    }

    /// After an element or member: true after a comma, false after `close`.
    func nextOrClose(_ close: UInt8) throws -> Bool {
        let byte = try peekPastSpace()
        _ = try stream.next()
        if byte == UInt8(ascii: ",") { return true }
        guard byte == close else { throw failure(.unexpectedCharacter, at: stream.offset - 1) }
        return false
    }

    /// Takes `open` and says whether the container is empty (its `close` taken too).
    func open(_ open: UInt8, close: UInt8, else fault: JSONFault = .unexpectedCharacter) throws -> Bool {
        try expect(open, else: fault)
        guard try peekPastSpace() == close else { return false }
        _ = try stream.next()
        return true
    }

    /// An object's key and its colon.
    func key() throws -> String {
        guard try peekPastSpace() == UInt8(ascii: "\"") else { throw failure(.keyNotString) }
        guard case .string(let bytes) = try value(depth: 1),
            let name = bytes.withUnsafeBytes({ String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) })
        else {
            throw failure(.keyNotUTF8)
        }
        try expect(UInt8(ascii: ":"))
        return name
    }

    /// The next value, taken whole and parsed; `depth` is how deep it sits in the document.
    func value(depth: Int) throws -> JSONTree {
        _ = try peekPastSpace()
        let start = stream.offset
        var raw = SecretBytesBuilder(capacity: 256)
        try capture(into: &raw, depth: depth)
        let bytes = raw.finish()
        do {
            return try JSONTree.parse(bytes, origin: origin, depth: depth)
        } catch let problem as ImportProblem {
            guard case .malformedJSON(let fault, let at) = problem.reason else { throw problem }
            throw failure(fault, at: start + (at ?? 0))
        }
    }

    /// Copies one value's bytes: a string to its closing quote, a container to its matching close
    /// (no deeper than 64 in the document), anything else up to the next delimiter. JSONTree then
    /// checks what was copied.
    private func capture(into raw: inout SecretBytesBuilder, depth: Int) throws {
        guard let first = try stream.peek() else { throw failure(.unexpectedEnd) }
        if first != UInt8(ascii: "{"), first != UInt8(ascii: "["), first != UInt8(ascii: "\"") {
            try stream.take(while: { !Array(",]} \t\r\n".utf8).contains($0) }) { raw.append($0) }
            return
        }
        var level = depth, inString = false, escaped = false
        repeat {
            guard let byte = try stream.next() else { throw failure(inString ? .unterminatedString : .unexpectedEnd) }
            withUnsafeBytes(of: byte) { raw.append($0) }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                if !inString, level == depth { return }
                // Runs of plain string bytes are copied a chunk at a time.
                if inString, !escaped {
                    try stream.take(while: { $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) { raw.append($0) }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                try stream.take(while: { $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) { raw.append($0) }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                level += 1
                guard level <= 64 else { throw failure(.tooDeep, at: stream.offset - 1) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): level -= 1
            default: break
            }
        } while level > depth || inString
    }
}
