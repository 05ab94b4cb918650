/// Standard base64 (RFC 4648, with padding), for key files and JSON output.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes bytes as base64 text.
    package static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(decoding: encodedBytes(bytes), as: UTF8.self)
    }

    /// Encodes bytes as base64, as ASCII bytes (which a caller can wipe, unlike a `String`).
    package static func encodedBytes<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i < input.count {
            let b0 = input[i], b1 = i + 1 < input.count ? input[i + 1] : 0, b2 = i + 2 < input.count ? input[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < input.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < input.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            i += 3
        }
        return out
    }
}

extension Base64 {
    /// Decodes base64 text (padding required, no whitespace); nil when `text` is not base64.
    package static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var values: [UInt8] = []
        values.reserveCapacity(input.count)
        for (position, character) in input.enumerated() {
            if character == UInt8(ascii: "=") {
                // Padding only in the last two places, and only as a suffix.
                guard position >= input.count - 2, input[position...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return nil }
                break
            }
            guard let value = alphabetIndex[character] else { return nil }
            values.append(value)
        }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i + 1 < values.count {
            out.append(values[i] << 2 | values[i + 1] >> 4)
            if i + 2 < values.count { out.append(values[i + 1] << 4 | values[i + 2] >> 2) }
            if i + 3 < values.count { out.append(values[i + 2] << 6 | values[i + 3]) }
            i += 4
        }
        guard values.count % 4 != 1 else { return nil }
        return out
    }

    private static let alphabetIndex: [UInt8: UInt8] = Dictionary(
        uniqueKeysWithValues: alphabet.enumerated().map { ($0.element, UInt8($0.offset)) })
}
