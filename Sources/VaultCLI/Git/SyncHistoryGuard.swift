import VaultCore

/// `vault sync` and the team log's descent (docs/TEAMS.md, "Every head checked"): no head whose
/// vault file drops team log entries of a commit before it is written on or pushed; the owner's
/// sync repairs a remote branch that did.
extension SyncRun {
    /// Refuses `head` when its vault file drops team log entries of a commit since the one this
    /// machine last checked (49, `historyDropsTeamLog`).
    func requireHistoryHolds(_ head: String, finding: HistoryBreak.Finding) throws {
        try history.requireHeadHolds(
            head, path: relative, shown: access.location.path, since: vault.lastCheckedCommit().map { [$0] } ?? [], finding: finding)
    }

    /// HEAD checked before the push (49 when it drops team log entries); a break the remote's branch
    /// holds already (a fresh clone of it, a fast-forward onto it) is the remote's, which only the
    /// owner's sync repairs, so a member is told so rather than to drop the commit here.
    func requireHeadHoldsBeforePush(_ tracking: String, named shown: String) throws {
        do {
            try requireHistoryHolds("HEAD", finding: .beforeSyncing)
        } catch VaultError.team(.historyDropsTeamLog(let found)) {
            guard repository.succeeds(["merge-base", "--is-ancestor", found.commit, tracking]), try !vault.keysAreTheOwners() else {
                throw VaultError.historyDropsTeamLog(found)
            }
            throw VaultError.historyDropsTeamLog(HistoryBreak(path: found.path, commit: found.commit, finding: .onRemote(remote: shown)))
        }
    }

    /// HEAD checked before the sync builds on it (49 when it drops team log entries), except on the
    /// owner's machine when every commit that dropped them is on the remote's branch already (a pull
    /// onto a rolled-back head): there the files they dropped are merged into the vault file and
    /// committed on HEAD, the repair this sync then pushes. Returns the break it repaired.
    func requireHeadHoldsOrRepair(_ tracking: String, named shown: String) throws -> HistoryBreak? {
        do {
            try requireHistoryHolds("HEAD", finding: .beforeSyncing)
            return nil
        } catch VaultError.team(.historyDropsTeamLog(let found)) {
            let dropped = try history.droppedFiles("HEAD", path: relative, since: vault.lastCheckedCommit().map { [$0] } ?? [])
            guard !dropped.isEmpty, dropped.allSatisfy({ repository.succeeds(["merge-base", "--is-ancestor", $0.commit, tracking]) }),
                try vault.keysAreTheOwners()
            else { throw VaultError.historyDropsTeamLog(found) }
            try repository.output(["add", "--", relative])
            try mergeIn(dropped, ours: repository.describe("HEAD"))
            try repository.output([
                "commit", "-q", "-m", "vault sync: repair of \(shown)'s commit \(found.commit), which dropped team log entries", "--",
                relative
            ])
            invocation.terminal.say("repaired \(shown): its commit \(found.commit) dropped team log entries; this commit keeps every entry")
            return found
        }
    }

    /// The files commits dropped, merged into the vault file `git add`ed (the index's) where it does
    /// not hold their logs yet (no merge base: the dropped side may be older than any), each added.
    private func mergeIn(_ dropped: [(commit: String, file: [UInt8])], ours: String) throws {
        for dropped in dropped {
            guard let merged = repository.blob(":\(relative)"), !Vault.teamLogHolds(merged, logsOf: [dropped.file]) else { continue }
            let droppedOrigin = "what \(history.abbreviated(dropped.commit)) dropped"
            say(try merge(base: nil, ours: merged, theirs: dropped.file, origins: (ours: ours, theirs: droppedOrigin)), from: droppedOrigin)
            try repository.output(["add", "--", relative])
        }
    }

    /// When the remote's branch (not yet in HEAD) drops team log entries of a commit before it: the
    /// commit that did, for the owner to repair; for anyone else, the refusal naming the owner.
    /// Nil when the remote's branch keeps every entry, or is already in HEAD (checked with it).
    func remoteNeedingRepair(_ tracking: String, named shown: String) throws -> HistoryBreak? {
        guard repository.succeeds(["rev-parse", "-q", "--verify", tracking]),
            !repository.succeeds(["merge-base", "--is-ancestor", tracking, "HEAD"])
        else { return nil }
        do {
            try history.requireHeadHolds(
                tracking, path: relative, shown: access.location.path, since: checkedBeforeRemote, finding: .onRemote(remote: shown))
            return nil
        } catch VaultError.team(.historyDropsTeamLog(let found)) {
            guard try vault.keysAreTheOwners() else { throw VaultError.historyDropsTeamLog(found) }
            return found
        }
    }

    /// Where the remote's branch is checked from: the commit last checked here, or HEAD when that is
    /// older or unrelated.
    private var checkedBeforeRemote: [String] { [vault.lastCheckedCommit(), "HEAD"].compactMap { $0 } }

    /// The owner's repair of a remote branch whose head dropped team log entries: a merge commit of
    /// it whose vault file has every entry either side had — this clone's log, which holds them,
    /// wins; the other side's items come in as conflicts where they differ (no merge base: the
    /// remote's file may be older than any base) — instead of a fast-forward onto the dropped log.
    /// The files the remote's commits dropped are merged in too: a `git merge -s ours` of this
    /// clone's own commit leaves the remote's head equal to HEAD, its dropped side only in a parent.
    func repair(_ tracking: String, named shown: String, _ broken: HistoryBreak) throws {
        guard let ours = repository.blob("HEAD:\(relative)"), let theirs = repository.blob("\(tracking):\(relative)") else { return }
        let origins = (ours: repository.describe("HEAD"), theirs: repository.describe(tracking))
        let started = repository.run(["merge", "-q", "--no-ff", "--no-commit", "--no-edit", tracking])
        let others = try repository.output(["diff", "--name-only", "--diff-filter=U"]).split(separator: "\n").filter { $0 != relative }
        guard others.isEmpty, GitRepository.exists(try repository.gitPath("MERGE_HEAD")) else {
            throw CommandFailure(
                .failure,
                "git merge \(tracking) failed: \(others.isEmpty ? started.firstErrorLine : "other files in conflict (\(others.joined(separator: ", ")))"); nothing was pushed",
                hint: "resolve what git says (or 'git merge --abort') and run 'vault sync' again")
        }
        let report = try merge(base: nil, ours: ours, theirs: theirs, origins: origins)
        say(report, from: origins.theirs)
        try repository.output(["add", "--", relative])
        try mergeIn(try history.droppedFiles(tracking, path: relative, since: checkedBeforeRemote), ours: origins.ours)
        try repository.output(["commit", "-q", "--no-edit"])
        invocation.terminal.say(
            "repaired \(shown): its commit \(broken.commit) dropped team log entries; the merge keeps every entry of both sides")
    }

    private var history: TeamLogHistory { TeamLogHistory(repository: repository, paths: [relative]) }
}
