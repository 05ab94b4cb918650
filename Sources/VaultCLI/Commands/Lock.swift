import VaultCore

/// `vault lock`: ends the session in VAULT_SESSION (every session of the vault
/// when none is set); `--all` also ends the after-first-unlock cache.
enum LockCommand {
    static func run(_ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let all = invocation.arguments.flag(.all)
        guard all || access.sessionToken != nil else {
            invocation.terminal.say("no session to end: VAULT_SESSION is not set ('vault lock --all' ends every session)")
            return
        }
        let outcome = try access.vault().lock(token: access.sessionToken, all: all)
        var words = "ended \(counted(outcome.sessionsEnded, "session"))"
        if all { words += outcome.afterFirstUnlockEnded ? " and the after-first-unlock cache" : "; no after-first-unlock cache was left" }
        invocation.terminal.say("\(words)")
    }
}
