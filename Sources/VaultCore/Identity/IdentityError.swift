/// Why an operation failed in Identity/: age identities and recipients that are not ones, or an identity file in the way.
/// `VaultError.identity` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Identity.swift`).
public enum IdentityError: Equatable, Sendable {
    /// A recipient that is not an age X25519 recipient (`age1…`), and what it is instead.
    case invalidRecipient(String, reason: RecipientProblem)
    /// Identity text (a file, or a variable's value: `source`) that is not age X25519 identities; the line, when one is wrong.
    case invalidIdentity(source: String, line: Int?, reason: IdentityProblem)
    /// `vault identity new` would write over a file.
    case identityExists(path: String)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .invalidRecipient: return .usage
        case .invalidIdentity: return .authFailed
        case .identityExists: return .usage
        }
    }
}
