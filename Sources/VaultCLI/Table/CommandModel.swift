/// The vocabulary of the command table: every command and option is a value
/// of these types, and the parser, `vault help`, the man page and the shell
/// completions are all renderings of the same values.

/// How a shell should complete an option's value or a positional argument.
public enum CompletionKind: Equatable, Sendable {
    case none
    case file
    case directory
    /// A fixed set of words, e.g. accessibility classes; the parser refuses
    /// any other value, except an option's `aliases`.
    case values([String])
    /// Names read from the vault through the hidden `__complete` command.
    case group
    case service
    case account
    /// An item's name as one word, SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT.
    case item
    /// A command name (for `vault help COMMAND`).
    case command
}

/// An option's long name, without the leading dashes: the `name` of its declaration
/// (`OptionSpec`), through which it is read, never made from a string elsewhere.
public struct OptionName: Hashable, Sendable {
    public let long: String

    init(_ long: String) {
        self.long = long
    }
}

/// One option of a command (or a global option).
public struct OptionSpec: Sendable {
    /// Long name without the leading dashes, e.g. "service".
    public var long: String
    /// Short name without the dash, e.g. "s".
    public var short: Character?
    /// Name of the value in usage text, e.g. "SERVICE"; nil for a flag.
    public var valueName: String?
    public var help: String
    /// Default shown in help, when there is one worth showing.
    public var defaultValue: String?
    /// May be given more than once; every value is kept.
    public var repeatable: Bool
    public var completion: CompletionKind
    /// Accepted but not shown in help, man page or completions.
    public var hidden: Bool
    /// Values accepted besides those of a `.values` completion, and never
    /// offered, e.g. Apple's constant names for an accessibility class.
    public var aliases: [String]
    /// The environment variable that gives the same setting, if any (one of
    /// `CommandTable.environment`); read when the option is not given.
    public var environment: EnvironmentVariable?
    /// The config-file key that gives the same setting, if any; read when
    /// neither the option nor the environment variable is given.
    public var configKey: ConfigKey?

    /// The declaration of an option, on the arguments type of the command that takes it (or of the
    /// options several commands share): the one place its long name is spelled
    /// (`OptionsDeclaredOnceRuleTests`). Its command reads it through `OptionReader` by this value.
    init(
        _ long: String, short: Character? = nil, value valueName: String? = nil,
        help: String, default defaultValue: String? = nil, repeatable: Bool = false,
        completion: CompletionKind = .none, hidden: Bool = false, aliases: [String] = [],
        environment: EnvironmentVariable? = nil, configKey: ConfigKey? = nil
    ) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.repeatable = repeatable
        self.completion = completion
        self.hidden = hidden
        self.aliases = aliases
        self.environment = environment
        self.configKey = configKey
    }

    /// An option that shares the name of one declared elsewhere (`name`), as a repeated `--group`
    /// shares `ItemSelection.group`'s: its name is not spelled again.
    public init(
        _ name: OptionName, short: Character? = nil, value valueName: String? = nil,
        help: String, default defaultValue: String? = nil, repeatable: Bool = false,
        completion: CompletionKind = .none, hidden: Bool = false, aliases: [String] = [],
        environment: EnvironmentVariable? = nil, configKey: ConfigKey? = nil
    ) {
        self.init(
            name.long, short: short, value: valueName, help: help, default: defaultValue, repeatable: repeatable,
            completion: completion, hidden: hidden, aliases: aliases, environment: environment, configKey: configKey)
    }

    public var isFlag: Bool { valueName == nil }

    /// The option's name, by which its command reads it.
    public var name: OptionName { OptionName(long) }

    /// The same option as a command that words it its own way shows it.
    func with(help: String) -> OptionSpec {
        var option = self
        option.help = help
        return option
    }

    /// The same option with its own help and default shown.
    func with(help: String, default defaultValue: String?) -> OptionSpec {
        var option = with(help: help)
        option.defaultValue = defaultValue
        return option
    }
}

/// An environment variable vault reads (or sets, for a child): the man
/// page's ENVIRONMENT section is rendered from these.
public struct EnvironmentSpec: Sendable {
    public var variable: EnvironmentVariable
    /// What it does, as table text (one or more sentences).
    public var help: String
    /// Whether it opens secrets (a key, a credential, a session; an OpenBao token or secret id):
    /// `vault run` never hands it to its child (unless `--keep-vault-env`).
    public var unlocks: Bool

    public init(_ variable: EnvironmentVariable, unlocks: Bool = false, help: String) {
        self.variable = variable
        self.help = help
        self.unlocks = unlocks
    }

    /// The variable's name, as the environment spells it.
    public var name: String { variable.name }
}

/// A positional argument of a command.
public struct PositionalSpec: Sendable {
    public var name: String
    public var help: String
    public var optional: Bool
    /// Takes every remaining argument.
    public var variadic: Bool
    public var completion: CompletionKind

    public init(
        _ name: String, help: String, optional: Bool = false, variadic: Bool = false,
        completion: CompletionKind = .none
    ) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
        self.completion = completion
    }
}

/// One example in `vault help COMMAND` and the man page; the first is the common case.
public struct ExampleSpec: Sendable {
    public var command: String
    public var explanation: String

    public init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}

/// One command of the table.
public struct CommandSpec: Sendable {
    public var name: String
    /// Other names people type for it, e.g. `ls` for `list`.
    public var aliases: [String]
    public var summary: String
    public var discussion: String
    public var options: [OptionSpec]
    public var positionals: [PositionalSpec]
    public var examples: [ExampleSpec]
    /// Accepts `-- COMMAND ARGS…` after its options (e.g. `vault run`).
    public var takesCommandAfterDashDash: Bool
    /// Not shown in help, man page or completions (e.g. `__complete`).
    public var hidden: Bool
    /// Removes items or keys: never offered by "did you mean" for a mistyped word.
    public var destructive: Bool
    /// The type of the command's typed arguments, the only way its `run` reads its options.
    let arguments: any CommandArguments.Type
    /// Reads the command's typed arguments, validates them and runs the command.
    public let run: @Sendable (Invocation) throws -> Void

    /// A command whose options are those its arguments type declares (`CommandArguments.options`),
    /// and whose `run` takes those typed arguments, read from the parse and validated before it runs.
    init<Arguments: CommandArguments>(
        _ name: String, aliases: [String] = [], summary: String, discussion: String = "",
        positionals: [PositionalSpec] = [],
        examples: [ExampleSpec] = [], takesCommandAfterDashDash: Bool = false,
        hidden: Bool = false, destructive: Bool = false,
        run: @escaping @Sendable (Arguments, Invocation) throws -> Void
    ) {
        self.init(
            name, aliases: aliases, summary: summary, discussion: discussion, options: Arguments.options,
            positionals: positionals, examples: examples, takesCommandAfterDashDash: takesCommandAfterDashDash,
            hidden: hidden, destructive: destructive, run: run)
    }

    /// A command whose options are given here, for a table a test builds: every command of
    /// `CommandTable` takes its options from its arguments type (`OptionsDeclaredOnceRuleTests`).
    init<Arguments: CommandArguments>(
        _ name: String, aliases: [String] = [], summary: String, discussion: String = "",
        options: [OptionSpec], positionals: [PositionalSpec] = [],
        examples: [ExampleSpec] = [], takesCommandAfterDashDash: Bool = false,
        hidden: Bool = false, destructive: Bool = false,
        run: @escaping @Sendable (Arguments, Invocation) throws -> Void
    ) {
        self.name = name
        self.aliases = aliases
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.examples = examples
        self.takesCommandAfterDashDash = takesCommandAfterDashDash
        self.hidden = hidden
        self.destructive = destructive
        self.arguments = Arguments.self
        self.run = { invocation in
            let arguments = try Arguments(OptionReader(invocation.arguments))
            try arguments.validate()
            try run(arguments, invocation)
        }
    }
}

/// What the parser made of argv: the command and the values given to it.
public struct ParsedArguments: Sendable {
    public var command: CommandSpec
    /// Values by long option name, in the order given (flags hold ""): read through `value`,
    /// `values` and `flag`, by `OptionName`, so a renamed option is a compile error; a command
    /// reads them through its typed arguments (`CommandArguments`, `OptionReader`).
    private var options: [String: [String]]
    public var positionals: [String]
    /// Everything after `--` for commands that run another command.
    public var trailing: [String]

    public init(
        command: CommandSpec, options: [String: [String]] = [:],
        positionals: [String] = [], trailing: [String] = []
    ) {
        self.command = command
        self.options = options
        self.positionals = positionals
        self.trailing = trailing
    }

    /// The last value given for the option `name`, if any.
    public func value(_ name: OptionName) -> String? { options[name.long]?.last }
    /// Every value given for the option `name`, in order.
    public func values(_ name: OptionName) -> [String] { options[name.long] ?? [] }
    /// Whether the flag `name` was given.
    public func flag(_ name: OptionName) -> Bool { options[name.long] != nil }
    /// These arguments without the option `name`: a command that takes a value as its own.
    public func removing(_ name: OptionName) -> ParsedArguments {
        var copy = self
        copy.options[name.long] = nil
        return copy
    }
}

/// A usage error: exit 2, one line naming the problem, one hint saying what to do.
public struct UsageError: Error, Equatable {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}
