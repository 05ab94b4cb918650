import VaultCore

// How names and values appear in messages and in text a shell reads back. Every output makes
// the characters of `HiddenCharacters.mustShow` visible (the one rule for text others chose);
// JSON output and `vault env` share the escapes of `escapedByBackslash`.

/// A name in double quotes, with control, bidirectional and other hidden characters escaped as
/// `\u{…}`, so one line stays one line and reads in the order it is stored.
func quoted(_ text: String) -> String {
    doubleQuoted(text, escapeControl: visibleEscape)
}

/// How plain text shows a character `HiddenCharacters.mustShow` names: `\u{1b}`, `\u{202e}`.
func visibleEscape(_ value: UInt32) -> String {
    "\\u{\(String(value, radix: 16))}"
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
/// backslash-escaped, and every other character `HiddenCharacters.mustShow` names written by `escapeControl`.
func doubleQuoted(_ text: String, escapeControl: (UInt32) -> String) -> String {
    // Most text needs no escape at all (`list --json` quotes every field of every item): checked on its bytes.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
        return "\"" + text + "\""
    }
    var out = "\""
    for scalar in text.unicodeScalars {
        if let escaped = escapedByBackslash(scalar.value) {
            out += escaped
        } else if HiddenCharacters.mustShow(scalar) {
            out += escapeControl(scalar.value)
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// A word as a shell would need it: bare when safe, else in single quotes;
/// with control characters, in $'…' with them escaped, so none reaches the terminal raw.
func shellQuoted(_ text: String) -> String {
    let safe =
        !text.isEmpty
        && text.unicodeScalars.allSatisfy {
            ($0.value >= 0x30 && $0.value <= 0x39) || ($0.value >= 0x41 && $0.value <= 0x5A)
                || ($0.value >= 0x61 && $0.value <= 0x7A) || "-_./:@=+,".unicodeScalars.contains($0)
        }
    if safe { return text }
    if HiddenCharacters.occur(in: text) {
        // In $'…' (bash, zsh, ksh), \" \\ \n \t \r, \xHH (a byte), \uHHHH and \UHHHHHHHH (a character) are escapes.
        let body = doubleQuoted(
            text,
            escapeControl: { value in
                let hex = String(value, radix: 16)
                if value < 0x80 { return "\\x" + String(repeating: "0", count: 2 - hex.count) + hex }
                if value <= 0xFFFF { return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex }
                return "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
            })
        return "$'" + body.dropFirst().dropLast().replacing("'", with: "\\'") + "'"
    }
    return "'" + text.replacing("'", with: "'\\''") + "'"
}
