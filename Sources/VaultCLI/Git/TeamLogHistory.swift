import VaultCore

/// The team log's descent through the git history of vault files, read from the logs' clear parts,
/// so no key is needed: `vault check-history` and its hook, `vault sync`, and the check before a
/// change (docs/TEAMS.md, "Every head checked").
struct TeamLogHistory {
    let repository: GitRepository
    /// The vault files' paths in the repository; empty: every file whose name ends in `.vault`.
    let paths: [String]

    /// One commit's change of a vault file against one of its parents (blobs by id).
    struct Step {
        let commit: String
        let path: String
        let before: String
        let after: String
    }

    /// The changes of the vault files made by the commits `revisions` selects (`git rev-list`'s
    /// arguments), oldest first, each against each parent: a merge's against both, so a merge that
    /// kept one side whole (`-s ours`) is listed with the side it dropped. Neither added nor deleted
    /// files are listed: a file that appears or goes drops no entry of itself.
    func steps(_ revisions: [String]) throws -> [Step] {
        let pathspecs = paths.isEmpty ? [":(top,glob)**/*.vault"] : paths.map { ":(top,literal)" + $0 }
        let output = try repository.output(RawFileChange.logArguments + revisions + ["--"] + pathspecs)
        return RawFileChange.parse(output).filter { $0.status == "M" }.map {
            Step(commit: $0.commit, path: $0.path, before: $0.before, after: $0.after)
        }
    }

    /// The first of `steps` whose file's team log drops entries of the file before it.
    func firstBreak(in steps: [Step]) -> Step? {
        var blobs = BlobReader(repository: repository)
        return steps.first { step in
            guard let before = blobs[step.before], let after = blobs[step.after] else { return false }
            return !Vault.teamLogHolds(after, logsOf: [before])
        }
    }

    /// Refuses `head` (a commit or ref) when its file at `path` drops team log entries of a file of
    /// `steps` (the commits since the one last checked, against their parents): `historyDropsTeamLog`
    /// naming the first commit of them that dropped some (or `head`). A head that repaired an earlier
    /// drop (the owner's merge holding every entry) passes.
    func requireHolds(_ head: String, path: String, shown: String, steps: [Step], finding: HistoryBreak.Finding) throws {
        guard !steps.isEmpty, let file = repository.blob("\(head):\(path)") else { return }
        var blobs = BlobReader(repository: repository)
        // A file of another vault is no earlier version of this one: the merge refuses it (93), not this check.
        let earlier = Set(steps.filter { $0.path == path }.flatMap { [$0.before, $0.after] }).compactMap { blobs[$0] }
            .filter { Vault.areVersionsOfOneVault($0, file) }
        guard !Vault.teamLogHolds(file, logsOf: earlier) else { return }
        let culprit = try firstBreak(in: steps.filter { $0.path == path })?.commit ?? repository.output(["rev-parse", head])
        throw VaultError.historyDropsTeamLog(HistoryBreak(path: shown, commit: abbreviated(culprit), finding: finding))
    }

    /// Refuses `head` when its file at `path` drops team log entries of a commit since those of
    /// `checked` (commits this repository no longer has are left out; none: its whole history), as
    /// `requireHolds` does.
    func requireHeadHolds(_ head: String, path: String, shown: String, since checked: [String], finding: HistoryBreak.Finding) throws {
        try requireHolds(head, path: path, shown: shown, steps: try steps(head, since: checked), finding: finding)
    }

    /// The files at `path` that commits of `head` since those of `checked` dropped team log entries
    /// of (each with the commit that dropped them), oldest first.
    func droppedFiles(_ head: String, path: String, since checked: [String]) throws -> [(commit: String, file: [UInt8])] {
        var blobs = BlobReader(repository: repository)
        return try steps(head, since: checked).filter { $0.path == path }.compactMap { step in
            guard let before = blobs[step.before], let after = blobs[step.after],
                Vault.areVersionsOfOneVault(before, after), !Vault.teamLogHolds(after, logsOf: [before])
            else { return nil }
            return (step.commit, before)
        }
    }

    /// The steps of `head` since the commits of `checked` (those this repository no longer has are
    /// left out; none: its whole history).
    private func steps(_ head: String, since checked: [String]) throws -> [Step] {
        let known = checked.filter { repository.succeeds(["rev-parse", "-q", "--verify", "\($0)^{commit}"]) }
        return try steps([head] + (known.isEmpty ? [] : ["--not"] + known))
    }

    /// The commit's short name (git's abbreviation).
    func abbreviated(_ commit: String) -> String {
        (try? repository.output(["rev-parse", "--short", commit])) ?? commit
    }
}

/// Blobs read once each, by id.
private struct BlobReader {
    let repository: GitRepository
    var read: [String: [UInt8]] = [:]

    subscript(id: String) -> [UInt8]? {
        mutating get {
            if let bytes = read[id] { return bytes }
            let bytes = repository.blob(id)
            read[id] = bytes
            return bytes
        }
    }
}
