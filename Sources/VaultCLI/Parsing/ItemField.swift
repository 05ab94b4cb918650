import VaultCore

/// One attribute that `vault get --field` prints alone, for scripts that
/// would otherwise pipe `--json` to jq. Never the secret.
enum ItemField: String, CaseIterable {
    case service, account, label, group, `class`, created, modified, expires

    /// The attribute's text; empty when the item has none (no label, no expiry).
    func text(of attributes: ItemAttributes) -> String {
        switch self {
        case .service: attributes.service
        case .account: attributes.account
        case .label: attributes.details.label ?? ""
        case .group: attributes.group.name
        case .class: attributes.accessibility.rawValue
        case .created: DateText.iso(attributes.created)
        case .modified: DateText.iso(attributes.modified)
        case .expires: attributes.details.expires.map(DateText.iso) ?? ""
        }
    }
}

extension ItemField {
    /// The field `--field` names, refusing the options it cannot go with.
    static func requested(by arguments: ParsedArguments) throws -> ItemField? {
        guard let name = arguments.value(.field) else { return nil }
        for other in [OptionName.json, .showSecret] where arguments.options[other.long] != nil {
            throw UsageError("--field and --\(other.long) both choose what get prints", hint: "give one of them")
        }
        return ItemField(rawValue: name)
    }
}
