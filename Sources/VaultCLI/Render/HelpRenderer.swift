/// `vault help` and `vault help COMMAND`, rendered from the command table.
enum HelpRenderer {
    /// How to lay the text out.
    struct Style {
        /// Columns to wrap to.
        var width: Int = 80
        /// Bold section headings (for a terminal without NO_COLOR).
        var bold: Bool = false
    }

    /// The overview: usage, the visible commands by section (the plumbing
    /// too when `all`), and every global option.
    static func overview(_ style: Style = Style(), all: Bool = false) -> String {
        let width = max(style.width, 40)
        let plumbing = CommandTable.plumbingCommands
        let sections = CommandTable.helpSections + (all ? [("Plumbing, run by other programs", plumbing)] : [])
        let commandColumn = 2 + (CommandTable.visibleCommands.map(\.nameWithAliases.count).max() ?? 0) + 3
        var out = "vault - \(CommandTable.summary)\n\n"
        out += heading("Usage:", style) + " vault [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS]\n"
        for (title, commands) in sections {
            out += "\n" + heading(title + ":", style) + "\n"
            for command in commands {
                out += TextWrap.row(command.nameWithAliases, command.summary, width: width, indent: 2, column: commandColumn)
            }
        }
        out += "\n" + heading("Global options:", style) + "\n"
        out += optionRows(CommandTable.visibleGlobalOptions, width: width)
        out += "\nRun 'vault help COMMAND' for the options and examples of a command"
        out += all ? ".\n" : ", and 'vault help --all' for the plumbing too (\(plumbing.map(\.name).joined(separator: ", "))).\n"
        return out
    }

    /// The help of one command: usage, description, arguments, options, examples.
    static func command(_ command: CommandSpec, _ style: Style = Style()) -> String {
        let width = max(style.width, 40)
        var out = "vault \(command.name) - \(command.summary)\n\n"
        out += heading("Usage:", style) + " " + usage(command, width: width)
        if !command.aliases.isEmpty {
            out += heading("Also:", style) + " " + command.aliases.map { "vault " + $0 }.joined(separator: ", ") + "\n"
        }
        if !command.discussion.isEmpty {
            out += "\n" + TextWrap.indented(command.discussion, width: width, indent: 0)
        }
        if !command.positionals.isEmpty {
            out += "\n" + heading("Arguments:", style) + "\n"
            let column = min(2 + (command.positionals.map(\.name.count).max() ?? 0) + 3, 30)
            for positional in command.positionals {
                out += TextWrap.row(
                    positional.name, positionalHelp(positional),
                    width: width, indent: 2, column: column)
            }
        }
        if !command.visibleOptions.isEmpty {
            out += "\n" + heading("Options:", style) + "\n" + optionRows(command.visibleOptions, width: width)
        }
        let globals = CommandTable.visibleGlobalOptions.map { "[--" + $0.long + ($0.valueName.map { " " + $0 } ?? "") + "]" }
        out += "\n" + heading("Global options:", style) + " (see 'vault help')\n"
        out += "  " + bracketsWrapped(globals.joined(separator: " "), width: width, indent: 2)
        if !command.examples.isEmpty {
            out += "\n" + heading("Examples:", style) + "\n"
            out += command.examples.map { example in
                TextWrap.lines(example.explanation, width: width - 4).map { "  # " + $0 + "\n" }.joined()
                    + "  " + example.command + "\n"
            }.joined(separator: "\n")
        }
        return out
    }

    /// `Usage:` continued: the usage line wrapped under its own start.
    private static func usage(_ command: CommandSpec, width: Int) -> String {
        let prefix = "vault \(command.name) "
        let indent = "Usage: ".count + prefix.count
        return prefix + bracketsWrapped(String(command.usage.dropFirst(prefix.count)), width: width, indent: indent)
    }

    /// Words wrapped so that `[-s SERVICE]` stays on one line; every line
    /// after the first indented, the last ending in a newline.
    private static func bracketsWrapped(_ text: String, width: Int, indent: Int) -> String {
        let lines = TextWrap.lines(text.bindingBracketedWords, width: max(width - indent, 20))
            .map { String($0.map { $0 == nonBreakingSpace ? " " : $0 }) }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent)) + "\n"
    }

    private static func optionRows(_ options: [OptionSpec], width: Int) -> String {
        let column = min(2 + (options.map(\.listSpelling.count).max() ?? 0) + 3, 30)
        return options.map { option in
            TextWrap.row(option.listSpelling, optionHelp(option), width: width, indent: 2, column: column)
        }.joined()
    }

    /// The help of an option, with its default, the values it may take, and
    /// the environment variable and config key that set it too.
    static func optionHelp(_ option: OptionSpec) -> String {
        var notes: [String] = []
        if let value = option.defaultValue { notes.append("default: \(value)") }
        if let values = option.allowedValues { notes.append("one of: " + values.joined(separator: ", ")) }
        if let variable = option.environment { notes.append("environment: " + variable.name) }
        if let key = option.configKey { notes.append("config: " + key.name) }
        return notes.isEmpty ? option.help : option.help + " (" + notes.joined(separator: "; ") + ")"
    }

    static func positionalHelp(_ positional: PositionalSpec) -> String {
        guard case .values(let values) = positional.completion else { return positional.help }
        return positional.help + " (one of: " + values.joined(separator: ", ") + ")"
    }

    private static func heading(_ text: String, _ style: Style) -> String {
        style.bold ? "\u{1B}[1m" + text + "\u{1B}[0m" : text
    }
}

private let nonBreakingSpace: Character = "\u{A0}"

private extension String {
    /// The spaces inside brackets made non-breaking, so wrapping keeps
    /// `[-s SERVICE]` on one line.
    var bindingBracketedWords: String {
        var depth = 0
        return String(
            map { character -> Character in
                if character == "[" { depth += 1 }
                if character == "]" { depth -= 1 }
                return character == " " && depth > 0 ? nonBreakingSpace : character
            })
    }
}
