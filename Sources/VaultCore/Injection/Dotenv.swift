/// One assignment of an env file.
package struct DotenvEntry: Equatable, Sendable {
    /// The variable's name.
    package var name: String
    /// The value, unquoted and unescaped.
    package var value: String
    /// The line the assignment starts on, from 1.
    package var line: Int

    /// An assignment of `value` to `name` on line `line`.
    package init(name: String, value: String, line: Int) {
        self.name = name
        self.value = value
        self.line = line
    }
}

/// A line of an env file that cannot be read.
package struct DotenvError: Error, Equatable, Sendable {
    /// The line, from 1.
    package var line: Int
    /// What is wrong with it (the command line words it).
    package var reason: Reason

    /// What can be wrong with a line.
    package enum Reason: Equatable, Sendable {
        /// No name before the `=`.
        case expectedAssignment
        /// A name that is not a variable's.
        case invalidName(String)
        /// A name not followed by `=`.
        case expectedEquals(after: String)
        /// A quote (this one) opened on the line and never closed.
        case unclosedQuote(Unicode.Scalar)
        /// Text after a value's closing quote.
        case textAfterQuote
    }
}

/// The env-file (dotenv) syntax `vault run --env-file` reads:
///
///     # a comment
///     NAME=value                 unquoted: trimmed; " #" starts a comment
///     export NAME=value          the export prefix is ignored
///     NAME='literal $value'      single quotes: every character as is, newlines too
///     NAME="line\nnext"          double quotes: \n \r \t \" \\ \$ are escapes; newlines allowed
///     NAME=                      the empty string
///
/// There is no variable expansion: `$HOME` stays `$HOME`.
package enum Dotenv {
    /// Every assignment of `text`, in order; throws at the first malformed line.
    package static func parse(_ text: String) throws(DotenvError) -> [DotenvEntry] {
        var reader = Reader(Array(text.unicodeScalars))
        var entries: [DotenvEntry] = []
        while let entry = try reader.nextEntry() {
            entries.append(entry)
        }
        return entries
    }

    /// Whether `name` can be an environment variable name here: a letter or
    /// `_`, then letters, digits and `_` (what shells accept).
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || isASCIILetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || isASCIILetter($0) || ("0"..."9").contains($0) }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func advance() {
            if current == "\n" { line += 1 }
            index += 1
        }

        mutating func skipBlanks() {
            while let scalar = current, scalar == " " || scalar == "\t" { advance() }
        }

        mutating func skipRestOfLine() {
            while let scalar = current, scalar != "\n" { advance() }
            advance()
        }

        func fail(_ reason: DotenvError.Reason, line: Int? = nil) -> DotenvError {
            DotenvError(line: line ?? self.line, reason: reason)
        }

        mutating func nextEntry() throws(DotenvError) -> DotenvEntry? {
            while true {
                skipBlanks()
                guard let scalar = current else { return nil }
                if scalar == "\n" || scalar == "\r" || scalar == "#" {
                    skipRestOfLine()
                    continue
                }
                break
            }
            let start = line
            var name = readWord()
            if name == "export", current == " " || current == "\t" {
                skipBlanks()
                name = readWord()
            }
            guard Dotenv.isValidName(name) else {
                throw fail(name.isEmpty ? .expectedAssignment : .invalidName(name))
            }
            skipBlanks()
            guard current == "=" else { throw fail(.expectedEquals(after: name)) }
            advance()
            skipBlanks()
            let value: String
            switch current {
            case "'": value = try readQuoted(closing: "'", escapes: false)
            case "\"": value = try readQuoted(closing: "\"", escapes: true)
            default: value = readUnquoted()
            }
            return DotenvEntry(name: name, value: value, line: start)
        }

        mutating func readWord() -> String {
            var word = String.UnicodeScalarView()
            while let scalar = current, scalar != "=", scalar != " ", scalar != "\t", scalar != "\n" {
                word.append(scalar)
                advance()
            }
            return String(word)
        }

        mutating func readUnquoted() -> String {
            var value = String.UnicodeScalarView()
            var previousWasBlank = true
            while let scalar = current, scalar != "\n" {
                if scalar == "#", previousWasBlank { break }
                previousWasBlank = scalar == " " || scalar == "\t"
                value.append(scalar)
                advance()
            }
            skipRestOfLine()
            return String(String(value).trimmingTrailingBlanks())
        }

        mutating func readQuoted(closing: Unicode.Scalar, escapes: Bool) throws(DotenvError) -> String {
            let opened = line
            advance()
            var value = String.UnicodeScalarView()
            while true {
                guard let scalar = current else {
                    throw fail(.unclosedQuote(closing), line: opened)
                }
                advance()
                if scalar == closing { break }
                if escapes, scalar == "\\", let next = current {
                    advance()
                    switch next {
                    case "n": value.append("\n")
                    case "r": value.append("\r")
                    case "t": value.append("\t")
                    case "\"", "\\", "$": value.append(next)
                    default:
                        value.append("\\")
                        value.append(next)
                    }
                    continue
                }
                value.append(scalar)
            }
            skipBlanks()
            if let scalar = current, scalar != "\n", scalar != "\r", scalar != "#" {
                throw fail(.textAfterQuote)
            }
            skipRestOfLine()
            return String(value)
        }
    }
}

private extension String {
    func trimmingTrailingBlanks() -> Substring {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == " " || last == "\t" || last == "\r" {
            end = index(before: end)
        }
        return self[..<end]
    }
}
