import VaultCrypto

/// A CSV file (RFC 4180: fields separated by commas, quoted with `"` where they hold a comma, a
/// quote or a line break, `""` for a quote) read from locked memory into cells in locked memory.
/// A UTF-8 byte order mark before the header is skipped; CRLF and LF both end a row; blank lines
/// are skipped.
struct CSVTable {
    /// One row: its cells and the line of the file it starts on (1 is the header).
    struct Row {
        let line: Int
        let cells: [SecretBytes]
    }

    /// The header's names, as written.
    let header: [String]
    /// The rows after the header that have as many fields as it.
    let rows: [Row]
    /// The rows with another number of fields, as problems naming their line.
    let badRows: [ImportProblem]

    /// Parses `bytes`; throws `ImportProblem` naming the line of a quote that never ends or of text
    /// after a closing quote. A row whose field count is not the header's goes to `badRows`.
    init(_ bytes: SecretBytes) throws {
        var parsed = try bytes.withUnsafeBytes { try CSVTable.parse($0) }
        guard !parsed.isEmpty else {
            header = []
            rows = []
            badRows = []
            return
        }
        let head = parsed.removeFirst()
        header = try head.cells.map { cell in
            guard let name = cell.withUnsafeBytes({ String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) }) else {
                throw ImportProblem(.line(head.line), .notText)
            }
            return name
        }
        let width = header.count
        badRows = parsed.filter { $0.cells.count != width }
            .map { ImportProblem(.line($0.line), .fieldCount(expected: width, found: $0.cells.count)) }
        rows = parsed.filter { $0.cells.count == width }
    }

    private static func parse(_ input: UnsafeRawBufferPointer) throws -> [Row] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var index = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var rows: [Row] = []
        var cells: [SecretBytes] = []
        var rowLine = 1
        var cell = SecretBytesBuilder(capacity: 64)
        func endCell() {
            cells.append(cell.finish())
            cell = SecretBytesBuilder(capacity: 64)
        }
        func endRow() {
            endCell()
            // A blank line is one empty cell: skipped.
            if !(cells.count == 1 && cells[0].count == 0) { rows.append(Row(line: rowLine, cells: cells)) }
            cells = []
        }
        var atFieldStart = true
        while index < input.count {
            let byte = input[index]
            if atFieldStart, byte == quote {
                let quotedFrom = line
                index += 1
                var runStart = index
                while true {
                    guard index < input.count else { throw ImportProblem(.line(quotedFrom), .unterminatedQuote) }
                    if input[index] == newline { line += 1 }
                    if input[index] == quote {
                        cell.append(UnsafeRawBufferPointer(rebasing: input[runStart..<index]))
                        if index + 1 < input.count, input[index + 1] == quote {
                            index += 2
                            runStart = index - 1
                            continue
                        }
                        index += 1
                        break
                    }
                    index += 1
                }
                guard index == input.count || [comma, newline, cr].contains(input[index]) else {
                    throw ImportProblem(.line(line), .textAfterQuote)
                }
                atFieldStart = false
                continue
            }
            atFieldStart = false
            switch byte {
            case comma:
                endCell()
                atFieldStart = true
            case cr where index + 1 < input.count && input[index + 1] == newline:
                break
            case newline:
                endRow()
                line += 1
                rowLine = line
                atFieldStart = true
            default:
                // An unquoted field runs to the next comma or line end; a quote inside it is kept as written.
                var end = index
                while end < input.count, input[end] != comma, input[end] != newline,
                      !(input[end] == cr && end + 1 < input.count && input[end + 1] == newline) { end += 1 }
                cell.append(UnsafeRawBufferPointer(rebasing: input[index..<end]))
                index = end
                continue
            }
            index += 1
        }
        if !atFieldStart || !cells.isEmpty || cell.count > 0 { endRow() }
        return rows
    }
}
