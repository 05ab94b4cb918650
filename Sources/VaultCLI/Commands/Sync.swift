#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault sync [--setup]`: the vault file shared through git — committed alone, fetched, merged
/// record by record against the merge base, pushed (never forced); or a merge git stopped, finished.
enum SyncCommand {
    /// How often a push refused because the remote moved on is fetched, merged and tried again.
    static let pushAttempts = 3

    static func run(_ arguments: SyncArguments, _ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let path = access.location.path
        guard try access.location.exists else { throw VaultError.noSuchVault(path: path) }
        let repository = try GitRepository.containing(path, environment: invocation.environment)
        let relative = try repository.relativePath(of: path)
        // What a merge driver killed mid-write (a killed sync's) left beside git's copy of the file.
        GitWorkTree.removeAbandonedMergeDriverTemporaries(in: repository.top)
        if arguments.setup {
            try setup(repository, relative: relative, json: arguments.json, invocation)
            return
        }
        if lacksDiffDriver(repository) {
            invocation.terminal.say("hint: run 'vault sync --setup' once in this clone, so git diff and git log -p name the items")
        }
        let sync = SyncRun(
            arguments: arguments, invocation: invocation, access: access, vault: try access.vault(), repository: repository,
            relative: relative)
        // An operation git stopped is finished first (or, when it cannot be, abandoned); once it is
        // committed, the sync goes on and pushes it.
        if let operation = GitWorkTree.unfinishedOperation(access.location.directory), operation != .merge {
            try sync.finishOrAbandon(operation)
        } else {
            guard try sync.finishOrAbandonStoppedMerge() != .leftToFinish else { return }
        }
        if let branch = arguments.branch {
            try sync.pushToBranch(branch)
        } else {
            try sync.run()
        }
    }
}

/// `vault sync`'s options.
struct SyncArguments: CommandArguments {
    static let setup = OptionSpec(
        "setup",
        help:
            "commit '*.vault merge=vault diff=vault -text' to .gitattributes and set the merge and diff drivers in this clone's git config, then stop"
    )
    static let remote = OptionSpec(
        "remote", value: "REMOTE", help: "the remote to fetch from and push to", default: "the branch's, else origin")
    static let branch = OptionSpec(
        "branch", value: "NAME",
        help: "commit and push to the remote's branch NAME instead of merging, for an owner to merge (a scoped writer's way)")

    static let options: [OptionSpec] = [
        setup,
        remote,
        branch,
        KDFCost.option,
        OptionSpec(SharedOptions.yes.name, short: "y", help: "confirm what a re-key made by the merge drops, without asking"),
        JSONArguments.resultJSON
    ]

    /// --setup: configure this clone instead of syncing.
    var setup: Bool
    /// --remote: the remote to sync with.
    var remote: String?
    /// --branch: the remote branch to push to, merging nothing.
    var branch: String?
    /// --kdf-cost: the scrypt cost of the passphrase keyslot a merge's re-key makes.
    var kdf: Scrypt.Parameters
    /// --yes: drop what a merge's re-key cannot carry over without asking.
    var yes: Bool
    var json: Bool

    init(_ options: OptionReader) throws {
        setup = options.flag(SyncArguments.setup)
        remote = options.value(SyncArguments.remote)
        branch = options.value(SyncArguments.branch)
        kdf = try KDFCost.parse(options.value(KDFCost.option))
        yes = options.flag(SharedOptions.yes)
        json = options.flag(JSONArguments.json)
    }

    func validate() throws {
        if setup, branch != nil {
            throw UsageError(
                "--setup and --branch do not go together", hint: "run 'vault sync --setup' first, then 'vault sync --branch NAME'")
        }
    }
}

/// One `vault sync` run.
struct SyncRun {
    let arguments: SyncArguments
    let invocation: Invocation
    let access: VaultAccess
    /// One vault for the whole run, so a passphrase asked for is asked once.
    let vault: Vault
    let repository: GitRepository
    let relative: String

    /// What became of a merge git had stopped.
    enum StoppedMerge {
        /// There was none.
        case none
        /// The vault file was merged and the merge committed.
        case committed
        /// The vault file was merged and added; the user finishes the rest (a rebase, other files in conflict).
        case leftToFinish
    }

    /// A merge git left unfinished on the vault file (a `git pull` without the driver, a killed
    /// driver, an earlier sync that failed): fetched first, then finished from git's stages in one
    /// write. When it cannot be finished for a reason the caller cannot fix by unlocking or
    /// confirming (its other side no longer opens with these keys, say: a stale merge from before
    /// this member was added back), git's merge is aborted — the clone as it was before it — and
    /// said in one line, so the sync starts afresh instead of retrying a stale merge forever.
    func finishOrAbandonStoppedMerge() throws -> StoppedMerge {
        guard !(try repository.output(["ls-files", "-u", "--", relative])).isEmpty else { return try commitMergedButUncommitted() }
        if let branch = currentBranch { _ = repository.run(["fetch", "-q", remote(of: branch)]) }
        do {
            return try finishStoppedMerge()
        } catch let error as VaultError where !SyncRun.isTheCallersToFix(error) {
            guard GitRepository.exists(try repository.gitPath("MERGE_HEAD")) else { throw error }
            try repository.output(["merge", "--abort"])
            invocation.terminal.diagnostics.warning(
                "cannot finish git's unfinished merge of \(quoted(relative)) (\(ErrorReport(error).message)); "
                    + "aborted it: the clone is as it was before that merge")
            return .none
        }
    }

    /// A merge whose vault file git (or an earlier sync) merged but nobody committed — a sync killed
    /// between the two — with nothing left in conflict: committed now, once its vault file holds both
    /// sides' team logs. Other files in conflict are the user's to resolve first.
    private func commitMergedButUncommitted() throws -> StoppedMerge {
        guard GitRepository.exists(try repository.gitPath("MERGE_HEAD")),
            (try repository.output(["diff", "--name-only", "--diff-filter=U"])).isEmpty,
            let merged = repository.blob(":\(relative)")
        else { return .none }
        let sides = ["HEAD", "MERGE_HEAD"].compactMap { repository.blob("\($0):\(relative)") }
        guard Vault.teamLogHolds(merged, logsOf: sides) else {
            throw VaultError.teamLogDropped(path: access.location.path, beforeChanging: false)
        }
        try repository.output(["commit", "-q", "--no-edit"])
        invocation.terminal.say("committed the merge of \(quoted(relative)) that git had left uncommitted")
        return .committed
    }

    /// Errors the caller fixes by unlocking, confirming or asking the owner: a merge that stopped on
    /// one of these is left as it is, to finish once fixed.
    static func isTheCallersToFix(_ error: VaultError) -> Bool {
        switch error {
        case .unlock(.locked), .unlock(.sessionEnded), .unlock(.rekeyNeedsSecret), .team(.teamLogReviewNeeded), .unlock(.wrongCredential):
            return true
        default: return false
        }
    }

    /// The branch HEAD is on; nil when detached.
    var currentBranch: String? {
        let onBranch = repository.run(["symbolic-ref", "-q", "--short", "HEAD"])
        return onBranch.status == 0 && !onBranch.text.isEmpty ? onBranch.text : nil
    }

    /// The remote `branch` syncs with: `--remote`, else its upstream's, else origin.
    func remote(of branch: String) -> String {
        arguments.remote ?? configured("branch.\(branch).remote") ?? "origin"
    }

    /// A merge git stopped with the vault file in conflict (a `git pull` without the driver, or
    /// the driver without keys): merged from the index stages, added, and committed when nothing
    /// else is left in conflict.
    func finishStoppedMerge() throws -> StoppedMerge {
        guard !(try repository.output(["ls-files", "-u", "--", relative])).isEmpty else { return .none }
        try mergeStagesAndAdd(origins: (ours: repository.describe("HEAD"), theirs: repository.describe("MERGE_HEAD")))
        guard (try repository.output(["diff", "--name-only", "--diff-filter=U"])).isEmpty else {
            invocation.terminal.say(
                "merged \(quoted(relative)) and added it; other files are still in conflict: resolve them, commit, then 'vault sync'")
            return .leftToFinish
        }
        try repository.output(["commit", "-q", "--no-edit"])
        invocation.terminal.say("committed the merge of \(quoted(relative))")
        return .committed
    }

    /// The vault file git holds in conflict, merged from the index stages `:1:`, `:2:`, `:3:` in one
    /// write (the stage git holds, which the work-tree file may not be), said, and `git add`ed.
    func mergeStagesAndAdd(origins: (ours: String, theirs: String)) throws {
        guard let ours = repository.blob(":2:\(relative)"), let theirs = repository.blob(":3:\(relative)") else {
            throw CommandFailure(
                .failure, "git's conflict on \(quoted(relative)) lacks a side (deleted on one): there is nothing to merge record by record",
                hint: "keep one side with 'git checkout --ours' or '--theirs' and 'git add', or 'git rm' it")
        }
        let report = try merge(base: repository.blob(":1:\(relative)"), ours: ours, theirs: theirs, origins: origins)
        try repository.output(["add", "--", relative])
        say(report, from: origins.theirs)
    }

    /// Fetches, then commits the vault file — merged into the remote's file first when the remote's
    /// team log has entries this clone lacks — then merges and pushes until the push goes through.
    func run() throws {
        guard let branch = currentBranch else {
            throw CommandFailure(
                .failure, "the work tree of \(quoted(relative)) is on no branch (a detached HEAD); nothing was committed",
                hint: "switch to the branch to share ('git switch main') and run 'vault sync' again")
        }
        let remote = remote(of: branch)
        let remoteBranch =
            configured("branch.\(branch).merge").map { $0.hasPrefix("refs/heads/") ? String($0.dropFirst(11)) : $0 } ?? branch
        let tracking = "refs/remotes/\(remote)/\(remoteBranch)"
        // Fetched before anything is committed: a change sealed before the remote's re-key is known
        // would be a commit under keys the team retired. Offline, the change is committed here only:
        // the next sync takes it out of that commit if the remote re-keyed meanwhile.
        let fetch = repository.run(["fetch", "-q", remote])
        guard fetch.status == 0 else {
            try commitLocalChanges()
            throw CommandFailure(
                .failure, "git fetch -q \(remote) failed: \(fetch.firstErrorLine); your changes are committed here, nothing was pushed",
                hint: "run 'vault sync' again once \(remote) can be reached (it merges them into what the remote has then)")
        }
        let shown = "\(remote)/\(remoteBranch)"
        var merged = false
        var repaired: HistoryBreak?
        // A HEAD the remote's branch contains is checked as part of it (a head the owner repaired
        // holds what HEAD dropped, and the fast-forward onto it is the way out).
        if !repository.succeeds(["merge-base", "--is-ancestor", "HEAD", tracking]) {
            repaired = try requireHeadHoldsOrRepair(tracking, named: shown)
        }
        for attempt in 1...SyncCommand.pushAttempts {
            if attempt > 1 { try repository.output(["fetch", "-q", remote]) }
            try requireKeysThatMerge(ifNeededFor: tracking, named: shown)
            let broken = try remoteNeedingRepair(tracking, named: shown)
            if broken == nil, try sendChangesOnTopOfRemote(tracking, named: shown) { merged = true }
            try commitLocalChanges()
            if let broken {
                try repair(tracking, named: shown, broken)
                repaired = broken
            } else if repository.succeeds(["rev-parse", "-q", "--verify", tracking]),
                !repository.succeeds(["merge-base", "--is-ancestor", tracking, "HEAD"])
            {
                if try mergeRemote(tracking) { merged = true }
            }
            try requireHeadHoldsBeforePush(tracking, named: shown)
            let push = repository.run(["push", "-q", remote, "HEAD:refs/heads/\(remoteBranch)"])
            if push.status == 0 {
                if let head = try? repository.output(["rev-parse", "HEAD"]) { vault.recordCheckedCommit(head) }
                let done = repaired != nil ? ", repaired" : merged ? ", merged" : ""
                invocation.report(
                    "synced \(quoted(relative)) with \(shown)\(done), pushed",
                    json: .object([
                        ("remote", .string(remote)), ("branch", .string(remoteBranch)), ("merged", .bool(merged)),
                        ("repaired", .bool(repaired != nil)), ("pushed", .bool(true))
                    ]), asJSON: arguments.json)
                return
            }
            // Only a remote that moved on is worth another round (seen by fetching it again, not by
            // reading git's words); anything else is git's to explain.
            guard attempt < SyncCommand.pushAttempts, remoteMovedOn(remote, tracking: tracking) else {
                throw CommandFailure(
                    .failure,
                    "git push to \(remote) failed: \(push.firstErrorLine); \(merged ? "the merge is" : "your changes are") committed here",
                    hint: "fix what git says and run 'vault sync' again (it never force-pushes)")
            }
        }
    }

    /// Whether the remote branch now holds commits this branch lacks (a push lost a race to it).
    private func remoteMovedOn(_ remote: String, tracking: String) -> Bool {
        repository.succeeds(["fetch", "-q", remote])
            && repository.succeeds(["rev-parse", "-q", "--verify", tracking])
            && !repository.succeeds(["merge-base", "--is-ancestor", tracking, "HEAD"])
    }

    /// Commits the vault file alone when it differs from HEAD (other changes stay as they are).
    func commitLocalChanges() throws {
        guard !(try repository.output(["status", "--porcelain", "--", relative])).isEmpty else { return }
        let message = SyncCommitMessage.subject(vault: vault, relative: relative, repository: repository, invocation: invocation)
        try repository.output(["add", "--", relative])
        try repository.output(["commit", "-q", "-m", message, "--", relative])
    }

    /// The remote's branch merged into HEAD: fast-forward when HEAD is behind, else a merge commit
    /// whose vault file is merged record by record (by the driver, or here from the stages).
    /// Returns whether it merged (false: a fast-forward, which merges nothing).
    private func mergeRemote(_ tracking: String) throws -> Bool {
        if repository.succeeds(["merge-base", "--is-ancestor", "HEAD", tracking]) {
            try repository.output(["merge", "-q", "--ff-only", tracking])
            return false
        }
        // The keys first: a merge git starts and vault then cannot finish would be left half done.
        try vault.requireKeysThatMerge()
        let merge = repository.run(["merge", "-q", "--no-ff", "--no-commit", "--no-edit", tracking])
        // The driver said what its merge did on git's stderr, which the git runner keeps: said here again.
        // Not its hint to run 'vault sync', which is running.
        for line in merge.stderr.split(separator: 0x0A)
        where line.starts(with: Array("vault: ".utf8)) && !line.starts(with: Array("vault: hint: ".utf8)) {
            invocation.terminal.writeErr(String(decoding: line, as: UTF8.self) + "\n")
        }
        if merge.status != 0 {
            switch try finishStoppedMerge() {
            case .committed:
                return true
            case .leftToFinish:
                throw CommandFailure(
                    .failure, "other files than the vault are in conflict after merging \(tracking); nothing was pushed",
                    hint: "resolve them, commit, and run 'vault sync' again")
            case .none:
                let others = try repository.output(["diff", "--name-only", "--diff-filter=U"])
                guard others.isEmpty else {
                    throw CommandFailure(
                        .failure,
                        "other files than the vault are in conflict after merging \(tracking) (\(others.split(separator: "\n").joined(separator: ", "))); nothing was pushed",
                        hint: "resolve them, commit, and run 'vault sync' again")
                }
                let firstLine =
                    merge.stderr.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
                    .first { !$0.hasPrefix("vault:") } ?? "exit status \(merge.status)"
                throw CommandFailure(
                    .failure, "git merge \(tracking) failed: \(firstLine)",
                    hint: "resolve what git says (or 'git merge --abort') and run 'vault sync' again")
            }
        }
        if GitRepository.exists(try repository.gitPath("MERGE_HEAD")) {
            try repository.output(["commit", "-q", "--no-edit"])
        }
        return true
    }

    /// Merges `theirs` into `ours` (the stage git holds, which the work tree file may not) at the vault's path.
    func merge(base: [UInt8]?, ours: [UInt8], theirs: [UInt8], origins: (ours: String, theirs: String)) throws -> MergeReport {
        try vault.merge(base: base, ours: ours, theirs: theirs, origins: origins, kdf: arguments.kdf) { plan in
            try RekeyCommand.confirm(plan, confirmed: arguments.yes, invocation, access: access)
        }
    }

    func configured(_ key: String) -> String? {
        let value = repository.run(["config", "--get", key])
        return value.status == 0 && !value.text.isEmpty ? value.text : nil
    }

    func say(_ report: MergeReport, from origin: String) {
        MergeReportText.say(report, merging: origin, terminal: invocation.terminal)
    }
}

/// What a merge did, said on stderr, one line each: by `vault sync` and the merge driver.
enum MergeReportText {
    static func say(_ report: MergeReport, merging origin: String, terminal: Terminal) {
        terminal.say("merged \(origin): took \(counted(report.applied, "change")) record by record")
        if report.joinedLogs { terminal.say("joined the two branches of the team log (key epoch \(report.keyEpoch))") }
        for name in report.membersAdded { terminal.say("the member \(quoted(name)) was added") }
        for name in report.membersRemoved { terminal.say("the member \(quoted(name)) was removed; what it could open is under new keys") }
        for name in report.membersLeftOut {
            terminal.diagnostics.warning(
                "the member \(quoted(name)) was changed differently on the two branches of the team log and is left out: add it again with 'vault member add'"
            )
        }
        if report.rekeyed { terminal.say("the vault is under new keys (key epoch \(report.keyEpoch))") }
        for group in report.groupsRevoked { terminal.say("the group \(quoted(group.name)) has a new key (revoked)") }
        for key in report.droppedConflictVersions {
            terminal.say(
                "the conflict of service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name)) lost its other version: its group was deleted"
            )
        }
        if !report.conflicts.isEmpty {
            terminal.diagnostics.warning(
                "\(counted(report.conflicts.count, "item")) in conflict, both versions kept: see 'vault conflicts', then 'vault resolve'")
        }
    }
}

/// The owner shown the team log entries a write is about to sign that it did not make here.
extension TeamLogReviewText {
    static func ask(_ review: TeamLogReview, terminal: Terminal, promptsOff: Bool) throws {
        guard !promptsOff else { throw VaultError.teamLogReviewNeeded(review) }
        terminal.writeErr(heading(review) + "\n")
        for line in lines(review) { terminal.writeErr("  \(line)\n") }
        guard let answer = try terminal.readLine(prompt: "Sign these into the team log? [y/N] ") else {
            throw VaultError.teamLogReviewNeeded(review)
        }
        guard ["y", "yes"].contains(answer.lowercased()) else { throw CommandFailure(.failure, "not signed; nothing was changed") }
    }
}
