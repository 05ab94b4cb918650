/// The name of an access group: who may read an item. Valid names are 1–64
/// characters of letters, digits, `.`, `_` and `-`, starting with a letter or
/// digit, so an invalid group cannot exist.
public struct AccessGroup: Hashable, Sendable, CustomStringConvertible {
    /// The group's name, as validated by `init?(_:)`.
    public let name: String

    /// The group items belong to when none is named.
    public static let `default` = AccessGroup(uncheckedName: "default")

    /// Returns nil for an empty or malformed name.
    public init?(_ name: String) {
        guard AccessGroup.isValid(name) else { return nil }
        self.name = name
    }

    private init(uncheckedName: String) {
        self.name = uncheckedName
    }

    /// The group's name, as written in messages and `vault://` references.
    public var description: String { name }

    /// The longest name, in bytes.
    package static let maxLength = 64

    /// The rule a group name must follow, for error messages.
    package static let rule = "1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"

    private static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...maxLength).contains(bytes.count) else { return false }
        func isAlphanumeric(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
        }
        guard isAlphanumeric(bytes[0]) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }
}
