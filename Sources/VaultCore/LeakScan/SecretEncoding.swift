/// How a secret may be written where it leaked: as it is, or in an encoding
/// that configs, URLs and logs commonly hold it in. `vault scan` searches for
/// every form at once.
package enum SecretEncoding: String, CaseIterable, Sendable {
    /// The bytes themselves.
    case raw
    /// Standard base64, at each of the three alignments a secret can have
    /// inside a longer encoded text (a token inside `user:token`, as docker
    /// configs hold it), padded or not.
    case base64
    /// URL-safe base64 (`-` and `_`), at each alignment, padded or not.
    case base64url
    /// Hexadecimal, lower or upper case.
    case hex
    /// Percent-encoding (RFC 3986 unreserved characters kept, `%2F` or `%2f`),
    /// and form encoding (a space as `+`).
    case url
    /// Inside a JSON string: the minimal escapes, `\/`, every non-ASCII
    /// character as `\uXXXX` (Python), and `<`, `>`, `&` as `\u003c`… (Go).
    case json

    /// The byte strings that show `secret` in this encoding. For base64 these
    /// are the characters that depend on the secret alone (the first and last
    /// may also hold bits of its neighbours), so they match wherever the
    /// secret sits in a longer encoded text.
    package func forms(of secret: [UInt8]) -> [[UInt8]] {
        switch self {
        case .raw: return [secret]
        case .base64: return (0..<3).map { SecretEncoding.base64Core(secret, alignment: $0) }
        case .base64url: return (0..<3).map { SecretEncoding.urlSafe(SecretEncoding.base64Core(secret, alignment: $0)) }
        case .hex: return [SecretEncoding.hex(secret, digits: "0123456789abcdef"), SecretEncoding.hex(secret, digits: "0123456789ABCDEF")]
        case .url:
            return [
                SecretEncoding.percentEncoded(secret, digits: "0123456789ABCDEF", spaceAsPlus: false),
                SecretEncoding.percentEncoded(secret, digits: "0123456789abcdef", spaceAsPlus: false),
                SecretEncoding.percentEncoded(secret, digits: "0123456789ABCDEF", spaceAsPlus: true)
            ]
        case .json: return SecretEncoding.jsonForms(secret)
        }
    }

    /// The base64 characters of `secret` preceded by `alignment` bytes: those
    /// whose six bits all come from the secret.
    private static func base64Core(_ secret: [UInt8], alignment: Int) -> [UInt8] {
        let encoded = Array(Base64.encode([UInt8](repeating: 0, count: alignment) + secret).utf8)
        let first = (8 * alignment + 5) / 6
        let end = 8 * (alignment + secret.count) / 6
        return first < end ? Array(encoded[first..<end]) : []
    }

    private static func urlSafe(_ base64: [UInt8]) -> [UInt8] {
        base64.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
    }

    private static func hex(_ bytes: [UInt8], digits: String) -> [UInt8] {
        let digits = Array(digits.utf8)
        return bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func percentEncoded(_ bytes: [UInt8], digits: String, spaceAsPlus: Bool) -> [UInt8] {
        let digits = Array(digits.utf8)
        var out: [UInt8] = []
        for byte in bytes {
            if isUnreserved(byte) {
                out.append(byte)
            } else if spaceAsPlus, byte == 0x20 {
                out.append(UInt8(ascii: "+"))
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return out
    }

    /// The secret inside a JSON string as the common encoders write it; only
    /// the minimal form when the secret is not UTF-8 (no encoder writes it then).
    private static func jsonForms(_ secret: [UInt8]) -> [[UInt8]] {
        guard let text = String(validating: secret, as: UTF8.self) else { return [jsonEscaped(secret)] }
        var forms = [jsonEscaped(secret), jsonEscaped(secret, slash: true)]
        var ascii = "", htmlSafe = ""
        for unit in text.utf16 {
            ascii += unit < 0x80 ? String(decoding: jsonEscaped([UInt8(unit)]), as: UTF8.self) : unicodeEscape(unit)
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<", ">", "&", "\u{2028}", "\u{2029}": htmlSafe += unicodeEscape(UInt16(scalar.value))
            default: htmlSafe += String(decoding: jsonEscaped(Array(String(scalar).utf8)), as: UTF8.self)
            }
        }
        forms += [Array(ascii.utf8), Array(htmlSafe.utf8)]
        return forms
    }

    private static func unicodeEscape(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    private static func jsonEscaped(_ bytes: [UInt8], slash: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case UInt8(ascii: "/") where slash: out += Array("\\/".utf8)
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x00..<0x20: out += Array(unicodeEscape(UInt16(byte)).utf8)
            default: out.append(byte)
            }
        }
        return out
    }
}
