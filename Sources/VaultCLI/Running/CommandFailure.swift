import VaultCore

/// A failure the command line itself detects (not the vault): a status, one
/// line naming the problem and one hint saying what to do.
public struct CommandFailure: Error {
    public var status: Status
    public var message: String
    /// Lines printed after the message, e.g. every reference that is missing.
    public var details: [String]
    public var hint: String?

    public init(_ status: Status, _ message: String, details: [String] = [], hint: String? = nil) {
        self.status = status
        self.message = message
        self.details = details
        self.hint = hint
    }

    /// The vault is locked and vault may not ask for a credential here.
    static func interactionNotAllowed(reason: String) -> CommandFailure {
        CommandFailure(
            .interactionNotAllowed, "the vault is locked and vault may not prompt here (\(reason))",
            hint: credentialWays)
    }

    /// Every way to give vault a credential without a prompt, for the hint of exit 36.
    static let credentialWays =
        "give --key-file FILE or --passphrase-file FILE (or VAULT_KEY_FILE, VAULT_PASSPHRASE_FILE), "
        + "VAULT_SESSION from 'vault unlock --raw', a member's identity with --identity FILE (or VAULT_IDENTITY), "
        + "or a scoped credential from 'vault grant' with --credential FILE (or VAULT_CREDENTIAL)"
}

/// The command ran, or tried to run, another program (`vault run`) and exits
/// with its status, or a shell's 126/127 with `failure` when it could not start.
public struct ChildExitStatus: Error {
    public var code: Int32
    public var failure: CommandFailure?

    public init(code: Int32, failure: CommandFailure? = nil) {
        self.code = code
        self.failure = failure
    }
}
