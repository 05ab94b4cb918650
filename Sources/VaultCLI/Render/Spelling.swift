/// How options, commands and usage lines are spelled in help and the man
/// page, and what of the table they show.

extension CommandTable {
    /// Commands shown in help, the man page and completions.
    static var visibleCommands: [CommandSpec] { commands.filter { !$0.hidden } }
    /// Global options shown in help, the man page and completions.
    static var visibleGlobalOptions: [OptionSpec] { globalOptions.filter { !$0.hidden } }
    /// Every alias of a visible command with the name it stands for, for completions.
    static var visibleAliases: [(alias: String, name: String)] {
        visibleCommands.flatMap { command in command.aliases.map { ($0, command.name) } }
    }
}

extension CommandSpec {
    /// Options shown in help, the man page and completions.
    var visibleOptions: [OptionSpec] { options.filter { !$0.hidden } }

    /// `list (ls)`: the name and its aliases, for the list of commands.
    var nameWithAliases: String {
        aliases.isEmpty ? name : name + " (" + aliases.joined(separator: ", ") + ")"
    }

    /// The usage line without "Usage:": `vault add [-s SERVICE] [--json] COMMAND`.
    var usage: String {
        let options = visibleOptions.map { "[\($0.usageSpelling)]" }
        let positionals = positionals.map { $0.usageSpelling }
        let dashDash = takesCommandAfterDashDash ? ["[-- COMMAND [ARG ...]]"] : []
        return (["vault", name] + options + positionals + dashDash).joined(separator: " ")
    }
}

extension OptionSpec {
    /// `-s, --service SERVICE` or `    --json`, for option lists.
    var listSpelling: String {
        let short = short.map { "-\($0), " } ?? "    "
        return short + "--" + long + (valueName.map { " " + $0 } ?? "")
    }

    /// `-s SERVICE` or `--json`, for usage lines.
    var usageSpelling: String {
        let name = short.map { "-\($0)" } ?? "--" + long
        return name + (valueName.map { " " + $0 } ?? "")
    }

    /// The words a value may take, when they are a fixed set.
    var allowedValues: [String]? {
        if case .values(let values) = completion { return values }
        return nil
    }
}

extension PositionalSpec {
    /// `COMMAND`, `[COMMAND]`, `ARG ...`.
    var usageSpelling: String {
        let word = variadic ? name + " ..." : name
        return optional ? "[\(word)]" : word
    }
}
