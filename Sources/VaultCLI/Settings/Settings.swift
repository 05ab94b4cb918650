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
        if let given, !given.isEmpty { return given }
        return try fromEnvironmentOrConfig(name)
    }

    /// The value from the environment or the config only, as when a command
    /// must tell an option given on the command line from one set elsewhere.
    func fromEnvironmentOrConfig(_ name: OptionName) throws -> String? {
        guard let spec = Settings.spec(name, of: invocation.arguments.command) else { return nil }
        if let variable = spec.environment, let value = invocation.environment[variable], !value.isEmpty { return value }
        if let key = spec.configKey { return try invocation.config().value(key) }
        return nil
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
