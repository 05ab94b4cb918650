import FoundationEssentials
import VaultCrypto

/// The attributes of one item (Keychain generic-password semantics). The
/// primary key is (group, service, account). Attributes never hold the secret.
public struct ItemAttributes: Equatable, Sendable {
    public var service: String
    public var account: String
    public var group: AccessGroup
    public var accessibility: Accessibility
    public var label: String?
    public var comment: String?
    public var kind: String?
    public var generic: String?
    public var created: Date
    public var modified: Date
    public var expires: Date?

    public init(
        service: String, account: String, group: AccessGroup = .default,
        accessibility: Accessibility = .default, label: String? = nil, comment: String? = nil,
        kind: String? = nil, generic: String? = nil, created: Date, modified: Date, expires: Date? = nil
    ) {
        self.service = service
        self.account = account
        self.group = group
        self.accessibility = accessibility
        self.label = label
        self.comment = comment
        self.kind = kind
        self.generic = generic
        self.created = created
        self.modified = modified
        self.expires = expires
    }

    /// The primary key of the item.
    public var key: ItemKey { ItemKey(group: group, service: service, account: account) }
}

/// The primary key of an item.
public struct ItemKey: Hashable, Sendable {
    public var group: AccessGroup
    public var service: String
    public var account: String

    public init(group: AccessGroup, service: String, account: String) {
        self.group = group
        self.service = service
        self.account = account
    }
}

/// An item with its secret.
public struct Item: Sendable {
    public var attributes: ItemAttributes
    public var secret: SecretBytes

    public init(attributes: ItemAttributes, secret: SecretBytes) {
        self.attributes = attributes
        self.secret = secret
    }
}

/// Limits on what an item may hold.
public enum ItemLimits {
    /// The largest secret a vault stores: 1 MiB.
    public static let maxSecretBytes = 1 << 20
    /// The largest service, account or other text attribute, in UTF-8 bytes.
    public static let maxAttributeBytes = 4096
}

/// The attributes a new item is added with; dates are set by the vault.
public struct NewItem: Sendable {
    public var service: String
    public var account: String
    public var group: AccessGroup
    public var accessibility: Accessibility
    public var label: String?
    public var comment: String?
    public var kind: String?
    public var generic: String?
    public var expires: Date?
    public var secret: SecretBytes

    public init(
        service: String, account: String, group: AccessGroup = .default,
        accessibility: Accessibility = .default, label: String? = nil, comment: String? = nil,
        kind: String? = nil, generic: String? = nil, expires: Date? = nil, secret: SecretBytes
    ) {
        self.service = service
        self.account = account
        self.group = group
        self.accessibility = accessibility
        self.label = label
        self.comment = comment
        self.kind = kind
        self.generic = generic
        self.expires = expires
        self.secret = secret
    }
}

/// The changes `update` applies to one item; nil leaves a field as it is.
public struct ItemChange: Sendable {
    public var accessibility: Accessibility?
    public var label: String?
    public var comment: String?
    public var kind: String?
    public var generic: String?
    public var expires: Date?
    public var secret: SecretBytes?

    public init(
        accessibility: Accessibility? = nil, label: String? = nil, comment: String? = nil,
        kind: String? = nil, generic: String? = nil, expires: Date? = nil, secret: SecretBytes? = nil
    ) {
        self.accessibility = accessibility
        self.label = label
        self.comment = comment
        self.kind = kind
        self.generic = generic
        self.expires = expires
        self.secret = secret
    }

    /// Whether the change would change nothing.
    public var isEmpty: Bool {
        accessibility == nil && label == nil && comment == nil && kind == nil && generic == nil
            && expires == nil && secret == nil
    }
}
