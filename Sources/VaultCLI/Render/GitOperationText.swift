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

/// The words for a commit whose vault file drops team log entries of a commit before it.
extension ErrorReport {
    static func message(_ found: HistoryBreak) -> String {
        let what =
            "commit \(found.commit) of \(quoted(found.path)) drops team log entries of a commit before it (a revert, an old file checked out, a merge or rebase resolved by hand?): writing on it would undo a change of the team's members or keys"
        switch found.finding {
        case .beforeChanging: return what + "; nothing was changed"
        case .beforeSyncing: return what + "; nothing was committed or pushed"
        case .onRemote(let remote): return "the branch of \(remote): " + what + "; nothing was committed or pushed"
        case .checkingHistory: return what
        }
    }

    static func hint(_ found: HistoryBreak) -> String {
        switch found.finding {
        case .onRemote:
            return "only the vault's owner repairs it: ask the owner to run 'vault sync' (passphrase or key file), then sync again"
        case .beforeChanging, .beforeSyncing, .checkingHistory:
            return
                "drop that commit ('git reset --hard \(found.commit)^' when it is the last, else 'git rebase -i'), bring the change in again with 'vault sync'; on the remote already, the owner's 'vault sync' repairs it"
        }
    }
}
