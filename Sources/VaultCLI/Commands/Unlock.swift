import VaultCore

/// `vault unlock`: extends the live session in VAULT_SESSION, or asks once
/// and starts a new one; prints its token.
enum UnlockCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let ways = [OptionName.raw, .export, .json].filter { arguments.flag($0) }
        if ways.count > 1 {
            throw UsageError("--\(ways[0].long) and --\(ways[1].long) cannot be combined", hint: "choose one way to print the token")
        }
        let timeout = try Settings(invocation).value(.timeout).map { try DurationText.option("timeout", $0) }
            ?? Vault.defaultSessionTimeout
        let access = VaultAccess(invocation)
        let token: String
        let extended: Bool
        if let current = access.sessionToken, try access.vault().extendSession(token: current, timeout: timeout) {
            (token, extended) = (current, true)
        } else {
            (token, extended) = (try access.vaultWithCredential().startSession(timeout: timeout), false)
        }
        let terminal = invocation.terminal
        if arguments.flag(.raw) {
            terminal.writeOut(token + "\n")
        } else if arguments.flag(.export) {
            terminal.writeOut("export VAULT_SESSION=\(token)\n")
        } else if invocation.wantsJSON {
            // The token is what unlock hands over, as --raw prints it; it opens nothing without this user's runtime directory.
            terminal.writeOut(JSONValue.object([("session", .string(token)), ("extended", .bool(extended)),
                                                ("timeout_seconds", .number(timeout))]).text + "\n")
        } else {
            terminal.say("\(extended ? "extended the session in VAULT_SESSION" : "unlocked"); the session ends after \(DurationText.describe(timeout)) without use. Set it in this shell with:")
            terminal.writeOut("export VAULT_SESSION=\(token)\n")
        }
        if extended, arguments.flag(.raw) || arguments.flag(.export) {
            terminal.say("extended the session in VAULT_SESSION; it ends after \(DurationText.describe(timeout)) without use")
        }
    }
}
