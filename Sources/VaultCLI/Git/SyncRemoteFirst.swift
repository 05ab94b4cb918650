#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault sync`'s first step after fetching (docs/TEAMS.md, "What vault sync does"): when the
/// remote's team log has entries this clone lacks — a removal, a re-key — the clone's changes of
/// the vault file are merged into the remote's file before anything is committed, and the vault
/// files its commits not yet pushed sealed under the keys before are taken out of those commits,
/// so nothing the clone sealed under keys the team has retired is pushed.
extension SyncRun {
    /// Merges the vault file as the work tree holds it into `tracking`'s file in one write when that
    /// file's team log has entries the work tree's lacks. With HEAD behind the remote's branch the
    /// result is committed on top of it; else the commits not yet pushed whose vault file lacks those
    /// entries (and is not the merge base's) are rewritten without their change of the vault file
    /// (a commit left empty is dropped; git's reflog keeps the old ones), and the usual commit and
    /// merge follow. Returns whether it merged or rewrote anything.
    func sendChangesOnTopOfRemote(_ tracking: String, named shown: String) throws -> Bool {
        guard repository.succeeds(["rev-parse", "-q", "--verify", tracking]),
            let remoteFile = repository.blob("\(tracking):\(relative)")
        else { return false }
        let mergeBase = try? repository.output(["merge-base", "HEAD", tracking])
        let baseBlob = mergeBase.flatMap { try? repository.output(["rev-parse", "-q", "--verify", "\($0):\(relative)"]) }
        let base = baseBlob.flatMap { repository.blob($0) }
        let workTreeFile = try PlainFile.read(access.location.path)
        let stale = try staleCommits(since: tracking, remoteFile: remoteFile, baseBlob: baseBlob)
        let mergesWorkTree = workTreeFile != base && !Vault.teamLogHolds(workTreeFile, logsOf: [remoteFile])
        guard mergesWorkTree || !stale.isEmpty else { return false }

        if mergesWorkTree {
            let origins = (ours: "your changes not yet pushed", theirs: repository.describe(tracking))
            let report = try merge(base: base, ours: workTreeFile, theirs: remoteFile, origins: origins)
            say(report, from: origins.theirs)
        }
        invocation.terminal.say(
            "the team log of \(shown) has entries this clone lacked: merged your changes into its file before committing, so nothing sealed under keys the team retired is pushed"
        )
        if repository.succeeds(["merge-base", "--is-ancestor", "HEAD", tracking]) {
            try commitOnTop(of: tracking, named: shown)
            return true
        }
        if !stale.isEmpty {
            let head = try rewrite(since: tracking, without: Set(stale))
            try repository.output(["add", "--", relative])
            try repository.output(["reset", "-q", "--soft", head])
            invocation.terminal.say(
                "took the changes of \(quoted(relative)) out of your \(counted(stale.count, "commit")) not yet pushed (they are in the merged file; 'git reflog' keeps the old commits here)"
            )
        }
        return true
    }

    /// Refuses, before anything is committed, a sync that needs a merge (the remote moved on and
    /// this clone has changes of its own) with keys that cannot merge: a scoped member's or
    /// credential's (30), which opens only its groups. Its change stays in the work tree, and the
    /// hint says how it reaches the remote: on a branch of its own, which the owner merges.
    func requireKeysThatMerge(ifNeededFor tracking: String, named shown: String) throws {
        guard repository.succeeds(["rev-parse", "-q", "--verify", tracking]),
            !repository.succeeds(["merge-base", "--is-ancestor", tracking, "HEAD"])
        else { return }
        let changedHere = !(try repository.output(["status", "--porcelain", "--", relative])).isEmpty
        guard changedHere || !repository.succeeds(["merge-base", "--is-ancestor", "HEAD", tracking]) else { return }
        do {
            try vault.requireKeysThatMerge()
        } catch let error as VaultError where error.status == .missingEntitlement {
            throw CommandFailure(
                .missingEntitlement,
                "\(ErrorReport(error).message), and \(shown) has changes this clone lacks: sync cannot merge them here; nothing was committed",
                hint:
                    "push your change to a branch the owner merges: git commit -m MESSAGE -- \(relative) && git push origin HEAD:refs/heads/NAME"
            )
        }
    }

    /// The commits of HEAD on no remote branch this clone knows (those are published already) whose
    /// vault file lacks the remote's team log entries and is not the merge base's (`baseBlob`): what
    /// they would push sealed under retired keys.
    private func staleCommits(since tracking: String, remoteFile: [UInt8], baseBlob: String?) throws -> [String] {
        try repository.output(["rev-list", "HEAD", "--not", tracking, "--remotes", "--", relative]).split(separator: "\n").map(String.init)
            .filter { commit in
                guard let blob = try? repository.output(["rev-parse", "-q", "--verify", "\(commit):\(relative)"]), blob != baseBlob,
                    let file = repository.blob(blob)
                else { return false }
                return !Vault.teamLogHolds(file, logsOf: [remoteFile])
            }
    }

    /// HEAD's commits on no remote branch, made again oldest first on their rewritten parents, each
    /// of `stale` with the vault file of its first parent (as rewritten) instead of its own, and
    /// with its author, committer and message; a non-merge commit left with its parent's tree is
    /// dropped. Returns the new head.
    private func rewrite(since tracking: String, without stale: Set<String>) throws -> String {
        var rewritten: [String: String] = [:]
        var head = try repository.output(["rev-parse", "HEAD"])
        for line in try repository.output(["rev-list", "--topo-order", "--reverse", "--parents", "HEAD", "--not", tracking, "--remotes"])
            .split(separator: "\n")
        {
            let ids = line.split(separator: " ").map(String.init)
            let (commit, parents) = (ids[0], ids.dropFirst().map { rewritten[$0] ?? $0 })
            guard stale.contains(commit) || parents != Array(ids.dropFirst()) else {
                rewritten[commit] = commit
                head = commit
                continue
            }
            let tree =
                stale.contains(commit)
                ? try tree(of: commit, withVaultFileOf: parents.first)
                : try repository.output(["rev-parse", "\(commit)^{tree}"])
            if parents.count == 1, let parent = parents.first, tree == (try repository.output(["rev-parse", "\(parent)^{tree}"])) {
                rewritten[commit] = parent
                head = parent
                continue
            }
            rewritten[commit] = try recommit(commit, tree: tree, parents: parents)
            head = rewritten[commit] ?? head
        }
        return head
    }

    /// `commit`'s tree with the vault file as `parent` has it (none when `parent` has none).
    private func tree(of commit: String, withVaultFileOf parent: String?) throws -> String {
        try withScratchIndex { scratch in
            try scratch.output(["read-tree", commit])
            if let parent, let blob = try? repository.output(["rev-parse", "-q", "--verify", "\(parent):\(relative)"]) {
                try scratch.output(["update-index", "--add", "--cacheinfo", "100644,\(blob),\(relative)"])
            } else {
                try scratch.output(["update-index", "--force-remove", "--", relative])
            }
            return try scratch.output(["write-tree"])
        }
    }

    /// A new commit of `tree` on `parents`, with the author, committer and message of `commit`.
    private func recommit(_ commit: String, tree: String, parents: [String]) throws -> String {
        let fields = try repository.output(["log", "-1", "--format=%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI", commit]).split(
            separator: "\0", omittingEmptySubsequences: false
        ).map(String.init)
        let message = try repository.output(["log", "-1", "--format=%B", commit])
        var environment = repository.environment
        for (name, value) in zip(
            ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE"],
            fields)
        {
            environment[name] = value
        }
        let author = GitRepository(top: repository.top, environment: environment)
        return try author.output(["commit-tree", tree, "-m", message] + parents.flatMap { ["-p", $0] })
    }

    /// The vault file as the work tree holds it, committed alone on top of `tracking`, the branch
    /// moved there (`git reset --keep`: other files follow the remote's where unchanged here).
    private func commitOnTop(of tracking: String, named shown: String) throws {
        let message = SyncCommitMessage.subject(
            vault: vault, relative: relative, repository: repository, invocation: invocation, parent: tracking)
        let commit = try withScratchIndex { scratch in
            try scratch.output(["read-tree", tracking])
            try scratch.output(["add", "--", relative])
            return try repository.output(["commit-tree", try scratch.output(["write-tree"]), "-p", tracking, "-m", message])
        }
        try repository.output(["add", "--", relative])
        let moved = repository.run(["reset", "-q", "--keep", commit])
        guard moved.status == 0 else {
            throw CommandFailure(
                .failure,
                "cannot move the branch onto \(shown): \(moved.firstErrorLine); \(quoted(relative)) holds the merged result, nothing was committed",
                hint: "commit or stash your changes of the other files \(shown) changed too, and run 'vault sync' again")
        }
    }

    /// Runs `body` with git working on an index of its own (git's index and work tree left as they are).
    private func withScratchIndex<R>(_ body: (GitRepository) throws -> R) throws -> R {
        let indexPath = try repository.gitPath("vault-sync-index")
        var environment = repository.environment
        environment[.gitIndexFile] = indexPath
        defer { unlink(indexPath) }
        return try body(GitRepository(top: repository.top, environment: environment))
    }
}
