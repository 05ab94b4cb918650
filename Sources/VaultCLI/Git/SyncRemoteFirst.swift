#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault sync`'s first step after fetching (docs/TEAMS.md, "What vault sync does"): when the
/// remote's team log has entries this clone lacks — a removal, a re-key — the clone's changes of
/// the vault file are merged into the remote's file before anything is committed, so nothing the
/// clone sealed under keys the team has retired is pushed, as a commit of its own or as a parent.
extension SyncRun {
    /// Merges the vault file's changes not yet on the remote (the work tree's, and those of commits
    /// not pushed) into the file of `tracking` in one write, when that file's team log has entries
    /// HEAD's or the work tree's lacks. With no commit of the vault file unpushed, the result is
    /// committed on top of the remote's branch when HEAD is behind it (or left for the usual commit
    /// when HEAD has other commits of its own); commits of the vault file alone not yet pushed are
    /// replaced by that one commit (git's reflog keeps them here). Unpushed commits that change the
    /// vault file and other files are refused with nothing changed. Returns whether it merged.
    func sendChangesOnTopOfRemote(_ tracking: String, named shown: String) throws -> Bool {
        guard repository.succeeds(["rev-parse", "-q", "--verify", tracking]),
              let remoteFile = repository.blob("\(tracking):\(relative)") else { return false }
        let headFile = repository.blob("HEAD:\(relative)")
        let workTreeFile = try PlainFile.read(access.location.path)
        guard [headFile, workTreeFile].contains(where: { $0.map { !Vault.teamLogHolds($0, logsOf: [remoteFile]) } ?? false }) else { return false }
        let unpushed = try repository.output(["rev-list", "\(tracking)..HEAD", "--", relative]).split(separator: "\n")
        guard workTreeFile != headFile || !unpushed.isEmpty else { return false }
        let base = (try? repository.output(["merge-base", "HEAD", tracking])).flatMap { repository.blob("\($0):\(relative)") }
        let behind = repository.succeeds(["merge-base", "--is-ancestor", "HEAD", tracking])
        if !unpushed.isEmpty {
            let others = try repository.output(["diff", "--name-only", "\(tracking)...HEAD"]).split(separator: "\n").filter { $0 != relative }
            guard others.isEmpty else {
                throw CommandFailure(.failure, "your commits not yet pushed change \(quoted(relative)), which \(shown) has since re-keyed or changed the members of, and other files too (\(others.joined(separator: ", "))): they are not pushed as they are; nothing was changed",
                                     hint: "move them onto \(shown) with 'git rebase \(shown)' (at each stop on \(quoted(relative)), 'vault sync', then 'git rebase --continue'), then run 'vault sync' again")
            }
        }
        let origins = (ours: "your changes not yet pushed", theirs: repository.describe(tracking))
        let report = try merge(base: base, ours: workTreeFile, theirs: remoteFile, origins: origins)
        say(report, from: origins.theirs)
        if unpushed.isEmpty && !behind {
            // HEAD's own commits leave the vault file as the remote had it: the usual commit and merge follow.
            invocation.terminal.say(Self.mergedFirstLine(shown))
            return true
        }
        try repository.output(["add", "--", relative])
        let message = SyncCommitMessage.subject(vault: vault, relative: relative, repository: repository, invocation: invocation, parent: tracking)
        let commit = try commitOfVaultFile(on: tracking, message: message)
        let moved = repository.run(["reset", "-q", "--keep", commit])
        guard moved.status == 0 else {
            throw CommandFailure(.failure, "cannot move the branch onto \(shown): \(moved.firstErrorLine); \(quoted(relative)) holds the merged result, nothing was committed",
                                 hint: "commit or stash your changes of the other files \(shown) changed too, and run 'vault sync' again")
        }
        invocation.terminal.say(Self.mergedFirstLine(shown))
        if !unpushed.isEmpty {
            invocation.terminal.say("your \(counted(unpushed.count, "commit")) of \(quoted(relative)) not yet pushed are replaced by one commit on top of \(shown) ('git reflog' keeps them here)")
        }
        return true
    }

    private static func mergedFirstLine(_ shown: String) -> String {
        "the team log of \(shown) has entries this clone lacked: merged your changes into its file before committing, so nothing sealed under keys the team retired is pushed"
    }

    /// A commit on `parent` whose tree is `parent`'s with the vault file as the work tree holds it,
    /// made through an index of its own (git's index and work tree are left as they are).
    private func commitOfVaultFile(on parent: String, message: String) throws -> String {
        let indexPath = try repository.gitPath("vault-sync-index")
        var environment = repository.environment
        environment["GIT_INDEX_FILE"] = indexPath
        let scratch = GitRepository(top: repository.top, environment: environment)
        defer { unlink(indexPath) }
        try scratch.output(["read-tree", parent])
        try scratch.output(["add", "--", relative])
        let tree = try scratch.output(["write-tree"])
        return try repository.output(["commit-tree", tree, "-p", parent, "-m", message])
    }
}
