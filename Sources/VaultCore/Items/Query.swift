/// A query over item attributes: every field that is set must match exactly;
/// unset fields match anything. An empty query matches every item.
public struct Query: Equatable, Sendable {
    /// The service to match.
    package var service: String?
    /// The account to match.
    package var account: String?
    /// nil searches every group the caller can open.
    package var group: AccessGroup?
    /// The class to match.
    package var accessibility: Accessibility?
    /// The label to match.
    package var label: String?
    /// The comment to match.
    package var comment: String?
    /// The kind to match.
    package var kind: String?
    /// The generic data to match.
    package var generic: String?

    /// A query on the fields given; with no argument, one that matches every item.
    public init(
        service: String? = nil, account: String? = nil, group: AccessGroup? = nil,
        accessibility: Accessibility? = nil, label: String? = nil, comment: String? = nil,
        kind: String? = nil, generic: String? = nil
    ) {
        self.service = service
        self.account = account
        self.group = group
        self.accessibility = accessibility
        self.label = label
        self.comment = comment
        self.kind = kind
        self.generic = generic
    }

    /// Whether the item's attributes satisfy every field of the query.
    package func matches(_ item: ItemAttributes) -> Bool {
        (service == nil || service == item.service)
            && (account == nil || account == item.account)
            && (group == nil || group == item.group)
            && (accessibility == nil || accessibility == item.accessibility)
            && (label == nil || label == item.details.label)
            && (comment == nil || comment == item.details.comment)
            && (kind == nil || kind == item.details.kind)
            && (generic == nil || generic == item.details.generic)
    }

    /// Whether the query names only where items are (a group, a class) and nothing they say.
    var selectsByPlaceOnly: Bool {
        service == nil && account == nil && label == nil && comment == nil && kind == nil && generic == nil
    }

    /// Whether the lookup index can answer the query: service and account both given.
    var usesLookupIndex: Bool { service != nil && account != nil }
}
