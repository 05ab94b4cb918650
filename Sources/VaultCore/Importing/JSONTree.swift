import VaultCrypto

/// A JSON document (RFC 8259) read from locked memory whose strings stay in locked memory: what
/// an export full of passwords is parsed into, and what the credential helpers read (kubectl's,
/// cargo's and Terraform's JSON). Object keys, which name fields, are ordinary text.
package indirect enum JSONTree {
    /// An object's members, in the order written (a repeated key is kept twice; the subscript reads the first).
    case object([(key: String, value: JSONTree)])
    /// An array's elements.
    case array([JSONTree])
    /// A string, unescaped, in locked memory.
    case string(SecretBytes)
    /// A number as written (exports use numbers for kinds and types only).
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// The member `key` of an object; nil for anything else or a missing key.
    package subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The bytes of a string; nil for anything else (null included) or an empty string.
    package var bytes: SecretBytes? {
        guard case .string(let value) = self, value.count > 0 else { return nil }
        return value
    }

    /// A string as text: for names and ids, never for secrets.
    package var text: String? {
        bytes.flatMap { value in value.withUnsafeBytes { String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) } }
    }

    /// The elements of an array; empty for anything else.
    package var elements: [JSONTree] {
        guard case .array(let values) = self else { return [] }
        return values
    }

    /// Parses a whole document (or one value of a larger one, `depth` deep in it); throws
    /// `ImportProblem` (`malformedJSON`, with the byte offset) for anything that is not one JSON
    /// value, or nests deeper than 64.
    package static func parse(_ document: SecretBytes, origin: ImportOrigin, depth: Int = 0) throws -> JSONTree {
        try document.withUnsafeBytes { bytes in
            var parser = Parser(input: bytes, origin: origin)
            let value = try parser.value(depth: depth)
            parser.skipSpace()
            guard parser.index == bytes.count else { throw parser.failure(.textAfterEnd) }
            return value
        }
    }

    private struct Parser {
        let input: UnsafeRawBufferPointer
        let origin: ImportOrigin
        var index = 0

        init(input: UnsafeRawBufferPointer, origin: ImportOrigin) {
            self.input = input
            self.origin = origin
            if input.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        func failure(_ fault: JSONFault) -> ImportProblem {
            ImportProblem(origin, .malformedJSON(fault, at: index))
        }

        mutating func skipSpace() {
            while index < input.count, [0x20, 0x09, 0x0A, 0x0D].contains(input[index]) { index += 1 }
        }

        mutating func expect(_ word: String) throws {
            let bytes = Array(word.utf8)
            guard input.count - index >= bytes.count, input[index..<index + bytes.count].elementsEqual(bytes) else {
                throw failure(.unexpectedCharacter)
            }
            index += bytes.count
        }

        mutating func value(depth: Int) throws -> JSONTree {
            guard depth < 64 else { throw failure(.tooDeep) }
            skipSpace()
            guard index < input.count else { throw failure(.unexpectedEnd) }
            switch input[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: JSONTree)] = []
                skipSpace()
                if index < input.count, input[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard index < input.count, input[index] == UInt8(ascii: "\"") else { throw failure(.keyNotString) }
                    let key = try string()
                    guard let name = key.withUnsafeBytes({ String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) }) else {
                        throw failure(.keyNotUTF8)
                    }
                    skipSpace()
                    try expect(":")
                    members.append((name, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < input.count else { throw failure(.unexpectedEnd) }
                    if input[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONTree] = []
                skipSpace()
                if index < input.count, input[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                while true {
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < input.count else { throw failure(.unexpectedEnd) }
                    if input[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("]")
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default:
                let start = index
                while index < input.count, Array("+-.0123456789eE".utf8).contains(input[index]) { index += 1 }
                guard index > start else { throw failure(.unexpectedCharacter) }
                return .number(String(decoding: input[start..<index], as: UTF8.self))
            }
        }

        /// A string at `index` (its opening quote), unescaped into locked memory.
        mutating func string() throws -> SecretBytes {
            index += 1
            var out = SecretBytesBuilder(capacity: 32)
            var runStart = index
            while true {
                guard index < input.count else { throw failure(.unterminatedString) }
                let byte = input[index]
                if byte == UInt8(ascii: "\"") {
                    out.append(UnsafeRawBufferPointer(rebasing: input[runStart..<index]))
                    index += 1
                    return out.finish()
                }
                guard byte >= 0x20 else { throw failure(.controlCharacter) }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                out.append(UnsafeRawBufferPointer(rebasing: input[runStart..<index]))
                guard index + 1 < input.count else { throw failure(.unterminatedString) }
                let escaped = input[index + 1]
                index += 2
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): appendByte(escaped, to: &out)
                case UInt8(ascii: "b"): appendByte(0x08, to: &out)
                case UInt8(ascii: "f"): appendByte(0x0C, to: &out)
                case UInt8(ascii: "n"): appendByte(0x0A, to: &out)
                case UInt8(ascii: "r"): appendByte(0x0D, to: &out)
                case UInt8(ascii: "t"): appendByte(0x09, to: &out)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure(.loneSurrogate) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let character = Unicode.Scalar(scalar) else { throw failure(.loneSurrogate) }
                    var utf8 = Array(String(Character(character)).utf8)
                    utf8.withUnsafeBytes { out.append($0) }
                    utf8.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
                default:
                    throw failure(.unknownEscape)
                }
                runStart = index
            }
        }

        private func appendByte(_ byte: UInt8, to out: inout SecretBytesBuilder) {
            withUnsafeBytes(of: byte) { out.append($0) }
        }

        private mutating func hex4() throws -> UInt32 {
            guard input.count - index >= 4, let value = UInt32(String(decoding: input[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw failure(.badUnicodeEscape)
            }
            index += 4
            return value
        }
    }
}
