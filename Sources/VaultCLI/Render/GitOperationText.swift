import VaultCore

/// The words for an operation git holds unfinished: what it is, and how to finish or abort it.
extension ErrorReport {
    /// The operation, after "git holds ".
    static func words(_ operation: UnfinishedGitOperation) -> String {
        switch operation {
        case .merge: return "a merge"
        case .rebase: return "a rebase"
        case .applyingPatches: return "a 'git am'"
        case .cherryPick: return "a cherry-pick"
        case .revert: return "a revert"
        }
    }

    /// What finishes or aborts it, then the change.
    static func finishHint(_ operation: UnfinishedGitOperation) -> String {
        switch operation {
        case .merge: return "run 'vault sync' to finish the merge (or 'git merge --abort'), then make the change"
        case .rebase: return "run 'vault sync' to finish the rebase (or 'git rebase --abort'), then make the change"
        case .applyingPatches: return "finish it with 'git am --continue' (or 'git am --abort'), then make the change"
        case .cherryPick: return "run 'vault sync' to finish the cherry-pick (or 'git cherry-pick --abort'), then make the change"
        case .revert: return "run 'vault sync' to finish the revert (or 'git revert --abort'), then make the change"
        }
    }
}
