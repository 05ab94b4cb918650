import VaultCrypto

// The first change after a merge commit (docs/TEAMS.md, "How a merge works").
extension Vault {
    /// Refuses a change to a vault file whose last commit is a merge when the file does not hold the
    /// team log of each parent's file (a merge resolved by hand — `git checkout --ours`, `git add; git
    /// commit` — could drop a removal), as `vault sync` refuses to push it: `teamLogDropped`, and
    /// nothing changes. HEAD is read from git's files on every change; `parentFiles` (which runs git)
    /// is asked only when HEAD moved since this machine last checked this vault, and returns the
    /// parents' vault files when HEAD is a merge commit, nil when it is not. A refused HEAD is checked
    /// again by every change until it is fixed.
    public func requireMergeCommitKeepsTeamLogs(parentFiles: () throws -> [[UInt8]]?) throws {
        guard let head = GitWorkTree.headCommit(of: location.directory) else { return }
        let directory = host.stateDirectory + "/merge-commits"
        let record = directory + "/" + hex(SHA256.hash(Array((FileSystem.realPath(location.path) ?? location.path).utf8)))
        // Read as the config is: a record someone else could write would let them skip this check.
        if let checked = try? FileSystem.readSettings(record, missing: .noSuchVault(path: record)),
           String(decoding: checked, as: UTF8.self) == head { return }
        if let parents = try parentFiles() {
            let file = try readFile()
            guard Vault.teamLogHolds(file[0..<file.count], logsOf: parents) else {
                throw VaultError.teamLogDropped(path: location.path, beforeChanging: true)
            }
        }
        // Best effort: without the record the next change asks git again.
        try? FileSystem.makeDirectory(directory)
        try? FileSystem.writeAtomically(Array(head.utf8), to: record, directory: directory)
    }
}
