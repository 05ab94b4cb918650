/// The one rule for text others chose (item, group and member names, labels, notes shown as
/// names, git authors, paths): the characters a terminal may act on or that hide or reorder what
/// is shown, which every output makes visible instead of printing them (the command line as
/// `\u{…}`, JSON as `\u` escapes, references as `%XX`). docs/SECURITY.md lists what it covers.
package enum HiddenCharacters {
    /// Whether `scalar` must be made visible: a C0 control, DEL, a C1 control (CSI, U+009B, which
    /// some terminals obey as ESC [), a format character (bidirectional overrides and isolates
    /// such as U+202E and U+2066, marks, zero-width characters, the BOM, soft hyphen, tags) or a
    /// line or paragraph separator.
    package static func mustShow(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || value == 0x7F { return true }
        if value < 0x80 { return false }
        return value <= 0x9F || value == 0x2028 || value == 0x2029 || scalar.properties.generalCategory == .format
    }

    /// Whether `text` holds a character `mustShow` names; printable ASCII is told on its bytes.
    package static func occur(in text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 >= 0x7F } && text.unicodeScalars.contains(where: mustShow)
    }
}
