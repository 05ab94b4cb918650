import VaultCrypto

/// The one JSON shape the docker helper protocol uses: a flat object whose
/// values are strings, e.g. `{"ServerURL": …, "Username": …, "Secret": …}`;
/// and the plaintext export's array of such objects.
/// Decoded values go straight into wiped buffers, since one is a secret.
enum FlatJSON {
    /// Parses an object of string values; whitespace around it is allowed.
    ///
    /// - Throws: `UsageError` naming the byte offset of the first problem, never a value.
    static func parseObject(_ input: UnsafeRawBufferPointer) throws -> [(key: String, value: SecretBytes)] {
        var reader = Reader(
            bytes: input, hint: "send one JSON object of strings, e.g. {\"ServerURL\":\"…\",\"Username\":\"…\",\"Secret\":\"…\"}")
        reader.skipWhitespace()
        let members = try reader.object()
        reader.skipWhitespace()
        guard reader.position == input.count else { throw reader.failure("the end of the input") }
        return members
    }

    /// Parses an array of such objects (a plaintext export, docs/CLI.md); `hint` goes with an error.
    ///
    /// - Throws: `UsageError` naming the byte offset of the first problem, never a value.
    static func parseArrayOfObjects(_ input: UnsafeRawBufferPointer, hint: String) throws -> [[(key: String, value: SecretBytes)]] {
        var reader = Reader(bytes: input, hint: hint)
        var objects: [[(key: String, value: SecretBytes)]] = []
        reader.skipWhitespace()
        try reader.expect(UInt8(ascii: "["), "\"[\"")
        reader.skipWhitespace()
        if reader.peek() == UInt8(ascii: "]") {
            reader.position += 1
        } else {
            while true {
                reader.skipWhitespace()
                objects.append(try reader.object())
                reader.skipWhitespace()
                if reader.peek() == UInt8(ascii: ",") {
                    reader.position += 1
                    continue
                }
                try reader.expect(UInt8(ascii: "]"), "\",\" or \"]\"")
                break
            }
        }
        reader.skipWhitespace()
        guard reader.position == input.count else { throw reader.failure("the end of the input") }
        return objects
    }

    /// `bytes` as a JSON string literal, in a wiped buffer.
    ///
    /// - Throws: `UsageError` when the bytes are not UTF-8 text.
    static func stringLiteral(_ bytes: UnsafeRawBufferPointer, field: String) throws -> SecretBytes {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw UsageError("the stored \(field) is not UTF-8 text, which JSON cannot carry", hint: "store it again as text")
        }
        func escape(_ byte: UInt8) -> [UInt8]? {
            switch byte {
            case UInt8(ascii: "\""): return Array("\\\"".utf8)
            case UInt8(ascii: "\\"): return Array("\\\\".utf8)
            case 0x0A: return Array("\\n".utf8)
            case 0x0D: return Array("\\r".utf8)
            case 0x09: return Array("\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                return Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: return nil
            }
        }
        let length = bytes.reduce(2) { $0 + (escape($1)?.count ?? 1) }
        let output = SecretBytes(count: length)
        output.withUnsafeMutableBytes { out in
            var offset = 0
            out[offset] = UInt8(ascii: "\"")
            offset += 1
            for byte in bytes {
                if let escaped = escape(byte) {
                    for b in escaped { out[offset] = b; offset += 1 }
                } else {
                    out[offset] = byte
                    offset += 1
                }
            }
            out[offset] = UInt8(ascii: "\"")
        }
        return output
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        /// What the error of a malformed input suggests.
        let hint: String
        var position = 0

        /// An object of string values, from its "{" to its "}".
        mutating func object() throws -> [(key: String, value: SecretBytes)] {
            var members: [(key: String, value: SecretBytes)] = []
            try expect(UInt8(ascii: "{"), "\"{\"")
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                position += 1
                return members
            }
            while true {
                skipWhitespace()
                let key = String(decoding: try string().copyBytes(), as: UTF8.self)
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "\":\"")
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw failure("a string value") }
                members.append((key, try string()))
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "\",\" or \"}\"")
                return members
            }
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        func failure(_ expected: String) -> UsageError {
            let found = position < bytes.count ? "byte \(position)" : "the end of the input"
            return UsageError("the input is not valid JSON: expected \(expected) at \(found)", hint: hint)
        }

        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
        }

        mutating func expect(_ byte: UInt8, _ name: String) throws {
            guard peek() == byte else { throw failure(name) }
            position += 1
        }

        /// A string literal, decoded into a wiped buffer (never longer than its literal).
        mutating func string() throws -> SecretBytes {
            try expect(UInt8(ascii: "\""), "a string")
            // Never longer than its literal: the scratch buffer is that long, not the rest of the input.
            var end = position
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
            let scratch = SecretBytes(count: min(end, bytes.count) - position)
            var length = 0
            try scratch.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) in
                func put(_ scalar: UInt32) {
                    // Surrogates are refused before this, so every value here is a scalar.
                    UTF8.encode(Unicode.Scalar(scalar)!) { byte in
                        out[length] = byte
                        length += 1
                    }
                }
                while true {
                    guard let byte = peek() else { throw failure("a closing quote") }
                    position += 1
                    switch byte {
                    case UInt8(ascii: "\""):
                        return
                    case 0..<0x20:
                        position -= 1
                        throw failure("no control character inside a string")
                    case UInt8(ascii: "\\"):
                        guard let escape = peek() else { throw failure("an escape") }
                        position += 1
                        switch escape {
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): put(UInt32(escape))
                        case UInt8(ascii: "b"): put(0x08)
                        case UInt8(ascii: "f"): put(0x0C)
                        case UInt8(ascii: "n"): put(0x0A)
                        case UInt8(ascii: "r"): put(0x0D)
                        case UInt8(ascii: "t"): put(0x09)
                        case UInt8(ascii: "u"):
                            var scalar = try hex4()
                            if (0xD800..<0xDC00).contains(scalar) {
                                guard peek() == UInt8(ascii: "\\") else { throw failure("the second half of a surrogate pair") }
                                position += 1
                                try expect(UInt8(ascii: "u"), "the second half of a surrogate pair")
                                let low = try hex4()
                                guard (0xDC00..<0xE000).contains(low) else { throw failure("the second half of a surrogate pair") }
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else if (0xDC00..<0xE000).contains(scalar) {
                                throw failure("no lone surrogate")
                            }
                            put(scalar)
                        default:
                            position -= 1
                            throw failure("a valid escape")
                        }
                    default:
                        out[length] = byte
                        length += 1
                    }
                }
            }
            let decoded = scratch.withUnsafeBytes { SecretBytes(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            guard decoded.withUnsafeBytes({ String(validating: $0, as: UTF8.self) != nil }) else {
                throw failure("UTF-8 text in a string")
            }
            return decoded
        }

        private mutating func hex4() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = peek(), let digit = hexDigit(byte) else { throw failure("four hex digits after \\u") }
                value = value << 4 | digit
                position += 1
            }
            return value
        }

        private func hexDigit(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
    }
}
