import VaultCore

/// The words for Transaction/'s errors.
extension ErrorReport {
    /// A TransactionError in words.
    static func describe(_ error: TransactionError) -> ErrorReport {
        let status = error.status
        switch error {
        case .upgradeNeeded(let path, let byOwner, let inGitWorkTree):
            if byOwner {
                return ErrorReport(
                    status: status, message: "the vault \(quoted(path)) is format v1, which this credential cannot change",
                    hint: "its owner converts it with 'vault upgrade' (and commits the result if it is in git)")
            }
            return ErrorReport(
                status: status,
                message: "the vault \(quoted(path)) is format v1\(inGitWorkTree ? " in a git work tree" : ""); it was left unchanged",
                hint: "convert it with 'vault upgrade' and commit it once every teammate runs a vault that reads format v2")
        case .recordTooLarge(let key):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(
                status: status,
                message:
                    "\(names) and the other versions a merge keeps beside it do not fit in one record (1 MiB + 63 KiB); nothing was merged",
                hint:
                    "merge it by hand: keep one side ('git checkout --ours' or '--theirs' and 'git add'), then make the other side's change again"
            )
        case .unfinishedGitOperation(let path, let operation):
            return ErrorReport(
                status: status,
                message:
                    "git holds \(words(operation)) of \(quoted(path))'s work tree unfinished: a change made now would be lost when it goes on or is aborted; nothing was changed",
                hint: finishHint(operation))
        }
    }
}
