/// Word wrapping for help text.
enum TextWrap {
    /// Splits `text` into lines of at most `width` characters, breaking at
    /// spaces; a word longer than `width` gets a line of its own.
    static func lines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` wrapped to `width`, every line indented by `indent` spaces.
    static func indented(_ text: String, width: Int, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        return lines(text, width: max(width - indent, 20)).map { pad + $0 + "\n" }.joined()
    }

    /// A two-column row: `term` at `indent`, then `text` wrapped at column
    /// `column`, starting on the next line when `term` does not fit before it.
    static func row(_ term: String, _ text: String, width: Int, indent: Int, column: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        let body = lines(text, width: max(width - column, 20))
        let columnPad = String(repeating: " ", count: column)
        var out = pad + term
        if indent + term.count + 2 <= column, let first = body.first {
            out += String(repeating: " ", count: column - indent - term.count) + first + "\n"
            return out + body.dropFirst().map { columnPad + $0 + "\n" }.joined()
        }
        return out + "\n" + body.map { columnPad + $0 + "\n" }.joined()
    }
}
