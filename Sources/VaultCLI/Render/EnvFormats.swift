import VaultCrypto

/// The output formats of `vault env`: each turns (name, value) pairs into
/// text that its reader reads back exactly.
enum EnvFormat: String, CaseIterable {
    /// `NAME="value"`, with \n \r \t \" \\ \$ escapes, as `vault run --env-file` and most dotenv readers read it.
    case dotenv
    /// `export NAME='value'`, for `eval` or `source` in sh, bash and zsh.
    case shell
    /// One JSON object, names to values.
    case json
    /// GitHub Actions: `::add-mask::` commands on stdout, assignments appended to $GITHUB_ENV.
    case github

    /// The text for every format but github.
    func render(_ variables: [(name: String, value: String)]) -> String {
        switch self {
        case .dotenv:
            return variables.map { "\($0.name)=\(EnvFormat.dotenvQuoted($0.value))\n" }.joined()
        case .shell:
            return variables.map { "export \($0.name)=\(EnvFormat.singleQuoted($0.value))\n" }.joined()
        case .json:
            guard !variables.isEmpty else { return "{}\n" }
            let members = variables.map { "  \(ItemOutput.jsonString($0.name)): \(ItemOutput.jsonString($0.value))" }
            return "{\n" + members.joined(separator: ",\n") + "\n}\n"
        case .github:
            return GitHubEnvironment.assignments(variables)
        }
    }

    static func dotenvQuoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "$": out += "\\$"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func singleQuoted(_ value: String) -> String {
        "'" + value.replacing("'", with: "'\\''") + "'"
    }
}

/// GitHub Actions' conventions for `$GITHUB_ENV` and workflow commands, as
/// its own toolkit (`core.exportVariable`, `core.setSecret`) writes them.
enum GitHubEnvironment {
    /// `::add-mask::VALUE` for each value and, for a multi-line value, each of
    /// its lines: the runner masks line by line. Data is escaped as the toolkit does.
    static func maskCommands(_ values: [String]) -> String {
        var lines: [String] = []
        for value in values {
            var pieces = [value]
            if value.contains("\n") {
                pieces += value.split(separator: "\n").map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
            }
            for piece in pieces where !piece.isEmpty {
                lines.append("::add-mask::" + escapeData(piece) + "\n")
            }
        }
        return lines.joined()
    }

    /// `NAME=value` for a one-line value; for a multi-line one
    /// `NAME<<DELIMITER`, the value, `DELIMITER`, with a random delimiter that
    /// the value does not contain.
    static func assignments(_ variables: [(name: String, value: String)],
                            delimiter: () -> String = randomDelimiter) -> String {
        var out = ""
        for (name, value) in variables {
            if !value.contains("\n") && !value.contains("\r") {
                out += "\(name)=\(value)\n"
                continue
            }
            var mark = delimiter()
            while value.contains(mark) { mark = delimiter() }
            out += "\(name)<<\(mark)\n\(value)\n\(mark)\n"
        }
        return out
    }

    static func randomDelimiter() -> String {
        "ghadelimiter_" + SecureRandom.bytes(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Workflow-command data escaping: % CR LF.
    static func escapeData(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }
}
