/// The descriptive attributes `add` sets and `update` changes, as given:
/// `ItemArguments.details(_:)` checks them into `ItemDetails`.
struct ItemDetailOptions: Sendable {
    var label: String?
    var comment: String?
    var kind: String?
    var generic: String?
    var envName: String?
    /// --expires as given: a duration, a date, or never.
    var expires: String?

    init(_ options: OptionReader) {
        label = options.value(.label)
        comment = options.value(.comment)
        kind = options.value(.kind)
        generic = options.value(.generic)
        envName = options.value(.envName)
        expires = options.value(.expires)
    }

    /// Whether --expires never was given: the item's expiry is removed.
    var removesExpiry: Bool { expires == "never" }
}
