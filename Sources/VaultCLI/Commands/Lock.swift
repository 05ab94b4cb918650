import VaultCore

/// `vault lock`'s options.
struct LockArguments: CommandArguments {
    static let all = OptionSpec("all", help: "end every session and the after-first-unlock cache too")

    static let options: [OptionSpec] = [
        all
    ]

    /// --all: every session of the vault, and the after-first-unlock cache.
    var all: Bool

    init(_ options: OptionReader) {
        all = options.flag(LockArguments.all)
    }
}

/// `vault lock`: ends the session in VAULT_SESSION and the one the login's
/// kernel keyring keeps; `--all` ends every session of the vault and the after-first-unlock cache.
enum LockCommand {
    static func run(_ arguments: LockArguments, _ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let all = arguments.all
        guard all || access.sessionToken != nil || access.usesLoginKeyring else {
            invocation.terminal.say("no session to end: VAULT_SESSION is not set ('vault lock --all' ends every session)")
            return
        }
        let outcome = try access.vault().lock(token: access.sessionToken, all: all, loginKeyring: access.usesLoginKeyring)
        if !all, access.sessionToken == nil, !outcome.loginKeyringKeyRemoved {
            invocation.terminal.say(
                "no session to end: VAULT_SESSION is not set and this login keeps none ('vault lock --all' ends every session)")
            return
        }
        var words = "ended \(counted(outcome.sessionsEnded, "session"))"
        if all { words += outcome.afterFirstUnlockEnded ? " and the after-first-unlock cache" : "; no after-first-unlock cache was left" }
        invocation.terminal.say("\(words)")
    }
}
