/// man/vault.1 in mdoc: synopsis, commands, options and examples rendered from
/// the command table, around the hand-written prose of ManPageProse.
enum ManPage {
    /// The whole page, ending in a newline.
    static func render() -> String {
        var page = [
            ".\\\" " + GeneratedFile.notice,
            ".Dd " + ManPageProse.date,
            ".Dt VAULT 1",
            ".Os",
            ".Sh NAME",
            ".Nm vault",
            ".Nd " + CommandTable.summary
        ]
        page += synopsis()
        page += [".Sh DESCRIPTION", ManPageProse.description, ManPageProse.secretReferences]
        page += commands()
        page += [".Sh OPTIONS", "These options work before or after any command.", ".Bl -tag -width Ds"]
        page += CommandTable.visibleGlobalOptions.flatMap(optionItem)
        page += [".El"]
        page += [".Sh ENVIRONMENT", ".Bl -tag -width Ds"] + CommandTable.environment.flatMap(environmentItem) + [".El"]
        page += list("FILES", ManPageProse.files)
        page += list("EXIT STATUS", ManPageProse.exitStatus)
        page += examples()
        page += [".Sh SEE ALSO", ManPageProse.seeAlso]
        page += [".Sh SECURITY CONSIDERATIONS", ManPageProse.security]
        return asciiOnly(wrapped(page.joined(separator: "\n"))) + "\n"
    }

    /// The page with its one non-ASCII character, the ellipsis of the table's
    /// examples, as roff writes it: groff reads its input as Latin-1 unless told
    /// otherwise, and warns at each byte of a UTF-8 character.
    private static func asciiOnly(_ page: String) -> String {
        page.replacingEvery("\u{2026}", with: "\\&...")
    }

    /// Text lines longer than 80 bytes broken between words, as mdoc style
    /// wants; macro lines and literal displays stay as they are.
    private static func wrapped(_ source: String) -> String {
        var literal = false
        return source.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            if line.hasPrefix(".Bd -literal") { literal = true }
            if line.hasPrefix(".Ed") { literal = false }
            return literal ? [String(line)] : wrapped(line: String(line))
        }.joined(separator: "\n")
    }

    private static func wrapped(line: String) -> [String] {
        guard !line.hasPrefix("."), line.utf8.count > 80 else { return [line] }
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ") {
            if !current.isEmpty, current.utf8.count + 1 + word.utf8.count > 80 {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        return (lines + [current]).map(notMacro)
    }

    private static func synopsis() -> [String] {
        var lines = [".Sh SYNOPSIS", ".Nm"]
        lines += CommandTable.visibleGlobalOptions.map { ".Op " + usageMacros($0) }
        lines += [".Ar command", ".Op Ar options"]
        for command in CommandTable.visibleCommands {
            lines += [".Nm", ".Cm " + command.name]
            lines += command.visibleOptions.map { ".Op " + usageMacros($0) }
            lines += command.positionals.map { positional in
                let word = "Ar " + positional.name + (positional.variadic ? " ..." : "")
                return (positional.optional ? ".Op " : ".") + word
            }
        }
        return lines
    }

    private static func commands() -> [String] {
        var lines = [".Sh COMMANDS", ".Bl -tag -width Ds"]
        for command in CommandTable.visibleCommands {
            lines += [".It Cm " + command.name]
            lines += text(command.discussion.isEmpty ? sentence(command.summary) : command.discussion)
            if !command.aliases.isEmpty {
                lines += text("Also called " + command.aliases.joined(separator: ", ") + ".")
            }
            let items = command.positionals.flatMap(positionalItem) + command.visibleOptions.flatMap(optionItem)
            if !items.isEmpty { lines += [".Bl -tag -width Ds"] + items + [".El"] }
        }
        return lines + [".El"]
    }

    private static func examples() -> [String] {
        var lines = [".Sh EXAMPLES"]
        for (index, example) in CommandTable.visibleCommands.flatMap(\.examples).enumerated() {
            lines += (index == 0 ? [] : [".Pp"]) + text(capitalized(example.explanation) + ":")
            lines += [".Bd -literal -offset indent", literal(example.command), ".Ed"]
        }
        return lines
    }

    /// A section holding one tagged list of hand-written items.
    private static func list(_ section: String, _ items: String) -> [String] {
        [".Sh " + section, ".Bl -tag -width Ds", items, ".El"]
    }

    /// `.It Fl s , Fl \-service Ar SERVICE` and its help, default and values.
    private static func optionItem(_ option: OptionSpec) -> [String] {
        let long = flag("-" + option.long)
        let names = option.short.map { flag(String($0)) + " , " + long } ?? long
        var lines = [".It " + names + (option.valueName.map { " Ar " + $0 } ?? "")]
        lines += text(sentence(option.help))
        if let value = option.defaultValue { lines += ["The default is", ".Cm " + literal(value) + " ."] }
        if let values = option.allowedValues { lines += oneOf(values) }
        if let variable = option.environment { lines += ["Environment:", ".Ev " + variable.name + " ."] }
        if let key = option.configKey { lines += ["Config file:", ".Cm " + literal(key.name) + " ."] }
        return lines
    }

    /// `.It Ev NAME` and what it does; the variables that open secrets (the vault's, an OpenBao server's) say that `vault run` keeps them from its child.
    private static func environmentItem(_ variable: EnvironmentSpec) -> [String] {
        var lines = [".It Ev " + variable.name] + text(variable.help)
        if variable.unlocks {
            lines += text("It opens secrets, so vault run leaves it out of the command's environment unless --keep-vault-env is given.")
        }
        return lines
    }

    private static func positionalItem(_ positional: PositionalSpec) -> [String] {
        var lines = [".It Ar " + positional.name] + text(sentence(positional.help))
        if case .values(let values) = positional.completion { lines += oneOf(values) }
        return lines
    }

    /// The choices, left-adjusted: a justified line before a long choice
    /// (`after-first-unlock-this-device-only`) would be stretched past what groff allows.
    private static func oneOf(_ values: [String]) -> [String] {
        [".ad l", "One of", ".Cm " + values.map(literal).joined(separator: " , ") + " .", ".ad"]
    }

    /// `-s SERVICE` or `--json` as macros, for the synopsis.
    private static func usageMacros(_ option: OptionSpec) -> String {
        let name = option.short.map { flag(String($0)) } ?? flag("-" + option.long)
        return name + (option.valueName.map { " Ar " + $0 } ?? "")
    }

    /// `Fl` with every hyphen a minus sign (mdoc adds the first one).
    private static func flag(_ name: String) -> String {
        "Fl " + name.replacingEvery("-", with: "\\-")
    }

    /// Table text as mdoc text lines: one sentence per line, backslashes
    /// escaped, option names with minus signs, no line read as a macro.
    static func text(_ prose: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        let words = prose.split(separator: " ").map(String.init)
        for (index, word) in words.enumerated() {
            var word = word.replacingEvery("\\", with: "\\e")
            if word.hasPrefix("-") { word = word.replacingEvery("-", with: "\\-") }
            current += current.isEmpty ? word : " " + word
            let next = index + 1 < words.count ? words[index + 1] : ""
            if let last = word.last, ".?!".contains(last), next.first?.isUppercase == true {
                sentences.append(current)
                current = ""
            }
        }
        if !current.isEmpty { sentences.append(current) }
        return sentences.map(notMacro)
    }

    /// A line for a literal display: backslashes escaped, hyphens as minus signs.
    static func literal(_ line: String) -> String {
        notMacro(line.replacingEvery("\\", with: "\\e").replacingEvery("-", with: "\\-"))
    }

    /// A text line that starts with `.` or `'` guarded by `\&`, so it is not read as a request.
    private static func notMacro(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    private static func sentence(_ fragment: String) -> String {
        capitalized(fragment) + (fragment.hasSuffix(".") ? "" : ".")
    }

    private static func capitalized(_ fragment: String) -> String {
        fragment.prefix(1).uppercased() + fragment.dropFirst()
    }
}

extension String {
    /// This string with every `target` replaced by `replacement`.
    func replacingEvery(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}
