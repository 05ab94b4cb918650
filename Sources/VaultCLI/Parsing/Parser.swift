/// Turns argv into `ParsedArguments`, knowing commands only through the table.
///
/// Accepted forms, the same for every command: `--service value`,
/// `--service=value` (the only way to give a value that begins with `-`),
/// `-s value`, `-svalue`, `-s=value`, clustered short flags (`-Uw secret`),
/// global options before or after the command name, and `--`, which ends
/// the options: what follows goes to `trailing` for commands that run another
/// command, and is positional otherwise. `-h`/`--help` anywhere asks for
/// `vault help COMMAND`, `--version` for the version, and no command at all
/// for `vault help`; all three parse as the `help` command.
public enum Parser {
    /// Parses `argv` (without the program name) against a command table.
    ///
    /// - Throws: `UsageError` naming the first problem, with a hint.
    public static func parse(
        _ argv: [String],
        globalOptions: [OptionSpec] = CommandTable.globalOptions,
        commands: [CommandSpec] = CommandTable.commands
    ) throws(UsageError) -> ParsedArguments {
        let help = helpCommand(in: commands)
        var run = ParseRun(argv, globalOptions: globalOptions, commands: commands)
        do throws(UsageError) {
            try run.scan()
        } catch {
            // `vault add --bogus --help` still shows the help of add.
            let beforeDashDash = argv.prefix { $0 != "--" }
            guard let command = run.command, beforeDashDash.contains(where: { $0 == "--help" || $0 == "-h" })
            else { throw error }
            return ParsedArguments(command: help, positionals: [command.name])
        }
        guard let command = run.command else {
            return ParsedArguments(command: help, options: run.options)
        }
        let given = ParsedArguments(command: command, options: run.options)
        if given.flag(GlobalOptions.help.name), command.name != help.name || run.positionals.isEmpty {
            return ParsedArguments(command: help, positionals: [command.name])
        }
        if given.flag(GlobalOptions.version.name) {
            return ParsedArguments(command: help, options: run.options)
        }
        try run.checkPositionals(of: command)
        return ParsedArguments(
            command: command, options: run.options,
            positionals: run.positionals, trailing: run.trailing)
    }

    /// The command called `name` or one of its aliases, visible or hidden.
    ///
    /// - Throws: `UsageError` for an unknown name, suggesting a close one
    ///   that removes nothing: a mistyped word never leads to a destructive command.
    static func command(named name: String, in commands: [CommandSpec]) throws(UsageError) -> CommandSpec {
        if let command = commands.first(where: { $0.name == name || $0.aliases.contains(name) }) { return command }
        if let peerHint = PeerVerbs.hint(for: name) { throw UsageError("unknown command \(quoted(name))", hint: peerHint) }
        let safe = commands.filter { !$0.hidden && !$0.destructive }.flatMap { [$0.name] + $0.aliases }
        let hint = Suggestion.closest(to: name, among: safe).map { "did you mean \"\($0)\"? (see 'vault help')" }
        throw UsageError("unknown command \(quoted(name))", hint: hint ?? "see 'vault help'")
    }

    private static func helpCommand(in commands: [CommandSpec]) -> CommandSpec {
        guard let help = commands.first(where: { $0.name == "help" }) else {
            preconditionFailure("the command table has no help command")
        }
        return help
    }
}

/// The state of one parse: the words left and what they have given so far.
private struct ParseRun {
    let globalOptions: [OptionSpec]
    let commands: [CommandSpec]
    var words: ArraySlice<String>
    var command: CommandSpec?
    var options: [String: [String]] = [:]
    var positionals: [String] = []
    var trailing: [String] = []

    init(_ argv: [String], globalOptions: [OptionSpec], commands: [CommandSpec]) {
        self.words = argv[...]
        self.globalOptions = globalOptions
        self.commands = commands
    }

    /// "vault add", or "vault" before the command name.
    var context: String { command.map { "vault \($0.name)" } ?? "vault" }
    var helpHint: String { command.map { "see 'vault help \($0.name)'" } ?? "see 'vault help'" }

    mutating func scan() throws(UsageError) {
        var optionsEnded = false
        while let word = words.popFirst() {
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                try takeWord(word)
            } else if word == "--" {
                if command?.takesCommandAfterDashDash == true {
                    trailing = Array(words)
                    words = []
                }
                optionsEnded = true
            } else if word.hasPrefix("--") {
                try takeLong(String(word.dropFirst(2)))
            } else {
                try takeShort(word.dropFirst())
            }
        }
    }

    private mutating func takeWord(_ word: String) throws(UsageError) {
        if command == nil {
            command = try Parser.command(named: word, in: commands)
        } else {
            positionals.append(word)
        }
    }

    private mutating func takeLong(_ body: String) throws(UsageError) {
        let parts = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        guard let spec = option(where: { $0.long == name }) else {
            throw unknownOption("--" + name, suggest: true)
        }
        if spec.isFlag {
            guard parts.count == 1 else {
                throw UsageError("option \"--\(name)\" takes no value", hint: "write --\(name) alone")
            }
            return try record(spec, "")
        }
        let value = parts.count == 2 ? String(parts[1]) : try nextValue(for: spec, spelled: "--" + name)
        try record(spec, value)
    }

    /// A cluster of short options: flags, then at most one option taking the
    /// rest of the word (after an optional `=`) or the next word as its value.
    private mutating func takeShort(_ cluster: Substring) throws(UsageError) {
        var rest = cluster
        while let letter = rest.popFirst() {
            guard let spec = option(where: { $0.short == letter }) else {
                throw unknownOption("-" + String(letter), suggest: false)
            }
            if spec.isFlag {
                if rest.first == "=" {
                    throw UsageError("option \"-\(letter)\" takes no value", hint: "write -\(letter) alone")
                }
                try record(spec, "")
                continue
            }
            if rest.first == "=" { rest.removeFirst() }
            let value = rest.isEmpty ? try nextValue(for: spec, spelled: "-" + String(letter)) : String(rest)
            return try record(spec, value)
        }
    }

    private mutating func nextValue(for spec: OptionSpec, spelled: String) throws(UsageError) -> String {
        guard let next = words.first else {
            throw UsageError("missing value for \(quoted(spelled))", hint: "write \(spelled) \(spec.valueName ?? "VALUE")")
        }
        if next.hasPrefix("-"), next != "-" {
            throw UsageError(
                "missing value for \(quoted(spelled))",
                hint: "to give a value that begins with \"-\", write --\(spec.long)=\(next)")
        }
        return words.removeFirst()
    }

    private mutating func record(_ spec: OptionSpec, _ value: String) throws(UsageError) {
        if options[spec.long] != nil, !spec.repeatable {
            throw UsageError("option \"--\(spec.long)\" given more than once", hint: "give --\(spec.long) once")
        }
        if case .values(let allowed) = spec.completion, !spec.aliases.contains(value) {
            try check(value, in: allowed, for: "--\(spec.long)")
        }
        options[spec.long, default: []].append(value)
    }

    /// An option of the command, or a global one; only global ones before the command name.
    private func option(where matches: (OptionSpec) -> Bool) -> OptionSpec? {
        command?.options.first(where: matches) ?? globalOptions.first(where: matches)
    }

    private func unknownOption(_ spelled: String, suggest: Bool) -> UsageError {
        let message = "unknown option \(quoted(spelled)) for \"\(context)\""
        let visible = ((command?.options ?? []) + globalOptions).filter { !$0.hidden }.map { "--" + $0.long }
        if suggest, let suggestion = Suggestion.closest(to: spelled, among: visible) {
            return UsageError(message, hint: "did you mean \"\(suggestion)\"?")
        }
        let names = { (option: OptionSpec) in ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? []) }
        // Prefer the command named later on the line: `vault -s x get`.
        let owners = commands.filter { !$0.hidden && $0.options.contains { names($0).contains(spelled) } }
        if command == nil, let owner = owners.first(where: { words.contains($0.name) }) ?? owners.first {
            return UsageError(message, hint: "options of a command go after its name, as in 'vault \(owner.name) \(spelled) …'")
        }
        return UsageError(message, hint: helpHint)
    }

    func checkPositionals(of command: CommandSpec) throws(UsageError) {
        let required = command.positionals.filter { !$0.optional }
        if positionals.count < required.count {
            throw UsageError("missing \(required[positionals.count].name) for \"\(context)\"", hint: helpHint)
        }
        if command.positionals.last?.variadic != true, positionals.count > command.positionals.count {
            let extra = positionals[command.positionals.count]
            let hint = command.takesCommandAfterDashDash ? "put the command to run after \"--\"" : helpHint
            throw UsageError("unexpected argument \(quoted(extra)) for \"\(context)\"", hint: hint)
        }
        for (index, value) in positionals.enumerated() {
            let spec = command.positionals[min(index, command.positionals.count - 1)]
            if case .values(let allowed) = spec.completion {
                try check(value, in: allowed, for: spec.name)
            }
        }
    }

    private func check(_ value: String, in allowed: [String], for name: String) throws(UsageError) {
        guard !allowed.contains(value) else { return }
        let hint = Suggestion.closest(to: value, among: allowed).map { "did you mean \"\($0)\"?" }
        throw UsageError(
            "invalid value \(quoted(value)) for \"\(name)\"",
            hint: hint ?? "choose one of: " + allowed.joined(separator: ", "))
    }
}

/// "Did you mean" for mistyped names.
enum Suggestion {
    /// The candidate closest to `word` within two edits (a swap of neighbours
    /// counts as one), the first one on a tie; nil when none is that close.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { (name: $0, distance: distance(word, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2 else { return nil }
        return best.name
    }

    /// Optimal-string-alignment distance: insertions, deletions,
    /// substitutions and transpositions of adjacent characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
