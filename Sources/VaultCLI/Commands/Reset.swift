import VaultCore

/// `vault reset`'s options.
struct ResetArguments: CommandArguments {

    static let options: [OptionSpec] = [WipeArguments.yes]

    /// --yes: remove the vault without asking.
    var yes: Bool

    init(_ options: OptionReader) {
        yes = options.flag(SharedOptions.yes)
    }
}

/// `vault reset`: removes the vault and everything kept for it.
enum ResetCommand {
    static func run(_ arguments: ResetArguments, _ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let location = access.location
        guard try location.exists else { throw VaultError.noSuchVault(path: location.path) }
        try Confirmation.require(
            invocation, confirmed: arguments.yes, access: access,
            question: "Remove the vault \(quoted(location.path)) and every item in it, for good?")
        let outcome = try access.vault().reset(loginKeyring: access.usesLoginKeyring)
        let sessions = outcome.sessionsEnded == 0 ? "" : " and ended \(counted(outcome.sessionsEnded, "session"))"
        invocation.terminal.say("removed \(outcome.removedPaths.map(quoted).joined(separator: ", "))\(sessions)")
    }
}
