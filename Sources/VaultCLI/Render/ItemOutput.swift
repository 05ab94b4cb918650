import FoundationEssentials
import VaultCore
import VaultCrypto

/// How items are printed: a text table for people, JSON for programs.
enum ItemOutput {
    /// One JSON object per item; the secret only when given; `expired` as of `now`.
    static func json(_ attributes: ItemAttributes, secret: SecretBytes? = nil, now: Date) -> String {
        var out: [UInt8] = []
        appendJSON(attributes, secret: secret, now: now, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON array of items, one per line, built in one buffer (`list --json` prints every item).
    static func jsonArray(_ items: [ItemAttributes], now: Date) -> String {
        guard !items.isEmpty else { return "[]" }
        var out = Array("[\n".utf8)
        out.reserveCapacity(items.count * 200)
        for (number, item) in items.enumerated() {
            out.append(contentsOf: (number == 0 ? "  " : ",\n  ").utf8)
            appendJSON(item, secret: nil, now: now, to: &out)
        }
        out.append(contentsOf: "\n]".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendJSON(_ attributes: ItemAttributes, secret: SecretBytes?, now: Date, to out: inout [UInt8]) {
        var first = true
        func field(_ name: String, _ value: String, quoted: Bool = true) {
            out.append(contentsOf: (first ? "{\"" : ",\"").utf8)
            first = false
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: "\":".utf8)
            out.append(contentsOf: (quoted ? jsonString(value) : value).utf8)
        }
        field("service", attributes.service)
        field("account", attributes.account)
        field("group", attributes.group.name)
        field("class", attributes.accessibility.rawValue)
        for textField in attributes.details.textFields {
            if let value = textField.value { field(textField.name.replacing("-", with: "_"), value) }
        }
        field("created", DateText.iso(attributes.created))
        field("modified", DateText.iso(attributes.modified))
        if let expires = attributes.details.expires {
            field("expires", DateText.iso(expires))
            field("expired", attributes.hasExpired(at: now) ? "true" : "false", quoted: false)
        }
        if let secret {
            let bytes = secret.copyBytes()
            if let text = String(validating: bytes, as: UTF8.self) {
                field("secret", text)
            } else {
                field("secret_base64", Base64.encode(bytes))
            }
        }
        out.append(UInt8(ascii: "}"))
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
