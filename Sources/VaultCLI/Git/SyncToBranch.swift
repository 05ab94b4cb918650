import VaultCore

// `vault sync --branch NAME`: the vault file committed and pushed to a branch of its own, merging
// nothing, for an owner or full member to merge (docs/TEAMS.md, "A scoped writer's changes").
extension SyncRun {
    /// Fetches; refuses when the remote's branch has team log entries the work tree's file lacks (a
    /// change on it would be sealed under keys the team retired) or HEAD drops entries; then commits
    /// the vault file alone and pushes HEAD to `name` on the remote (never forced: a branch HEAD
    /// does not descend from is git's refusal to explain).
    func pushToBranch(_ name: String) throws {
        guard repository.succeeds(["check-ref-format", "--branch", name]) else {
            throw UsageError("\(quoted(name)) is not a branch name git takes", hint: "give a name such as 'ci-token' or 'carol/rotate-db'")
        }
        guard let branch = currentBranch else {
            throw CommandFailure(
                .failure, "the work tree of \(quoted(relative)) is on no branch (a detached HEAD); nothing was committed",
                hint: "switch to the branch you work on ('git switch main') and run 'vault sync --branch \(name)' again")
        }
        let remote = remote(of: branch)
        let fetch = repository.run(["fetch", "-q", remote])
        guard fetch.status == 0 else {
            throw CommandFailure(
                .failure, "git fetch -q \(remote) failed: \(fetch.firstErrorLine); nothing was committed or pushed",
                hint: "run 'vault sync --branch \(name)' again once \(remote) can be reached")
        }
        let remoteBranch =
            configured("branch.\(branch).merge").map { $0.hasPrefix("refs/heads/") ? String($0.dropFirst(11)) : $0 } ?? branch
        if let remoteFile = repository.blob("refs/remotes/\(remote)/\(remoteBranch):\(relative)"),
            let localFile = try? PlainFile.read(access.location.path), !Vault.teamLogHolds(localFile, logsOf: [remoteFile])
        {
            throw CommandFailure(
                .failure,
                "\(remote)/\(remoteBranch) has team log entries (a removal, a re-key) that \(quoted(relative)) here lacks: your change is sealed under keys the team retired; nothing was committed or pushed",
                hint:
                    "keep a note of your change, take the remote's file ('git stash && git merge --ff-only \(remote)/\(remoteBranch)' or ask the owner), make it again and run 'vault sync --branch \(name)'"
            )
        }
        try requireHistoryHolds("HEAD", finding: .beforeSyncing)
        try commitLocalChanges()
        let push = repository.run(["push", "-q", remote, "HEAD:refs/heads/\(name)"])
        guard push.status == 0 else {
            throw CommandFailure(
                .failure, "git push to \(remote) \(name) failed: \(push.firstErrorLine); your change is committed here",
                hint: "fix what git says, or pick another branch name, and run 'vault sync --branch NAME' again (it never force-pushes)")
        }
        invocation.report(
            "pushed \(quoted(relative)) to \(remote)/\(name) for an owner or full member to merge: git fetch && git merge \(remote)/\(name) && vault sync",
            json: .object([("remote", .string(remote)), ("branch", .string(name)), ("merged", .bool(false)), ("pushed", .bool(true))]),
            asJSON: arguments.json)
    }
}
