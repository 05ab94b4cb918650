import FoundationEssentials
import VaultCore
import VaultCrypto

/// The fields of one item in a plaintext export (`vault export --format csv|json --plaintext`),
/// in the order of the CSV's columns and of each JSON object's members (docs/CLI.md, "Plaintext
/// exports"), and the item read back from them, byte for byte. A field that is absent (an unset
/// attribute) is left out of a JSON object and is an unquoted empty CSV cell; an empty text is `""`.
enum PlainExportFields {
    /// The sealed values, each written as text (NAME) or, when it is not, as base64 (NAME_base64):
    /// the secret, then each sealed field (`SealedField`'s raw value).
    static let sealedValues = ["secret"] + SealedField.allCases.map(\.rawValue)

    /// Every field, in order.
    static let names =
        [
            "group", "service", "account", "class", "label", "comment", "kind", "generic", "env_name",
            "created", "modified", "expires"
        ] + sealedValues.flatMap { [$0, $0 + "_base64"] }

    /// The fields of `item`. Each sealed value goes in NAME when it is UTF-8 text without a NUL
    /// byte, else in NAME_base64; the other of the two is absent (both, for a field the item lacks).
    static func fields(of item: Item) -> [(name: String, value: SecretBytes?)] {
        let attributes = item.attributes
        let details = attributes.details
        func text(_ value: String?) -> SecretBytes? { value.map { SecretBytes(Array($0.utf8)) } }
        func textOrBase64(_ value: SecretBytes?) -> [SecretBytes?] {
            guard let value else { return [nil, nil] }
            let isText = value.withUnsafeBytes { !$0.contains(0) && String(validating: $0, as: UTF8.self) != nil }
            return isText ? [value, nil] : [nil, value.withUnsafeBytes { SecretBytes(Base64.encodedBytes($0)) }]
        }
        let values: [SecretBytes?] =
            [
                text(attributes.group.name), text(attributes.service), text(attributes.account), text(attributes.accessibility.rawValue),
                text(details.label), text(details.comment), text(details.kind), text(details.generic), text(details.envName),
                text(DateText.isoMilliseconds(attributes.created)), text(DateText.isoMilliseconds(attributes.modified)),
                text(details.expires.map(DateText.isoMilliseconds))
            ] + textOrBase64(item.secret) + SealedField.allCases.flatMap { textOrBase64(item.fields[$0]) }
        return Array(zip(names, values)).map { (name: $0.0, value: $0.1) }
    }

    /// What is wrong with one item's fields, in words without any value of a secret.
    struct Problem: Error {
        let message: String
        let hint: String
    }

    /// The item the fields describe (by name; absent fields missing), with its dates as written:
    /// `now` for a date that is absent. Throws `Problem` for an unknown field, a missing or empty
    /// service, a group, class or date vault does not read, text that is not UTF-8, or both secret fields.
    static func item(from fields: [String: SecretBytes], now: Date) throws -> Item {
        if let unknown = fields.keys.sorted().first(where: { !names.contains($0) }) {
            throw Problem(
                message: "unknown field \(quoted(unknown))", hint: "a plaintext export has the fields \(names.joined(separator: ", "))")
        }
        func text(_ name: String) throws -> String? {
            guard let value = fields[name] else { return nil }
            guard let text = value.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
                throw Problem(message: "the \(name) is not UTF-8 text", hint: "write it as UTF-8")
            }
            return text
        }
        func date(_ name: String) throws -> Date? {
            guard let value = try text(name) else { return nil }
            guard let date = DateText.parseMilliseconds(value) else {
                throw Problem(message: "invalid \(name) \(quoted(value))", hint: "write a date as 2026-01-31T12:00:00.000Z (UTC)")
            }
            return date
        }
        guard let service = try text("service"), !service.isEmpty else {
            throw Problem(message: "no service", hint: "every item needs a non-empty service")
        }
        let groupName = try text("group") ?? AccessGroup.default.name
        guard let group = AccessGroup(groupName) else {
            throw Problem(message: "invalid group \(quoted(groupName))", hint: "a group name is \(AccessGroup.rule)")
        }
        let className = try text("class") ?? Accessibility.default.rawValue
        guard let accessibility = Accessibility(name: className) else {
            throw Problem(
                message: "unknown class \(quoted(className))",
                hint: "use one of: \(Accessibility.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let secret = try sealedValue("secret", in: fields) else {
            throw Problem(message: "no secret", hint: "give the secret in the secret field (text) or secret_base64 (any bytes)")
        }
        var sealed = SealedFields()
        for field in SealedField.allCases { sealed[field] = try sealedValue(field.rawValue, in: fields) }
        let created = try date("created") ?? now
        let details = ItemDetails(
            label: try text("label"), comment: try text("comment"), kind: try text("kind"),
            generic: try text("generic"), envName: try text("env_name"), expires: try date("expires"))
        let attributes = ItemAttributes(
            service: service, account: try text("account") ?? "", group: group, accessibility: accessibility,
            details: details, created: created, modified: try date("modified") ?? created)
        return Item(attributes: attributes, secret: secret, fields: sealed)
    }

    /// A sealed value from NAME (as it is) or NAME_base64 (decoded); nil when neither is given.
    private static func sealedValue(_ name: String, in fields: [String: SecretBytes]) throws -> SecretBytes? {
        switch (fields[name], fields[name + "_base64"]) {
        case (let text?, nil):
            return text
        case (nil, let encoded?):
            guard let decoded = encoded.withUnsafeBytes({ Base64.decode(String(decoding: $0, as: UTF8.self)) }) else {
                throw Problem(message: "the \(name)_base64 is not base64", hint: "write the bytes in standard base64 (RFC 4648)")
            }
            return SecretBytes(decoded)
        case (nil, nil):
            return nil
        case (_?, _?):
            throw Problem(
                message: "both \(name) and \(name)_base64 are given", hint: "give the \(name) in one of them and leave the other out")
        }
    }
}
