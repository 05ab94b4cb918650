import FoundationEssentials
import VaultCore
import VaultCrypto

/// How items are printed: a text table for people, JSON for programs.
enum ItemOutput {
    /// One JSON object per item; the secret only when given; `expired` as of `now`.
    static func json(_ attributes: ItemAttributes, secret: SecretBytes? = nil, now: Date) -> String {
        var fields: [(String, String)] = [
            ("service", jsonString(attributes.service)),
            ("account", jsonString(attributes.account)),
            ("group", jsonString(attributes.group.name)),
            ("class", jsonString(attributes.accessibility.rawValue)),
        ]
        for field in attributes.details.textFields {
            if let value = field.value { fields.append((field.name.replacing("-", with: "_"), jsonString(value))) }
        }
        fields.append(("created", jsonString(DateText.iso(attributes.created))))
        fields.append(("modified", jsonString(DateText.iso(attributes.modified))))
        if let expires = attributes.details.expires {
            fields.append(("expires", jsonString(DateText.iso(expires))))
            fields.append(("expired", attributes.hasExpired(at: now) ? "true" : "false"))
        }
        if let secret {
            let bytes = secret.copyBytes()
            if let text = String(validating: bytes, as: UTF8.self) {
                fields.append(("secret", jsonString(text)))
            } else {
                fields.append(("secret_base64", jsonString(Base64.encode(bytes))))
            }
        }
        return "{" + fields.map { "\(jsonString($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A JSON array of items, one per line.
    static func jsonArray(_ items: [ItemAttributes], now: Date) -> String {
        items.isEmpty ? "[]" : "[\n" + items.map { "  " + json($0, now: now) }.joined(separator: ",\n") + "\n]"
    }

    /// Aligned columns: GROUP SERVICE ACCOUNT CLASS MODIFIED [EXPIRES] LABEL;
    /// EXPIRES only when an item has an expiry date, "expired …" once it has come.
    static func table(_ items: [ItemAttributes], now: Date) -> String {
        let showsExpiry = items.contains { $0.details.expires != nil }
        func expiry(_ item: ItemAttributes) -> [String] {
            guard showsExpiry else { return [] }
            guard let expires = item.details.expires else { return ["-"] }
            return [(item.hasExpired(at: now) ? "expired " : "") + DateText.iso(expires)]
        }
        let header = ["GROUP", "SERVICE", "ACCOUNT", "CLASS", "MODIFIED"] + (showsExpiry ? ["EXPIRES"] : []) + ["LABEL"]
        let rows = items.map {
            [$0.group.name, printable($0.service), printable($0.account), $0.accessibility.rawValue,
             DateText.iso($0.modified)] + expiry($0) + [printable($0.details.label ?? "")]
        }
        // `list` prints every item of the vault: each cell's length is counted once, into one flat
        // array, and the rows are appended to one output string.
        let lines = [header] + rows
        let lengths = lines.flatMap { $0.map(DisplayWidth.of) }
        let widths = header.indices.map { column in
            stride(from: column, to: lengths.count, by: header.count).map { lengths[$0] }.max() ?? 0
        }
        var table: [UInt8] = []
        table.reserveCapacity(lines.count * (widths.reduce(0, +) + 2 * header.count))
        let space = UInt8(ascii: " ")
        for (number, row) in lines.enumerated() {
            for (column, cell) in row.enumerated() {
                if column > 0 { table.append(contentsOf: [space, space]) }
                table.append(contentsOf: cell.utf8)
                if column < row.count - 1 {
                    table.append(contentsOf: repeatElement(space, count: widths[column] - lengths[number * header.count + column]))
                }
            }
            while table.last == space { table.removeLast() }
            table.append(UInt8(ascii: "\n"))
        }
        return String(decoding: table, as: UTF8.self)
    }

    /// A name with control characters escaped, so a table row stays one line.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        let inner = quoted(text)
        return String(inner.dropFirst().dropLast())
    }

    /// A JSON string literal.
    static func jsonString(_ text: String) -> String {
        doubleQuoted(text, escapeControl: { value in
            let hex = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }, escapesDelete: false)
    }
}
