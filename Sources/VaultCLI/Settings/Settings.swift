import VaultCore

/// Every setting resolved one way: the option on the command line, then its
/// environment variable, then its key in the config file, then nothing (the
/// caller's default). Which variable and key belong to an option is said
/// once, in the command table (`OptionSpec.environment`, `.configKey`); the
/// config file is read only when a setting gets that far, and once per run.
struct Settings {
    let invocation: Invocation

    init(_ invocation: Invocation) {
        self.invocation = invocation
    }

    /// The value of the setting of option `name`; an empty value counts as unset.
    func value(_ name: OptionName) throws -> String? {
        try value(name, given: invocation.arguments.value(name))
    }

    /// The value of the setting of option `name`, given on the command line as `given`.
    func value(_ name: OptionName, given: String?) throws -> String? {
        try sourcedValue(name, given: given)?.value
    }

    /// The value of the setting of option `name` (given on the command line as `given`) and where it came from.
    func sourcedValue(_ name: OptionName, given: String?) throws -> (value: String, source: SettingSource)? {
        if let given, !given.isEmpty { return (given, .option(name)) }
        return try sourcedFromEnvironmentOrConfig(name)
    }

    /// The setting of the duration option `name` (given on the command line as `given`), in seconds:
    /// read here, not by the command, since the environment or the config may give it too.
    func duration(_ name: OptionName, given: String?) throws -> Int? {
        try value(name, given: given).map { try DurationText.option(name.long, $0) }
    }

    /// The config key trash-days: how many days (0 to 36 500) a deleted item stays in the trash; nil when unset.
    func trashDays() throws -> Int? {
        guard let text = try invocation.config().value(.trashDays) else { return nil }
        guard let days = Int(text), days >= 0, days <= 36_500 else {
            throw UsageError(
                "the config key trash-days holds \(quoted(text)), not a number of days",
                hint: "write trash-days = 30 (0 to 36500) in \(quoted(try invocation.config().path))")
        }
        return days
    }

    /// --min-epoch, VAULT_MIN_EPOCH or the config key min-epoch: the lowest key epoch accepted; nil when unset.
    func minimumEpoch() throws -> UInt64? {
        guard let text = try value(GlobalOptions.minEpoch.name) else { return nil }
        guard let epoch = UInt64(text) else {
            throw UsageError(
                "the minimum key epoch \(quoted(text)) is not a whole number",
                hint: "give the epoch 'vault verify' prints, e.g. --min-epoch 3")
        }
        return epoch
    }

    /// The value from the environment or the config only, as when a command
    /// must tell an option given on the command line from one set elsewhere.
    func fromEnvironmentOrConfig(_ name: OptionName) throws -> String? {
        try sourcedFromEnvironmentOrConfig(name)?.value
    }

    private func sourcedFromEnvironmentOrConfig(_ name: OptionName) throws -> (value: String, source: SettingSource)? {
        guard let spec = Settings.spec(name, of: invocation.arguments.command) else { return nil }
        if let variable = spec.environment, let value = invocation.environment[variable], !value.isEmpty {
            return (value, .environment(variable))
        }
        if let key = spec.configKey { return try invocation.config().value(key).map { ($0, .config(key)) } }
        return nil
    }

    /// Whether `variable` is set to anything but an empty string, 0, false or no (CI).
    func isOn(variable: EnvironmentVariable) -> Bool {
        Settings.isSet(invocation.environment[variable])
    }

    /// Whether `variable` is set, to an empty string (a CI secret that was never set, say).
    func isEmptyButSet(variable: EnvironmentVariable) -> Bool {
        invocation.environment[variable] == ""
    }

    /// The value of `variable`, or nil when it is unset or empty (an empty variable counts as unset).
    func value(variable: EnvironmentVariable) -> String? {
        nonEmpty(invocation.environment[variable])
    }

    /// Whether the flag `name` is on: given, or else its variable, or else its config key, set to
    /// anything but an empty string, 0, false or no. A config file that cannot be read counts as
    /// unset here; the commands that read it for other settings say why.
    func isOn(_ name: OptionName) -> Bool {
        if invocation.arguments.flag(name) { return true }
        guard let spec = Settings.spec(name, of: invocation.arguments.command) else { return false }
        if let variable = spec.environment, let value = invocation.environment[variable], !value.isEmpty { return Settings.isSet(value) }
        guard let key = spec.configKey else { return false }
        return Settings.isSet(try? invocation.config().value(key))
    }

    /// Whether an environment value turns a switch on (CI, VAULT_NO_INTERACTION).
    static func isSet(_ value: String?) -> Bool {
        guard let value else { return false }
        return !["", "0", "false", "no"].contains(value.lowercased())
    }

    /// The option `name` of `command`, or the global one.
    static func spec(_ name: OptionName, of command: CommandSpec) -> OptionSpec? {
        (command.options + CommandTable.globalOptions).first { $0.long == name.long }
    }
}

/// Where a setting's value came from: an option on the command line, an environment variable or a
/// config key; compared as a value, and worded for messages by `described`.
enum SettingSource: Equatable {
    case option(OptionName)
    case environment(EnvironmentVariable)
    case config(ConfigKey)

    /// How a message names it, never showing the value: "the --identity value", "VAULT_IDENTITY",
    /// "the config key identity".
    var described: String {
        switch self {
        case .option(let name): return "the --\(name.long) value"
        case .environment(let variable): return variable.name
        case .config(let key): return "the config key \(key.name)"
        }
    }
}

/// The rule of where an identity's text may be given.
enum IdentitySetting {
    /// The one place an identity's text itself may be: its variable (a CI secret).
    static let variable = SettingSource.environment(.vaultIdentity)

    /// Refuses an identity's text given anywhere but `variable` (exit 2): text on the command line is
    /// in every user's `ps` and in shell history; the config file need not be private.
    static func refuseTextOutsideItsVariable(_ value: String, source: SettingSource) throws {
        guard IdentityFile.isText(value), source != variable else { return }
        throw UsageError(
            "\(source.described) holds an identity's text; there it is readable by others",
            hint: "put the identity in a file only you can read and name the file, or put its text in VAULT_IDENTITY")
    }
}
