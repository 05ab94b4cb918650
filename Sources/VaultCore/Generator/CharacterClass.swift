/// The four classes of printable ASCII that a generated password can be
/// required to contain (`--require upper,lower,digit,symbol`).
package enum CharacterClass: String, CaseIterable, Sendable {
    /// A to Z.
    case upper
    /// a to z.
    case lower
    /// 0 to 9.
    case digit
    /// Printable ASCII that is neither a letter nor a digit, space excluded.
    case symbol

    /// The class's characters, in ASCII order.
    package var characters: [UInt8] {
        switch self {
        case .upper: Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        case .lower: Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
        case .digit: Array(UInt8(ascii: "0")...UInt8(ascii: "9"))
        case .symbol: (0x21...0x7E).map { UInt8($0) }.filter { !CharacterClass.isAlphanumeric($0) }
        }
    }

    /// Whether `byte` belongs to the class.
    package func contains(_ byte: UInt8) -> Bool {
        switch self {
        case .upper: (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        case .lower: (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        case .digit: (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        case .symbol: (0x21...0x7E).contains(byte) && !CharacterClass.isAlphanumeric(byte)
        }
    }

    /// Characters easily mistaken for one another when read or typed:
    /// `0 O 1 l I |` (`--no-ambiguous`).
    package static let ambiguous: [UInt8] = Array("0O1lI|".utf8)

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        CharacterClass.upper.contains(byte) || CharacterClass.lower.contains(byte) || CharacterClass.digit.contains(byte)
    }
}
