import VaultCore

/// Every version of one vault file that git holds: each blob of the file that a commit reachable
/// from any local ref wrote, oldest first, with the commits that wrote it (`vault exposure`).
struct VaultFileHistory {
    let repository: GitRepository
    /// The file's path in the repository.
    let path: String

    /// The history of the vault file at `path`, or nil when it is in no git work tree.
    static func of(_ path: String, environment: [String: String]) -> VaultFileHistory? {
        guard let repository = try? GitRepository.containing(path, environment: environment),
              let relative = try? repository.relativePath(of: path) else { return nil }
        return VaultFileHistory(repository: repository, path: relative)
    }

    /// The blobs of the file, oldest first, each with the commits that wrote it (a merge against each parent).
    func blobs() throws -> [(blob: String, commits: [String])] {
        let output = try repository.output(["log", "--all", "--no-renames", "--full-history", "-m", "--raw", "--no-abbrev", "--topo-order",
                                            "--reverse", "--format=commit %H", "--", ":(top,literal)" + path])
        var order: [String] = [], commits: [String: [String]] = [:]
        var commit = ""
        for line in output.split(separator: "\n") {
            if line.hasPrefix("commit ") {
                commit = String(line.dropFirst(7))
                continue
            }
            let parts = line.split(separator: "\t", maxSplits: 1)
            let fields = parts[0].split(separator: " ")
            guard line.hasPrefix(":"), parts.count == 2, fields.count >= 5, fields[4] == "M" || fields[4] == "A" else { continue }
            let blob = String(fields[3])
            if commits[blob] == nil { order.append(blob) }
            if commits[blob]?.last != commit { commits[blob, default: []].append(commit) }
        }
        return order.map { ($0, commits[$0] ?? []) }
    }

    /// The file's versions with their bytes, and the commits whose file is the current file byte for byte.
    func read(currentFile: String) throws -> (versions: [VaultFileVersion], currentCommits: [String]) {
        let current = try? repository.output(["hash-object", "--", currentFile])
        var versions: [VaultFileVersion] = [], currentCommits: [String] = []
        for (blob, commits) in try blobs() {
            if blob == current {
                currentCommits = commits
                continue
            }
            guard let bytes = repository.blob(blob) else { continue }
            versions.append(VaultFileVersion(commits: commits, bytes: bytes))
        }
        return (versions, currentCommits)
    }
}
