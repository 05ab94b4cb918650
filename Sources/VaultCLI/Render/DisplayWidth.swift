/// How many terminal columns text takes, so table columns line up with CJK
/// characters and emoji (two columns each) and combining marks (none).
enum DisplayWidth {
    /// The columns `text` takes in a terminal. ASCII, which most names are, takes one
    /// column a byte; only other text is measured character by character (`list` measures every cell).
    static func of(_ text: String) -> Int {
        let utf8 = text.utf8
        if let count = utf8.withContiguousStorageIfAvailable({ bytes in bytes.allSatisfy { $0 < 0x80 } ? bytes.count : nil }) ?? nil {
            return count
        }
        return text.reduce(0) { $0 + of($1) }
    }

    /// One character (a grapheme cluster): wide when any of its scalars is
    /// shown as an emoji or is East Asian wide; zero for a lone combining mark.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F || isEastAsianWide($0.value) }) {
            return 2
        }
        guard let first = scalars.first else { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    /// The East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F).
    private static func isEastAsianWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
