import VaultCore
import VaultSecretProvider

/// `vault secret-service`'s arguments.
struct SecretServiceArguments: CommandArguments {
    /// serve, enable, disable or status (the table allows no other).
    var action: String

    init(_ options: OptionReader) {
        action = options.positionals.first ?? ""
    }
}

/// `vault secret-service serve|enable|disable|status` (docs/SECRET-SERVICE.md).
enum SecretServiceCommand {
    static func run(_ arguments: SecretServiceArguments, _ invocation: Invocation) throws {
        switch arguments.action {
        case "serve": try serve(invocation)
        case "enable": try enable(invocation)
        case "disable": try disable(invocation)
        default: try status(invocation)
        }
    }

    private static func serve(_ invocation: Invocation) throws {
        // The provider never prompts: it opens the vault with what its environment gives, or finds it locked.
        var quiet = invocation
        quiet.environment[.vaultNoInteraction] = "1"
        var settings = SecretServiceProvider.Settings(
            group: try SecretServiceSettings.group(invocation), idleSeconds: try SecretServiceSettings.idleSeconds(invocation)
        ) {
            try VaultAccess(quiet).vault()
        }
        if let program = try SecretServiceSettings.promptProgram(invocation) {
            settings.askToUnlock = { SecretServicePrompt.unlock(program: program, quiet) }
        }
        #if DEBUG
        // For tests: a pause before the name is released, so a call can arrive during the shutdown.
        settings.shutdownPause = SecretServiceSettings.shutdownPause(invocation)
        #endif
        do {
            try SecretServiceProvider(settings: settings).serve()
        } catch let error as ProviderError {
            throw SecretServiceText.failure(error)
        }
    }

    private static func enable(_ invocation: Invocation) throws {
        let activation = SecretServiceActivation(environment: invocation.environment)
        try activation.write(program: SyncCommand.executablePath())
        invocation.terminal.say(SecretServiceText.enabled(activation))
        if let owner = try? SecretServiceOwner.current(), !isVault(owner) {
            invocation.terminal.diagnostics.warning(SecretServiceText.otherOwner(owner))
        }
    }

    private static func disable(_ invocation: Invocation) throws {
        let removed = try SecretServiceActivation(environment: invocation.environment).remove()
        invocation.terminal.say(SecretServiceText.disabled(removed))
    }

    private static func status(_ invocation: Invocation) throws {
        let activation = SecretServiceActivation(environment: invocation.environment)
        invocation.terminal.say(SecretServiceText.activation(activation, program: activation.installedProgram()))
        do {
            let owner = try SecretServiceOwner.current()
            invocation.terminal.say(
                SecretServiceText.owner(
                    owner, isVault: owner.map(isVault) ?? false,
                    group: try SecretServiceSettings.group(invocation).name, vault: VaultAccess(invocation).location.path))
        } catch ProviderError.noSessionBus(_, let message) {
            throw SecretServiceText.noBusToAsk(message)
        } catch let error as ProviderError {
            throw SecretServiceText.failure(error)
        }
    }

    /// Whether the program holding the name is a vault binary.
    static func isVault(_ owner: SecretServiceOwner) -> Bool {
        owner.command.map { $0 == "vault" || $0.hasSuffix("/vault") } ?? false
    }
}
