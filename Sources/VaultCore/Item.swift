import FoundationEssentials
import VaultCrypto

/// The descriptive attributes of an item, beside its key and class. In an
/// `ItemChange`, nil means "leave as it is".
public struct ItemDetails: Equatable, Sendable {
    public var label: String?
    public var comment: String?
    public var kind: String?
    public var generic: String?
    /// The environment variable name `vault env` and `vault run` give the secret.
    public var envName: String?
    public var expires: Date?

    public init(label: String? = nil, comment: String? = nil, kind: String? = nil, generic: String? = nil,
                envName: String? = nil, expires: Date? = nil) {
        self.label = label
        self.comment = comment
        self.kind = kind
        self.generic = generic
        self.envName = envName
        self.expires = expires
    }

    /// These details with every field that `change` sets replaced.
    public func applying(_ change: ItemDetails) -> ItemDetails {
        ItemDetails(label: change.label ?? label, comment: change.comment ?? comment, kind: change.kind ?? kind,
                    generic: change.generic ?? generic, envName: change.envName ?? envName, expires: change.expires ?? expires)
    }

    /// The text fields by name, for validation and output.
    public var textFields: [(name: String, value: String?)] {
        [("label", label), ("comment", comment), ("kind", kind), ("generic", generic), ("env-name", envName)]
    }

    /// Whether no field is set.
    public var isEmpty: Bool { self == ItemDetails() }
}

/// The attributes of one item (Keychain generic-password semantics). The
/// primary key is (group, service, account). Attributes never hold the secret.
public struct ItemAttributes: Equatable, Sendable {
    public var service: String
    public var account: String
    public var group: AccessGroup
    public var accessibility: Accessibility
    public var details: ItemDetails
    public var created: Date
    public var modified: Date

    public init(service: String, account: String, group: AccessGroup = .default, accessibility: Accessibility = .default,
                details: ItemDetails = ItemDetails(), created: Date, modified: Date) {
        self.service = service
        self.account = account
        self.group = group
        self.accessibility = accessibility
        self.details = details
        self.created = created
        self.modified = modified
    }

    /// The primary key of the item.
    public var key: ItemKey { ItemKey(group: group, service: service, account: account) }

    /// Whether the item's expiry date has come at `date`.
    public func hasExpired(at date: Date) -> Bool {
        details.expires.map { date >= $0 } ?? false
    }
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

/// An item to add: its key, class, details and secret; dates are set by the vault.
public struct NewItem: Sendable {
    public var service: String
    public var account: String
    public var group: AccessGroup
    public var accessibility: Accessibility
    public var details: ItemDetails
    public var secret: SecretBytes

    public init(service: String, account: String, group: AccessGroup = .default, accessibility: Accessibility = .default,
                details: ItemDetails = ItemDetails(), secret: SecretBytes) {
        self.service = service
        self.account = account
        self.group = group
        self.accessibility = accessibility
        self.details = details
        self.secret = secret
    }
}

/// The changes `update` applies to one item; nil leaves a field as it is.
public struct ItemChange: Sendable {
    public var accessibility: Accessibility?
    public var details: ItemDetails
    public var secret: SecretBytes?
    /// Removes the item's expiry date (`details.expires` can only set one).
    public var removesExpiry: Bool

    public init(accessibility: Accessibility? = nil, details: ItemDetails = ItemDetails(), secret: SecretBytes? = nil,
                removesExpiry: Bool = false) {
        self.accessibility = accessibility
        self.details = details
        self.secret = secret
        self.removesExpiry = removesExpiry
    }

    /// Whether the change would change nothing.
    public var isEmpty: Bool { accessibility == nil && details.isEmpty && secret == nil && !removesExpiry }
}
