/// Why an operation failed in Transaction/: a write refused before it began: the file must be converted, a record would not fit, or git holds the work tree.
/// `VaultError.transaction` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Transaction.swift`).
public enum TransactionError: Equatable, Sendable {
    /// The vault file is an older format that this change cannot write: `byOwner` when only the
    /// owner can convert it, `inGitWorkTree` when it lies in a git work tree (only `vault upgrade` converts there).
    case upgradeNeeded(path: String, byOwner: Bool, inGitWorkTree: Bool = false)
    /// An item and the other versions a merge would keep beside it do not fit in one record.
    case recordTooLarge(ItemKey)
    /// The vault file lies in a git work tree where git holds an operation unfinished (a merge, a
    /// rebase, `am`, a cherry-pick, a revert): a change now would be lost when it goes on or is aborted.
    case unfinishedGitOperation(path: String, UnfinishedGitOperation)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .upgradeNeeded: return .failure
        case .recordTooLarge: return .failure
        case .unfinishedGitOperation: return .usage
        }
    }
}
