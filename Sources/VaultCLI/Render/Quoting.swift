// How names and values appear in messages and in text a shell reads back.
// JSON output and `vault env` share the escapes of `escapedByBackslash`.

/// A name in double quotes, with control characters escaped so one line stays one line.
func quoted(_ text: String) -> String {
    doubleQuoted(text, escapeControl: { "\\u{\(String($0, radix: 16))}" }, escapesDelete: true)
}

/// Bytes that may not be UTF-8, in double quotes: printable ASCII as it is, any other byte as \xHH.
func quoted(bytes: [UInt8]) -> String {
    let hex = Array("0123456789ABCDEF")
    var out = "\""
    for byte in bytes {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += "\\" + String(UnicodeScalar(byte))
        case 0x20...0x7E: out.unicodeScalars.append(UnicodeScalar(byte))
        default: out += "\\x" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
        }
    }
    return out + "\""
}

/// The escapes that JSON, C and a shell's `$'…'` write alike: `\"`, `\\`,
/// `\n`, `\t` and `\r`; nil for any other character.
func escapedByBackslash(_ value: UInt32) -> String? {
    switch value {
    case 0x22: return "\\\""
    case 0x5C: return "\\\\"
    case 0x0A: return "\\n"
    case 0x09: return "\\t"
    case 0x0D: return "\\r"
    default: return nil
    }
}

/// `text` in double quotes with `"`, backslash, newline, tab and carriage return
/// backslash-escaped, and other control characters written by `escapeControl`.
func doubleQuoted(_ text: String, escapeControl: (UInt32) -> String, escapesDelete: Bool) -> String {
    // Most text needs no escape at all (`list --json` quotes every field of every item): checked on its bytes.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && !(escapesDelete && ($0 == 0x7F || $0 == 0xC2)) }) {
        return "\"" + text + "\""
    }
    var out = "\""
    for scalar in text.unicodeScalars {
        if let escaped = escapedByBackslash(scalar.value) {
            out += escaped
        } else if scalar.value < 0x20 || (escapesDelete && isTerminalControl(scalar.value)) {
            out += escapeControl(scalar.value)
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// DEL and the C1 controls (U+0080–U+009F, among them CSI, which some terminals obey as ESC [):
/// what a terminal may act on beyond the C0 controls.
func isTerminalControl(_ value: UInt32) -> Bool {
    value == 0x7F || (0x80...0x9F).contains(value)
}

/// Whether text holds a character a terminal may act on (C0, DEL, C1), found on its bytes.
func hasTerminalControl(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
        bytes.indices.contains { index in
            bytes[index] < 0x20 || bytes[index] == 0x7F
                || (bytes[index] == 0xC2 && index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]))
        }
    }
}

/// A word as a shell would need it: bare when safe, else in single quotes;
/// with control characters, in $'…' with them escaped, so none reaches the terminal raw.
func shellQuoted(_ text: String) -> String {
    let safe = !text.isEmpty && text.unicodeScalars.allSatisfy {
        ($0.value >= 0x30 && $0.value <= 0x39) || ($0.value >= 0x41 && $0.value <= 0x5A)
            || ($0.value >= 0x61 && $0.value <= 0x7A) || "-_./:@=+,".unicodeScalars.contains($0)
    }
    if safe { return text }
    if hasTerminalControl(text) {
        // In $'…' (bash, zsh, ksh), \" \\ \n \t \r, \xHH (a byte) and \uHHHH (a character) are escapes.
        let body = doubleQuoted(text, escapeControl: { value in
            value < 0x80 ? (value < 0x10 ? "\\x0" : "\\x") + String(value, radix: 16) : "\\u00" + String(value, radix: 16)
        }, escapesDelete: true)
        return "$'" + body.dropFirst().dropLast().replacing("'", with: "\\'") + "'"
    }
    return "'" + text.replacing("'", with: "'\\''") + "'"
}
