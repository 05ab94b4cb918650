/// A commit whose vault file's team log drops entries of a commit before it — a revert, an old
/// file checked out and committed, a merge or rebase resolved by hand — so that writing on it
/// would undo a removal or another change of the team (docs/TEAMS.md, "Every head checked").
public struct HistoryBreak: Sendable, Equatable {
    /// Who found it, and so what was left undone.
    package enum Finding: Sendable, Equatable {
        /// A change of the vault file, on this clone's HEAD: nothing was changed.
        case beforeChanging
        /// `vault sync`, on this clone's branch: nothing was committed or pushed.
        case beforeSyncing
        /// `vault sync`, on the remote's branch, with keys that do not repair it (not the owner's).
        case onRemote(remote: String)
        /// `vault check-history`.
        case checkingHistory
    }

    /// The vault file: its path on this machine, or in the repository for `check-history`.
    package let path: String
    /// The commit, abbreviated.
    package let commit: String
    /// Who found it.
    package let finding: Finding

    /// A break of `path`'s history at `commit`, found as `finding` says.
    package init(path: String, commit: String, finding: Finding) {
        (self.path, self.commit, self.finding) = (path, commit, finding)
    }
}
