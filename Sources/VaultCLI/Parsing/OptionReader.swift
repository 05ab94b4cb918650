/// The parsed arguments as a command's `CommandArguments` read them: options
/// by `OptionName` only, and every name asked for noted, so that a test can
/// compare what a command reads with what its table entry declares.
final class OptionReader {
    private let parsed: ParsedArguments
    /// The option names asked for so far, in order, repeats kept.
    private(set) var asked: [OptionName] = []

    init(_ parsed: ParsedArguments) {
        self.parsed = parsed
    }

    /// The command's positional arguments, as given.
    var positionals: [String] { parsed.positionals }
    /// Everything after `--` for a command that runs another one.
    var trailing: [String] { parsed.trailing }

    /// The value given for the positional `spec`; nil when the command does not take it or it was left out.
    func positional(_ spec: PositionalSpec) -> String? {
        guard let index = parsed.command.positionals.firstIndex(where: { $0.name == spec.name }),
            index < parsed.positionals.count
        else { return nil }
        return parsed.positionals[index]
    }

    /// The last value given for the option `name`, if any.
    func value(_ name: OptionName) -> String? {
        asked.append(name)
        return parsed.value(name)
    }

    /// Every value given for the option `name`, in order.
    func values(_ name: OptionName) -> [String] {
        asked.append(name)
        return parsed.values(name)
    }

    /// Whether the flag `name` was given.
    func flag(_ name: OptionName) -> Bool {
        asked.append(name)
        return parsed.flag(name)
    }

    /// The last value given for `option`, if any.
    func value(_ option: OptionSpec) -> String? { value(option.name) }
    /// Every value given for `option`, in order.
    func values(_ option: OptionSpec) -> [String] { values(option.name) }
    /// Whether the flag `option` was given.
    func flag(_ option: OptionSpec) -> Bool { flag(option.name) }
}
