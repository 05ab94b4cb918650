import VaultCore

/// A rebase, cherry-pick or revert git stopped in the vault file's work tree (a `git pull
/// --rebase` in a clone without the driver, a driver without keys or killed): `vault sync`
/// finishes it or abandons it as it does a stopped merge (docs/TEAMS.md, "What vault sync does").
extension SyncRun {
    /// How many of the operation's steps a sync goes through before it leaves the rest to the user.
    static let stepsFinished = 100

    /// Merges the vault file at each stop from git's stages and goes on (`git rebase --continue`, …)
    /// until the operation is done. When a stop cannot be merged for a reason the caller cannot fix by
    /// unlocking or confirming (a side these keys no longer open: a rebase from before this member was
    /// removed and added back) and the vault file is the only path in conflict, aborts the operation,
    /// says so in one line, and the sync starts afresh; with other files in conflict it refuses,
    /// naming them, and leaves everything as it is. `git am` is left to the user.
    func finishOrAbandon(_ operation: UnfinishedGitOperation) throws {
        guard let command = Self.gitCommand(operation) else {
            throw CommandFailure(
                .failure, "git holds a 'git am' of \(quoted(relative))'s work tree unfinished; nothing was synced",
                hint: "finish it with 'git am --continue' (or 'git am --abort'), then run 'vault sync' again")
        }
        var continuing = repository
        continuing.environment[.gitEditor] = "true"
        for _ in 0..<Self.stepsFinished {
            guard GitWorkTree.unfinishedOperation(access.location.directory) == operation else {
                invocation.terminal.say("finished git's \(command) of \(quoted(relative))")
                return
            }
            let unmerged = try repository.output(["diff", "--name-only", "--diff-filter=U"]).split(separator: "\n").map(String.init)
            let others = unmerged.filter { $0 != relative }
            guard others.isEmpty else {
                throw CommandFailure(
                    .failure,
                    "git's unfinished \(command) has other files than \(quoted(relative)) in conflict (\(others.joined(separator: ", "))); nothing was synced",
                    hint: "resolve them and run 'git \(command) --continue' (or 'git \(command) --abort'), then 'vault sync'")
            }
            if unmerged.contains(relative) {
                do {
                    try mergeStagesAndAdd(origins: origins(operation))
                } catch let error as VaultError where !SyncRun.isTheCallersToFix(error) {
                    try repository.output([command, "--abort"])
                    invocation.terminal.diagnostics.warning(
                        "cannot finish git's unfinished \(command) of \(quoted(relative)) (\(ErrorReport(error).message)); "
                            + "aborted it: the branch is as it was before that \(command)")
                    return
                }
            }
            let step = continuing.run([command, "--continue"])
            if step.status != 0, GitWorkTree.unfinishedOperation(access.location.directory) == operation,
                (try repository.output(["diff", "--name-only", "--diff-filter=U"])).isEmpty
            {
                throw CommandFailure(
                    .failure, "git \(command) --continue failed: \(step.firstErrorLine); nothing was synced",
                    hint: "finish it yourself ('git \(command) --continue', '--skip' or '--abort'), then run 'vault sync' again")
            }
        }
        throw CommandFailure(
            .failure, "git's \(command) is still unfinished after \(Self.stepsFinished) steps; nothing was synced",
            hint: "finish it with 'git \(command) --continue' (or '--abort'), then run 'vault sync' again")
    }

    /// The git command that continues or aborts `operation`; nil for `git am`, which sync leaves alone.
    private static func gitCommand(_ operation: UnfinishedGitOperation) -> String? {
        switch operation {
        case .merge: return "merge"
        case .rebase: return "rebase"
        case .cherryPick: return "cherry-pick"
        case .revert: return "revert"
        case .applyingPatches: return nil
        }
    }

    /// How a conflict names the two sides: in a rebase git's "ours" is the upstream.
    private func origins(_ operation: UnfinishedGitOperation) -> (ours: String, theirs: String) {
        switch operation {
        case .rebase:
            return (
                ours: repository.describe("HEAD") + " (upstream, in a rebase)",
                theirs: repository.describe("REBASE_HEAD") + " (your commit being replayed)"
            )
        case .cherryPick: return (ours: repository.describe("HEAD"), theirs: repository.describe("CHERRY_PICK_HEAD") + " (picked)")
        case .revert: return (ours: repository.describe("HEAD"), theirs: repository.describe("REVERT_HEAD") + " (reverted)")
        case .merge, .applyingPatches: return (ours: repository.describe("HEAD"), theirs: repository.describe("MERGE_HEAD"))
        }
    }
}
