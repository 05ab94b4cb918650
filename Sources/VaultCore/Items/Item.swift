import FoundationEssentials
import VaultCrypto

/// The descriptive attributes of an item, beside its key and class. In an
/// `ItemChange`, nil means "leave as it is".
public struct ItemDetails: Equatable, Sendable {
    /// A name for people (kSecAttrLabel).
    public var label: String?
    /// A free-text note (kSecAttrComment).
    public var comment: String?
    /// What the secret is, e.g. "token" (kSecAttrDescription); the Codable API sets `json`.
    public var kind: String?
    /// Free-form data the caller keeps with the item (kSecAttrGeneric), as text.
    package var generic: String?
    /// The environment variable name `vault env` and `vault run` give the secret.
    package var envName: String?
    /// When the item expires: reading it afterwards throws `itemExpired`; nil for never.
    package var expires: Date?

    /// Details with the fields given; every field defaults to nil (unset).
    public init(
        label: String? = nil, comment: String? = nil, kind: String? = nil, generic: String? = nil,
        envName: String? = nil, expires: Date? = nil
    ) {
        self.label = label
        self.comment = comment
        self.kind = kind
        self.generic = generic
        self.envName = envName
        self.expires = expires
    }

    /// These details with every field that `change` sets replaced.
    package func applying(_ change: ItemDetails) -> ItemDetails {
        ItemDetails(
            label: change.label ?? label, comment: change.comment ?? comment, kind: change.kind ?? kind,
            generic: change.generic ?? generic, envName: change.envName ?? envName, expires: change.expires ?? expires)
    }

    /// The text fields by name, for validation and output.
    package var textFields: [(name: String, value: String?)] {
        [("label", label), ("comment", comment), ("kind", kind), ("generic", generic), ("env-name", envName)]
    }

    /// Whether no field is set.
    package var isEmpty: Bool { self == ItemDetails() }
}

/// The attributes of one item (Keychain generic-password semantics). The
/// primary key is (group, service, account). Attributes never hold the secret.
public struct ItemAttributes: Equatable, Sendable {
    /// What the secret is for, e.g. "github": part of the primary key, never empty.
    public var service: String
    /// Who the secret belongs to, e.g. "ci-bot": part of the primary key; may be empty.
    public var account: String
    /// The access group: who may read the item; part of the primary key.
    public var group: AccessGroup
    /// The class: when the item may be read, and on which machine.
    public var accessibility: Accessibility
    /// Label, comment, kind, generic data, environment name and expiry.
    public var details: ItemDetails
    /// When the item was first added; kept when it is replaced or updated.
    public var created: Date
    /// When the item or its secret last changed.
    public var modified: Date

    /// Attributes with the key, class and details given (the default group and class when not).
    package init(
        service: String, account: String, group: AccessGroup = .default, accessibility: Accessibility = .default,
        details: ItemDetails = ItemDetails(), created: Date, modified: Date
    ) {
        self.service = service
        self.account = account
        self.group = group
        self.accessibility = accessibility
        self.details = details
        self.created = created
        self.modified = modified
    }

    /// The primary key of the item.
    package var key: ItemKey { ItemKey(group: group, service: service, account: account) }

    /// Whether the item's expiry date has come at `date`.
    package func hasExpired(at date: Date) -> Bool {
        details.expires.map { date >= $0 } ?? false
    }
}

/// The primary key of an item.
public struct ItemKey: Hashable, Sendable {
    /// The item's access group.
    package var group: AccessGroup
    /// The item's service.
    package var service: String
    /// The item's account.
    package var account: String

    /// The key of the item with this group, service and account.
    package init(group: AccessGroup, service: String, account: String) {
        self.group = group
        self.service = service
        self.account = account
    }
}

/// A secret an item held before, kept by `update` (`Vault.history(matching:)`): sealed in the
/// item's record, like its current secret.
public struct SecretRevision: Sendable {
    /// The secret's bytes.
    package let secret: SecretBytes
    /// When the item was last changed while it held this secret.
    package let setAt: Date
    /// When it was replaced.
    package let replacedAt: Date

    /// A revision of these bytes, set and replaced at these dates.
    package init(secret: SecretBytes, setAt: Date, replacedAt: Date) {
        self.secret = secret
        self.setAt = setAt
        self.replacedAt = replacedAt
    }
}

/// An item with its secret.
public struct Item: Sendable {
    /// Everything about the item but its secret.
    public var attributes: ItemAttributes
    /// The secret's bytes, exactly as stored.
    public var secret: SecretBytes
    /// The secrets it keeps beside the secret (notes, a one-time code), sealed with it.
    package var fields: SealedFields

    /// An item with these attributes, this secret and these sealed fields.
    package init(attributes: ItemAttributes, secret: SecretBytes, fields: SealedFields = SealedFields()) {
        self.attributes = attributes
        self.secret = secret
        self.fields = fields
    }

    /// What a masker conceals and a scan looks for: the secret, the one-time code field, each
    /// line of the notes (a recovery code or a user name is printed alone, not with its neighbours),
    /// and the seed of a one-time code secret in the forms it is printed in
    /// (`OneTimeCodeSecret.seedForms`), whether it is the secret or the otp field. The secret is first.
    package var secretValues: [SecretBytes] {
        let seeds = OneTimeCodeSecret.seedForms(of: secret)
        guard !fields.isEmpty else { return [secret] + seeds }
        return [secret] + seeds
            + fields.present.flatMap { present -> [SecretBytes] in
                switch present.field {
                case .notes: Item.lines(of: present.value)
                case .oneTimeCode: [present.value] + OneTimeCodeSecret.seedForms(of: present.value)
                }
            }
    }

    private static func lines(of value: SecretBytes) -> [SecretBytes] {
        value.withUnsafeBytes { bytes in
            bytes.split(separator: 0x0A).map { line in
                SecretBytes(UnsafeRawBufferPointer(rebasing: line.last == 0x0D ? line.dropLast() : line))
            }
        }
    }
}

/// Limits on what an item may hold.
package enum ItemLimits {
    /// The largest secret a vault stores, its sealed fields counted in: 1 MiB.
    package static let maxSecretBytes = 1 << 20
    /// The largest service, account or other text attribute, in UTF-8 bytes.
    package static let maxAttributeBytes = 4096
}

/// An item to add: its key, class, details and secret; dates are set by the vault.
public struct NewItem: Sendable {
    /// What the secret is for: part of the primary key, never empty.
    package var service: String
    /// Who the secret belongs to: part of the primary key; may be empty.
    package var account: String
    /// The access group to add it to (`default` unless given).
    package var group: AccessGroup
    /// When it may be read (`when-unlocked` unless given).
    package var accessibility: Accessibility
    /// Label, comment, kind, generic data, environment name and expiry.
    package var details: ItemDetails
    /// The secret: any bytes; with the sealed fields, at most `ItemLimits.maxSecretBytes`.
    package var secret: SecretBytes
    /// Notes and a one-time code kept beside the secret, sealed with it.
    package var fields: SealedFields

    /// An item to add; `Vault.add` checks it (`Vault.validate`) and sets its dates.
    public init(
        service: String, account: String, group: AccessGroup = .default, accessibility: Accessibility = .default,
        details: ItemDetails = ItemDetails(), secret: SecretBytes, fields: SealedFields = SealedFields()
    ) {
        self.service = service
        self.account = account
        self.group = group
        self.accessibility = accessibility
        self.details = details
        self.secret = secret
        self.fields = fields
    }

    /// The primary key the item will have.
    package var key: ItemKey { ItemKey(group: group, service: service, account: account) }
}

/// The changes `update` applies to one item; nil leaves a field as it is.
public struct ItemChange: Sendable {
    /// A new class for the item (re-sealed under its keys); nil keeps it.
    package var accessibility: Accessibility?
    /// The details to set; its nil fields keep the item's.
    package var details: ItemDetails
    /// A new secret; nil keeps it.
    package var secret: SecretBytes?
    /// Removes the item's expiry date (`details.expires` can only set one).
    package var removesExpiry: Bool
    /// The sealed fields to set; an empty value removes its field, one not named is kept.
    package var fields: [SealedField: SecretBytes]

    /// A change of the fields given; with no argument, a change that changes nothing.
    public init(
        accessibility: Accessibility? = nil, details: ItemDetails = ItemDetails(), secret: SecretBytes? = nil,
        removesExpiry: Bool = false, fields: [SealedField: SecretBytes] = [:]
    ) {
        self.accessibility = accessibility
        self.details = details
        self.secret = secret
        self.removesExpiry = removesExpiry
        self.fields = fields
    }

    /// Whether the change would change nothing.
    package var isEmpty: Bool { accessibility == nil && details.isEmpty && secret == nil && !removesExpiry && fields.isEmpty }
}
