import VaultCore

/// A failure the command line itself detects (not the vault): a status, one
/// line naming the problem and one hint saying what to do.
public struct CommandFailure: Error {
    public var status: Status
    public var message: String
    public var hint: String?

    public init(_ status: Status, _ message: String, hint: String? = nil) {
        self.status = status
        self.message = message
        self.hint = hint
    }

    /// The vault is locked and vault may not ask for a credential here.
    static func interactionNotAllowed(reason: String) -> CommandFailure {
        CommandFailure(
            .interactionNotAllowed, "the vault is locked and vault may not prompt here (\(reason))",
            hint: "give --passphrase-file FILE or --key-file FILE, or set VAULT_PASSPHRASE_FILE or VAULT_KEY_FILE")
    }
}
