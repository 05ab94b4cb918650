import FoundationEssentials
import VaultCore

/// One attribute that `vault get --field` prints alone, for scripts that
/// would otherwise pipe `--json` to jq. Never the secret. Every attribute
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

extension ItemField {
    /// The field `--field` names, refusing the options it cannot go with.
    static func requested(by arguments: ParsedArguments) throws -> ItemField? {
        guard let name = arguments.value(.field) else { return nil }
        for other in arguments.given([.json, .showSecret]) {
            throw UsageError("--field and --\(other.long) both choose what get prints", hint: "give one of them")
        }
        return ItemField(rawValue: name == "env-name" ? ItemField.envName.rawValue : name)
    }
}
