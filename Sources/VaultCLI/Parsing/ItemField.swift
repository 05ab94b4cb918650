import FoundationEssentials
import VaultCore

/// One attribute that `vault get --field` prints alone, for scripts that
/// would otherwise pipe `--json` to jq. Never the secret (nor a sealed field: `FieldChoice`). Every attribute
/// `get --json` shows has one, named as its JSON key.
enum ItemField: String, CaseIterable {
    case service, account, group, `class`, label, comment, kind, generic
    case envName = "env_name"
    case created, modified, expires, expired

    /// The attribute's text; empty when the item has none (no label, no
    /// expiry); `expired` is `true` or `false` (an item without expiry never expires).
    func text(of attributes: ItemAttributes, now: Date) -> String {
        switch self {
        case .service: attributes.service
        case .account: attributes.account
        case .group: attributes.group.name
        case .class: attributes.accessibility.rawValue
        case .label: attributes.details.label ?? ""
        case .comment: attributes.details.comment ?? ""
        case .kind: attributes.details.kind ?? ""
        case .generic: attributes.details.generic ?? ""
        case .envName: attributes.details.envName ?? ""
        case .created: DateText.iso(attributes.created)
        case .modified: DateText.iso(attributes.modified)
        case .expires: attributes.details.expires.map(DateText.iso) ?? ""
        case .expired: attributes.hasExpired(at: now) ? "true" : "false"
        }
    }
}

/// What `get --field` prints: an attribute as a line of text, or a sealed field's bytes exactly, as the secret is printed.
enum FieldChoice {
    case attribute(ItemField)
    case sealed(SealedField)

    /// Every name `--field` takes.
    static var names: [String] { ItemField.allCases.map(\.rawValue) + SealedField.allCases.map(\.rawValue) }

    /// The field `name` names (one of `names`, or env-name); nil for any other.
    init?(name: String) {
        if let sealed = SealedField(rawValue: name) {
            self = .sealed(sealed)
        } else if let attribute = ItemField(rawValue: name == "env-name" ? ItemField.envName.rawValue : name) {
            self = .attribute(attribute)
        } else {
            return nil
        }
    }
}
