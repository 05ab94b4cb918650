import VaultCore
import VaultSecretProvider

/// The words of `vault secret-service` (docs/SECRET-SERVICE.md).
enum SecretServiceText {
    static func badGroup(_ name: String) -> String { "the config key secret-service-group holds \(quoted(name)), not a group name" }
    static func groupHint(_ path: String) -> String { "write secret-service-group = desktop (\(AccessGroup.rule)) in \(quoted(path))" }
    static func badIdle(_ text: String) -> String { "the config key secret-service-idle holds \(quoted(text)), not a number of seconds" }
    static func idleHint(_ path: String) -> String { "write secret-service-idle = 60 (0 to 86400) in \(quoted(path))" }

    /// What the prompt program is asked.
    static func question(_ vault: String) -> String { "Passphrase for \(vault) (a program asks vault's desktop keyring to unlock):" }

    static func enabled(_ activation: SecretServiceActivation) -> String {
        "enabled: D-Bus starts 'vault secret-service serve' when a program asks for org.freedesktop.secrets "
            + "(\(activation.activationFile), \(activation.unitFile))"
    }

    static func disabled(_ removed: [String]) -> String {
        removed.isEmpty ? "not enabled: no activation file to remove" : "disabled: removed \(removed.joined(separator: ", "))"
    }

    static func activation(_ activation: SecretServiceActivation, program: String?) -> String {
        guard let program else { return "not enabled (no \(activation.activationFile))" }
        return "enabled: \(activation.activationFile) starts \(program.isEmpty ? "(no Exec line)" : program)"
    }

    static func describe(_ owner: SecretServiceOwner) -> String {
        let command = owner.command ?? "an unknown program"
        return owner.processID.map { "\(command) (pid \($0), \(owner.uniqueName))" } ?? "\(command) (\(owner.uniqueName))"
    }

    static func owner(_ owner: SecretServiceOwner?, isVault: Bool, group: String, vault: String) -> String {
        guard let owner else { return "no program holds org.freedesktop.secrets now" }
        if isVault { return "org.freedesktop.secrets is served by vault: \(describe(owner)), group \(quoted(group)) of \(quoted(vault))" }
        return "org.freedesktop.secrets is held by another program: \(describe(owner))"
    }

    /// `status`'s line (and hint) when there is no session bus to ask.
    static func noBusToAsk(_ message: String) -> CommandFailure {
        CommandFailure(
            .notAvailable, "no session bus: cannot tell who holds org.freedesktop.secrets (\(message))",
            hint: "run it in the desktop login (where DBUS_SESSION_BUS_ADDRESS is set); D-Bus starts the provider there")
    }

    static func otherOwner(_ owner: SecretServiceOwner) -> String {
        "\(describe(owner)) holds org.freedesktop.secrets now; D-Bus starts vault only once it lets go of the name"
    }

    /// The one line (and hint) for a provider that cannot serve.
    static func failure(_ error: ProviderError) -> CommandFailure {
        switch error {
        case .libraryMissing(let path, let reason):
            return CommandFailure(.notAvailable, "cannot load \(path) (\(reason))", hint: "install libdbus-1-3")
        case .noSessionBus(_, let message):
            return CommandFailure(
                .notAvailable, "no session bus to serve on (\(message))",
                hint: "run it in a desktop login, or under dbus-run-session")
        case .nameTaken(let owner, let processID, let command):
            let holder = describe(SecretServiceOwner(uniqueName: owner, processID: processID, command: command))
            return CommandFailure(
                .failure, "org.freedesktop.secrets is already served by \(holder)",
                hint: "stop that program (or its autostart) to let vault serve the desktop's secrets")
        }
    }
}
