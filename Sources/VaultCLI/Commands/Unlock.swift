import VaultCore

/// `vault unlock`: asks once and starts an unlock session; prints its token.
enum UnlockCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        if arguments.flag(.raw), arguments.flag(.export) {
            throw UsageError("--raw and --export cannot be combined", hint: "choose one way to print the token")
        }
        let timeout = try Settings(invocation).value(.timeout).map { try DurationText.option("timeout", $0) }
            ?? Vault.defaultSessionTimeout
        let token = try VaultAccess(invocation).vaultWithCredential().startSession(timeout: timeout)
        let terminal = invocation.terminal
        if arguments.flag(.raw) {
            terminal.writeOut(token + "\n")
        } else if arguments.flag(.export) {
            terminal.writeOut("export VAULT_SESSION=\(token)\n")
        } else {
            terminal.writeErr("vault: unlocked; the session ends after \(DurationText.describe(timeout)) without use. Set it in this shell with:\n")
            terminal.writeOut("export VAULT_SESSION=\(token)\n")
        }
    }
}
