import VaultCrypto

/// A CSV file (RFC 4180: fields separated by commas, quoted with `"` where they hold a comma, a
/// quote or a line break, `""` for a quote) read from an `ExportStream` one row at a time into
/// cells in locked memory, so a reader holds one row of the export, not the whole export.
/// A UTF-8 byte order mark before the header is skipped; CRLF and LF both end a row; blank lines
/// are skipped.
struct CSVRows {
    /// One row: its cells and the line of the file it starts on (1 is the header).
    struct Row {
        let line: Int
        let cells: [SecretBytes]
    }

    private let stream: ExportStream
    /// The line the next row starts on.
    private var line = 1

    init(_ stream: ExportStream) throws {
        self.stream = stream
        if try stream.peek() == 0xEF {
            var bom: [UInt8] = []
            for _ in 0..<3 { if let byte = try stream.next() { bom.append(byte) } }
            // Not a byte order mark after all: a cell of the header starts with these bytes.
            if bom != [0xEF, 0xBB, 0xBF] { pending = bom }
        }
    }

    /// Bytes taken while looking for a byte order mark that were not one: the header's first.
    private var pending: [UInt8] = []

    /// The next row that is not blank; nil at the end. Throws `ImportProblem` naming the line of a
    /// quote that never ends or of text after a closing quote.
    mutating func next() throws -> Row? {
        while true {
            guard let row = try nextLine() else { return nil }
            // A blank line is one empty cell: skipped.
            if !(row.cells.count == 1 && row.cells[0].count == 0) { return row }
        }
    }

    private mutating func byte() throws -> UInt8? {
        if !pending.isEmpty { return pending.removeFirst() }
        return try stream.next()
    }

    private mutating func peek() throws -> UInt8? {
        if let first = pending.first { return first }
        return try stream.peek()
    }

    private mutating func nextLine() throws -> Row? {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        guard try peek() != nil else { return nil }
        let rowLine = line
        var cells: [SecretBytes] = []
        var cell = SecretBytesBuilder(capacity: 64)
        var atFieldStart = true
        func endCell() {
            cells.append(cell.finish())
            cell = SecretBytesBuilder(capacity: 64)
        }
        while let byte = try self.byte() {
            if atFieldStart, byte == quote {
                let quotedFrom = line
                while true {
                    guard let inner = try self.byte() else { throw ImportProblem(.line(quotedFrom), .unterminatedQuote) }
                    if inner == newline { line += 1 }
                    if inner == quote {
                        guard try peek() == quote else { break }
                        _ = try self.byte()
                    }
                    withUnsafeBytes(of: inner) { cell.append($0) }
                    if pending.isEmpty {
                        try stream.take(while: { $0 != quote && $0 != newline }) { cell.append($0) }
                    }
                }
                guard let after = try peek() else { break }
                guard [comma, newline, cr].contains(after) else { throw ImportProblem(.line(line), .textAfterQuote) }
                atFieldStart = false
                continue
            }
            atFieldStart = false
            switch byte {
            case comma:
                endCell()
                atFieldStart = true
            case cr where try peek() == newline:
                break
            case newline:
                endCell()
                line += 1
                return Row(line: rowLine, cells: cells)
            default:
                // An unquoted field runs to the next comma or line end; a quote inside it is kept as written.
                withUnsafeBytes(of: byte) { cell.append($0) }
                if pending.isEmpty {
                    try stream.take(while: { $0 != comma && $0 != newline && $0 != cr }) { cell.append($0) }
                }
            }
        }
        endCell()
        return Row(line: rowLine, cells: cells)
    }
}
