import VaultCore

/// What `vault secret-service serve` reads from the config file (and, in debug builds, the environment).
enum SecretServiceSettings {
    /// The group served: the config key secret-service-group, else `desktop`.
    static func group(_ invocation: Invocation) throws -> AccessGroup {
        guard let name = try invocation.config().value(.secretServiceGroup) else { return AccessGroup("desktop")! }
        guard let group = AccessGroup(name) else {
            throw UsageError(SecretServiceText.badGroup(name), hint: SecretServiceText.groupHint(try invocation.config().path))
        }
        return group
    }

    /// The config key secret-service-idle, in seconds (60 when unset).
    static func idleSeconds(_ invocation: Invocation) throws -> Int {
        guard let text = try invocation.config().value(.secretServiceIdle) else { return 60 }
        guard let seconds = Int(text), (0...86_400).contains(seconds) else {
            throw UsageError(SecretServiceText.badIdle(text), hint: SecretServiceText.idleHint(try invocation.config().path))
        }
        return seconds
    }

    /// The config key secret-service-prompt: the program the provider asks the passphrase through, if set.
    static func promptProgram(_ invocation: Invocation) throws -> String? {
        try nonEmpty(invocation.config().value(.secretServicePrompt))
    }

    #if DEBUG
    /// For tests: VAULT_TEST_SHUTDOWN_PAUSE_MS, in seconds, the pause before the bus name is released.
    static func shutdownPause(_ invocation: Invocation) -> Double {
        Double(invocation.environment[.vaultTestShutdownPauseMS].flatMap { Int($0) } ?? 0) / 1000
    }
    #endif
}
