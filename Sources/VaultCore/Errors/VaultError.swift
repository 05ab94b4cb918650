import FoundationEssentials

/// Why a vault operation failed. Errors carry the facts; the command line
/// writes the words. Each maps to one `Status` and so to one exit code.
public enum VaultError: Error, Equatable {
    /// An item or group asked for that is not there, or is there twice; a value the vault does not take. (Items/)
    case item(ItemError)
    /// The keys at hand do not open the vault, or do not open it for this: a credential, keyslot, session or scoped credential refused. (Unlock/)
    case unlock(UnlockError)
    /// This machine's device key: missing, elsewhere, or its TPM seal refused. (Keys/)
    case keys(KeyError)
    /// A vault file read refused: damaged, not signed by the key trusted, or behind what this machine has seen. (Snapshot/)
    case snapshot(SnapshotError)
    /// A write refused before it began: the file must be converted, a record would not fit, or git holds the work tree. (Transaction/)
    case transaction(TransactionError)
    /// A path refused or a system call failed: the vault file, a file the user named, their permissions and owners. (Storage/)
    case storage(StorageError)
    /// The team's members and log: a member that is not there or may not do this, a team log dropped or to be reviewed. (Team/)
    case team(TeamError)
    /// A merge refused, or a conflict it left that is not there to read or resolve. (Merge/)
    case merge(MergeError)
    /// Age identities and recipients that are not ones, or an identity file in the way. (Identity/)
    case identity(IdentityError)
    /// An export bundle that does not open: damaged, or another credential than the one given. (Items/)
    case bundle(BundleError)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .item(let error): return error.status
        case .unlock(let error): return error.status
        case .keys(let error): return error.status
        case .snapshot(let error): return error.status
        case .transaction(let error): return error.status
        case .storage(let error): return error.status
        case .team(let error): return error.status
        case .merge(let error): return error.status
        case .identity(let error): return error.status
        case .bundle(let error): return error.status
        }
    }
}

extension TPMFailure {
    /// The status of each failure: one of its own for a TPM that is not there, for a changed
    /// machine state and for the lockout, so that none reads as a damaged vault.
    package var status: Status {
        switch self {
        case .libraryMissing, .deviceNotOpenable, .unreachable, .noTPM: return .notAvailable
        case .stateChanged, .anotherTPM, .notThisVaultsSeal: return .verifyFailed
        case .lockout: return .tpmLockout
        case .wrongPIN: return .authFailed
        case .pinNeeded: return .interactionNotAllowed
        case .failed: return .failure
        }
    }
}

/// Why a session token no longer opens the vault.
public enum SessionEnd: Equatable, Sendable {
    /// Idle for longer than its timeout.
    case expired
    /// Locked, never made, or made for another vault or boot.
    case unknown
    /// The token is not a vault session token.
    case malformed
    /// The vault was re-keyed (`vault rekey`, `passwd`) after the session started.
    case rekeyed
}

/// The kinds of credential that unlock a vault.
public enum CredentialKind: Sendable, Equatable {
    /// A passphrase, typed or from a file.
    case passphrase
    /// The content of a key file.
    case keyFile
    /// A key kept in the desktop keyring.
    case desktopKeyring
}
