import FoundationEssentials
import VaultCore
import VaultCrypto

/// How items are printed: a text table for people, JSON for programs.
enum ItemOutput {
    /// One JSON object per item; the secret only when given.
    static func json(_ attributes: ItemAttributes, secret: SecretBytes? = nil) -> String {
        var fields: [(String, String)] = [
            ("service", jsonString(attributes.service)),
            ("account", jsonString(attributes.account)),
            ("group", jsonString(attributes.group.name)),
            ("class", jsonString(attributes.accessibility.rawValue)),
        ]
        for field in attributes.details.textFields {
            if let value = field.value { fields.append((field.name.replacing("-", with: "_"), jsonString(value))) }
        }
        fields.append(("created", jsonString(isoDate(attributes.created))))
        fields.append(("modified", jsonString(isoDate(attributes.modified))))
        if let expires = attributes.details.expires { fields.append(("expires", jsonString(isoDate(expires)))) }
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
    static func jsonArray(_ items: [ItemAttributes]) -> String {
        items.isEmpty ? "[]" : "[\n" + items.map { "  " + json($0) }.joined(separator: ",\n") + "\n]"
    }

    /// Aligned columns: GROUP SERVICE ACCOUNT CLASS MODIFIED LABEL.
    static func table(_ items: [ItemAttributes]) -> String {
        let header = ["GROUP", "SERVICE", "ACCOUNT", "CLASS", "MODIFIED", "LABEL"]
        let rows = items.map {
            [$0.group.name, printable($0.service), printable($0.account), $0.accessibility.rawValue,
             isoDate($0.modified), printable($0.details.label ?? "")]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n") + "\n"
    }

    /// A name with control characters escaped, so a table row stays one line.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        let inner = quoted(text)
        return String(inner.dropFirst().dropLast())
    }

    /// A date as ISO 8601 in UTC, to the second.
    static func isoDate(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }

    /// A JSON string literal.
    static func jsonString(_ text: String) -> String {
        doubleQuoted(text, escapeControl: { value in
            let hex = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }, escapesDelete: false)
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
