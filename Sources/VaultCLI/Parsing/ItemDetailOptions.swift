/// The descriptive attributes `add` sets and `update` changes, as given:
/// `ItemArguments.details(_:)` checks them into `ItemDetails`.
struct ItemDetailOptions: Sendable {
    var label: String?
    var comment: String?
    var kind: String?
    var generic: String?
    var envName: String?
    /// --expires: a duration or a date; nil when not given or never (`removesExpiry`).
    var expires: Converted<PointInTime>?
    /// Whether --expires never was given: the item's expiry is removed.
    var removesExpiry: Bool

    init(_ options: OptionReader) {
        label = options.value(ItemSelection.label)
        comment = options.value(Self.comment)
        kind = options.value(Self.kind)
        generic = options.value(Self.generic)
        envName = options.value(Self.envName)
        let expires = options.value(Self.expires)
        self.expires = PointInTime.expiry(expires)
        removesExpiry = expires == "never"
    }
}

// The attributes `add` sets and `update` changes, declared once.
extension ItemDetailOptions {
    static let comment = OptionSpec("comment", short: "j", value: "COMMENT", help: "free-form comment")
    static let kind = OptionSpec("kind", short: "D", value: "KIND", help: "kind of secret, e.g. \"api token\"")
    static let generic = OptionSpec("generic", short: "G", value: "DATA", help: "application data stored beside the secret")
    static let envName = OptionSpec("env-name", value: "NAME", help: "variable name for vault env; default: SERVICE_ACCOUNT upper-cased")
    /// `--expires` of add; update adds that `never` removes an expiry (`expires(_:)`).
    static let expires = OptionSpec(
        "expires", value: "WHEN",
        help: "the item expires after a duration (90m, 30d) or at a date (2027-01-31, 2027-01-31T12:00Z)")

    /// The attributes but --expires, in the order help shows them.
    static let options: [OptionSpec] = [ItemSelection.label.with(help: "label shown by list"), comment, kind, generic, envName]

    /// --expires, its help ending with `more`.
    static func expires(_ more: String) -> OptionSpec { expires.with(help: expires.help + more) }
}
