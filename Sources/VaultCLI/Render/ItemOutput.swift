import FoundationEssentials
import VaultCore
import VaultCrypto

/// How items are printed: a text table for people, JSON for programs.
enum ItemOutput {
    /// One JSON object per item; the secret only when given; `expired` as of `now`. The names of
    /// the item's sealed fields are listed (`sealed_fields`), their values only with `showingFields`.
    static func json(
        _ attributes: ItemAttributes, secret: SecretBytes? = nil, fields: SealedFields = SealedFields(),
        showingFields: Bool = false, now: Date
    ) -> String {
        var out: [UInt8] = []
        appendJSON(attributes, secret: secret, now: now, to: &out)
        guard !fields.isEmpty else { return String(decoding: out, as: UTF8.self) }
        out.removeLast()
        out += ",\"sealed_fields\":[".utf8
        out += fields.present.map { "\"\($0.field.rawValue)\"" }.joined(separator: ",").utf8
        out.append(UInt8(ascii: "]"))
        if showingFields {
            for (field, value) in fields.present { appendBytes(value, named: field.rawValue, to: &out) }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `,"name":"text"` for UTF-8 bytes, else `,"name_base64":"…"`.
    private static func appendBytes(_ value: SecretBytes, named name: String, to out: inout [UInt8]) {
        var bytes = value.copyBytes()
        defer { bytes.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        if let text = String(validating: bytes, as: UTF8.self) {
            out += ",\"\(name)\":\(jsonString(text))".utf8
        } else {
            out += ",\"\(name)_base64\":\"\(Base64.encode(bytes))\"".utf8
        }
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
        if let secret { appendBytes(secret, named: "secret", to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// Aligned columns: GROUP SERVICE ACCOUNT CLASS MODIFIED [EXPIRES] LABEL;
    /// EXPIRES only when an item has an expiry date, "expired …" once it has come.
    static func table(_ items: [ItemAttributes], now: Date) -> String {
        var text: [UInt8] = []
        writeTable(items, now: now) { text.append(contentsOf: $0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// `table`'s UTF-8, handed to `write` in pieces of about 64 KiB as they are made: `list` at
    /// 100 000 items would otherwise fill 8 MB of fresh memory, a page fault every 4 KiB, first.
    static func writeTable(_ items: [ItemAttributes], now: Date, to write: (UnsafeRawBufferPointer) -> Void) {
        let piece = 64 * 1024
        let showsExpiry = items.contains { $0.details.expires != nil }
        let header = ["GROUP", "SERVICE", "ACCOUNT", "CLASS", "MODIFIED"] + (showsExpiry ? ["EXPIRES"] : []) + ["LABEL"]
        let dateWidth = DateText.iso(now).utf8.count
        // `list` prints every item of the vault: cells are measured in one pass and written, with
        // the dates, straight into one buffer in a second; no row is built as an array of strings.
        var widths = header.map(DisplayWidth.of)
        func measure(_ column: Int, _ width: Int) { if width > widths[column] { widths[column] = width } }
        var names: [(service: String, account: String, label: String)] = []
        names.reserveCapacity(items.count)
        // By index: iterating the array would copy each item's attributes (and retain every string in them).
        for index in items.indices {
            let row = (printable(items[index].service), printable(items[index].account), printable(items[index].details.label ?? ""))
            names.append(row)
            measure(0, DisplayWidth.of(items[index].group.name))
            measure(1, DisplayWidth.of(row.0))
            measure(2, DisplayWidth.of(row.1))
            measure(3, items[index].accessibility.rawValue.utf8.count)
            measure(4, dateWidth)
            if showsExpiry {
                measure(5, items[index].details.expires == nil ? 1 : (items[index].hasExpired(at: now) ? 8 : 0) + dateWidth)
            }
        }
        var table: [UInt8] = []
        table.reserveCapacity(piece + widths.reduce(0, +) + 2 * header.count + 64)
        let space = UInt8(ascii: " ")
        // Each cell but the last is padded to its column's width and followed by two spaces.
        func cell(_ column: Int, width: Int, _ write: (inout [UInt8]) -> Void) {
            write(&table)
            table.append(contentsOf: repeatElement(space, count: widths[column] - width + 2))
        }
        func text(_ column: Int, _ value: String) { cell(column, width: DisplayWidth.of(value)) { $0 += value.utf8 } }
        func endLine() {
            while table.last == space { table.removeLast() }
            table.append(UInt8(ascii: "\n"))
            if table.count >= piece {
                table.withUnsafeBytes(write)
                table.removeAll(keepingCapacity: true)
            }
        }
        for (column, title) in header.enumerated() { text(column, title) }
        endLine()
        for index in items.indices {
            let row = names[index]
            text(0, items[index].group.name)
            text(1, row.service)
            text(2, row.account)
            text(3, items[index].accessibility.rawValue)
            cell(4, width: dateWidth) { DateText.appendISO(items[index].modified, to: &$0) }
            if showsExpiry {
                if let expires = items[index].details.expires {
                    let expired = items[index].hasExpired(at: now)
                    cell(5, width: (expired ? 8 : 0) + dateWidth) {
                        if expired { $0 += "expired ".utf8 }
                        DateText.appendISO(expires, to: &$0)
                    }
                } else {
                    text(5, "-")
                }
            }
            table += row.label.utf8
            endLine()
        }
        table.withUnsafeBytes(write)
    }

    /// `list` for a program (stdout not a terminal): one line per item, the
    /// table's columns in its order, separated by one TAB, no header, no
    /// padding; EXPIRES is always there (empty without an expiry) so a
    /// column keeps its number whatever the items hold. Names are escaped by
    /// `appendField`, so a row is one line of seven fields.
    static func writeRows(_ items: [ItemAttributes], now: Date, to write: (UnsafeRawBufferPointer) -> Void) {
        let piece = 64 * 1024
        var rows: [UInt8] = []
        rows.reserveCapacity(piece + 1024)
        let tab = UInt8(ascii: "\t")
        for index in items.indices {
            let item = items[index]
            appendField(item.group.name, to: &rows)
            rows.append(tab)
            appendField(item.service, to: &rows)
            rows.append(tab)
            appendField(item.account, to: &rows)
            rows.append(tab)
            rows += item.accessibility.rawValue.utf8
            rows.append(tab)
            DateText.appendISO(item.modified, to: &rows)
            rows.append(tab)
            if let expires = item.details.expires {
                if item.hasExpired(at: now) { rows += "expired ".utf8 }
                DateText.appendISO(expires, to: &rows)
            }
            rows.append(tab)
            appendField(item.details.label ?? "", to: &rows)
            rows.append(UInt8(ascii: "\n"))
            if rows.count >= piece {
                rows.withUnsafeBytes(write)
                rows.removeAll(keepingCapacity: true)
            }
        }
        rows.withUnsafeBytes(write)
    }

    /// One field of `writeRows`, escaped so that it holds no TAB, line break
    /// or terminal control: `\\`, `\t`, `\n`, `\r`, and `\u{HH}` for other
    /// C0 and C1 controls and DEL, as the table writes them.
    private static func appendField(_ text: String, to out: inout [UInt8]) {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\\") }) else {
            out += text.utf8
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\".utf8
            case 0x09: out += "\\t".utf8
            case 0x0A: out += "\\n".utf8
            case 0x0D: out += "\\r".utf8
            case _ where HiddenCharacters.mustShow(scalar): out += visibleEscape(scalar.value).utf8
            default: out += String(scalar).utf8
            }
        }
    }

    /// Text others chose (a name, label, git author) as plain text shows it: every character
    /// `HiddenCharacters.mustShow` names escaped as `\u{…}` (so a table row stays one line and reads
    /// in the order stored), quotes and backslashes as they are unless such a character is there.
    /// The one rule every plain-text output follows; `jsonString` is JSON's.
    static func printable(_ text: String) -> String {
        guard HiddenCharacters.occur(in: text) else { return text }
        let inner = quoted(text)
        return String(inner.dropFirst().dropLast())
    }

    /// A JSON string literal: every character `HiddenCharacters.mustShow` names as `\uXXXX`
    /// (a surrogate pair above U+FFFF), so JSON printed to a terminal moves and reorders nothing.
    static func jsonString(_ text: String) -> String {
        doubleQuoted(
            text,
            escapeControl: { value in
                func unit(_ unit: UInt32) -> String {
                    let hex = String(unit, radix: 16)
                    return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
                guard value > 0xFFFF else { return unit(value) }
                return unit(0xD800 + ((value - 0x10000) >> 10)) + unit(0xDC00 + ((value - 0x10000) & 0x3FF))
            })
    }
}
