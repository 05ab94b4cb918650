import VaultCrypto

/// A plaintext export as CSV (RFC 4180): a header row of field names, then one row per item;
/// every present value in double quotes (a quote doubled inside), an absent one an empty cell
/// without quotes; rows end in LF (CRLF is read too). Built and parsed in locked memory.
enum PlainExportCSV {
    /// The file: the header, then a row of each item's fields (all in `PlainExportFields.names` order).
    static func render(_ rows: [[(name: String, value: SecretBytes?)]]) -> SecretBytes {
        var output = SecretBytesBuilder(capacity: 256 * (rows.count + 1))
        output.append(PlainExportFields.names.joined(separator: ",") + "\n")
        for row in rows {
            for (column, field) in row.enumerated() {
                if column > 0 { output.append(",") }
                guard let value = field.value else { continue }
                output.append("\"")
                value.withUnsafeBytes { output.append($0) { $0 == UInt8(ascii: "\"") ? "\"\"" : nil } }
                output.append("\"")
            }
            output.append("\n")
        }
        return output.finish()
    }

    /// A malformed file: the row (1 is the header) and what is wrong with it.
    struct Malformed: Error {
        let row: Int
        let problem: String
    }

    /// The rows of `bytes` after the header, each as its fields by name (an empty cell without
    /// quotes left out), with its row number. Throws `Malformed` for a quote out of place, a row
    /// with another number of cells than the header, an empty header name or one given twice.
    static func parse(_ bytes: SecretBytes) throws -> [(row: Int, fields: [String: SecretBytes])] {
        let rows = try bytes.withUnsafeBytes { try cells(of: $0) }
        guard let header = rows.first else { throw Malformed(row: 1, problem: "the file is empty; it needs a header row") }
        var names: [String] = []
        for cell in header {
            let name = cell.map { String(decoding: $0.copyBytes(), as: UTF8.self) } ?? ""
            guard !name.isEmpty else { throw Malformed(row: 1, problem: "a column of the header has no name") }
            guard !names.contains(name) else { throw Malformed(row: 1, problem: "the column \(quoted(name)) is there twice") }
            names.append(name)
        }
        return try rows.dropFirst().enumerated().map { offset, cells in
            let row = offset + 2
            guard cells.count == names.count else {
                throw Malformed(row: row, problem: "it has \(cells.count) cells and the header \(names.count)")
            }
            var fields: [String: SecretBytes] = [:]
            for (name, cell) in zip(names, cells) { fields[name] = cell }
            return (row, fields)
        }
    }

    /// Splits the file into rows of cells: nil for an empty cell without quotes.
    private static func cells(of input: UnsafeRawBufferPointer) throws -> [[SecretBytes?]] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D
        var rows: [[SecretBytes?]] = []
        var row: [SecretBytes?] = []
        var position = 0
        while position < input.count {
            var cell = SecretBytesBuilder(capacity: 64)
            var quoted = false
            if input[position] == quote {
                quoted = true
                position += 1
                while true {
                    guard position < input.count else { throw Malformed(row: rows.count + 1, problem: "a quoted cell is never closed") }
                    if input[position] == quote {
                        if position + 1 < input.count, input[position + 1] == quote {
                            cell.append(UnsafeRawBufferPointer(rebasing: input[position..<position + 1]))
                            position += 2
                            continue
                        }
                        position += 1
                        break
                    }
                    let start = position
                    while position < input.count, input[position] != quote { position += 1 }
                    cell.append(UnsafeRawBufferPointer(rebasing: input[start..<position]))
                }
            } else {
                let start = position
                while position < input.count, ![comma, newline, carriageReturn].contains(input[position]) {
                    guard input[position] != quote else {
                        throw Malformed(row: rows.count + 1, problem: "a quote inside a cell that does not start with one")
                    }
                    position += 1
                }
                cell.append(UnsafeRawBufferPointer(rebasing: input[start..<position]))
            }
            row.append(quoted || cell.count > 0 ? cell.finish() : nil)
            guard position < input.count else { break }
            switch input[position] {
            case comma:
                position += 1
                if position == input.count { row.append(nil) }
            case carriageReturn where position + 1 < input.count && input[position + 1] == newline:
                position += 2
                rows.append(row)
                row = []
            case newline:
                position += 1
                rows.append(row)
                row = []
            default:
                throw Malformed(row: rows.count + 1, problem: "a quoted cell is followed by more than a comma or the end of the row")
            }
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }
}
