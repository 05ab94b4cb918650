/// What is damaged in a vault file (`VaultError.corrupted`): the facts a caller may act on as a
/// kind, and a description the command line shows. Written from a string literal for damage
/// nothing decides by; control flow looks at `kind`, never at the words.
public struct Damage: Error, Equatable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// Damage a caller tells apart from the rest.
    public enum Kind: Equatable, Sendable {
        /// The header MAC does not check under the keys at hand: damage, or keys that are not the
        /// file's any more (an unlock session from before a re-key).
        case headerMACMismatch
    }

    /// The kind, when the damage is one a caller tells apart; nil for the rest.
    public let kind: Kind?
    /// What is damaged, in words (the command line shows it after the file's name).
    public let description: String

    /// Damage described by `description`, of `kind` when callers tell it apart.
    public init(_ description: String, kind: Kind? = nil) {
        self.description = description
        self.kind = kind
    }

    /// Damage of no particular kind, described by a literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// Damage of no particular kind, described by an interpolated string.
    public init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

    /// The header MAC does not match.
    public static let headerMACMismatch = Damage("the header MAC does not match", kind: .headerMACMismatch)

    /// Whether the header MAC failed (see `Kind.headerMACMismatch`).
    public var isHeaderMACMismatch: Bool { kind == .headerMACMismatch }
}
