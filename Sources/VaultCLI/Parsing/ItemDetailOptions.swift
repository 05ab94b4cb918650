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
        label = options.value(.label)
        comment = options.value(.comment)
        kind = options.value(.kind)
        generic = options.value(.generic)
        envName = options.value(.envName)
        let expires = options.value(.expires)
        self.expires = PointInTime.expiry(expires)
        removesExpiry = expires == "never"
    }
}
