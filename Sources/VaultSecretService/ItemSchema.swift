import FoundationEssentials
import VaultCore

/// How an item's attributes are kept as Secret Service attributes, under the
/// schema `io.github.vault.Item` (docs/SECRET-SERVICE.md). Attribute names are
/// plain (`service`, `account`), as `secret-tool` and other tools write them.
enum ItemSchema {
    /// The `xdg:schema` value of items vault stores.
    static let name = "io.github.vault.Item"

    static let service = "service"
    static let account = "account"
    static let group = "access-group"
    static let accessibility = "accessibility"
    static let comment = "comment"
    static let kind = "kind"
    static let generic = "generic"
    static let envName = "env-name"
    static let expires = "expires"
    /// Set on `…-this-device-only` items: a digest of this machine's id.
    static let device = "device"

    /// Every attribute of the schema.
    static let attributeNames = [service, account, group, accessibility, comment, kind, generic, envName, expires, device]

    /// The attributes that describe `attributes` (the label is the item's own label).
    static func attributes(of attributes: ItemAttributes, device: String?) -> [String: String?] {
        var result: [String: String?] = [
            service: attributes.service,
            account: attributes.account,
            group: attributes.group.name,
            accessibility: attributes.accessibility.rawValue
        ]
        let details = attributes.details
        let optional: [(String, String?)] = [
            (comment, details.comment), (kind, details.kind), (generic, details.generic), (envName, details.envName),
            (expires, details.expires.map { String(Int64($0.timeIntervalSince1970)) }),
            (self.device, attributes.accessibility.isDeviceBound ? device : nil)
        ]
        for (name, value) in optional {
            if let value { result[name] = value }
        }
        return result
    }

    /// The label an item gets when none is given; read back as no label.
    static func defaultLabel(service: String, account: String) -> String {
        "\(service) (\(account))"
    }

    /// An item's attributes from what the Secret Service holds; nil for an item
    /// without a `service` attribute (not one vault can address). Items stored
    /// by other tools have no group or class: they read as group `default`, class `when-unlocked`.
    static func item(from values: [String: String], label: String?, created: UInt64, modified: UInt64) -> ItemAttributes? {
        guard let serviceName = values[service], !serviceName.isEmpty else { return nil }
        let accountName = values[account] ?? ""
        let itemLabel = label.flatMap { $0.isEmpty || $0 == defaultLabel(service: serviceName, account: accountName) ? nil : $0 }
        let details = ItemDetails(
            label: itemLabel, comment: values[comment], kind: values[kind], generic: values[generic],
            envName: values[envName],
            expires: values[expires].flatMap(Int64.init).map { Date(timeIntervalSince1970: Double($0)) })
        return ItemAttributes(
            service: serviceName, account: accountName,
            group: values[group].flatMap(AccessGroup.init) ?? .default,
            accessibility: values[accessibility].flatMap(Accessibility.init(rawValue:)) ?? .default,
            details: details,
            created: Date(timeIntervalSince1970: Double(created)),
            modified: Date(timeIntervalSince1970: Double(modified)))
    }
}
