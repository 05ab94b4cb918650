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
            let relative = try? repository.relativePath(of: path)
        else { return nil }
        return VaultFileHistory(repository: repository, path: relative)
    }

    /// The blobs of the file, oldest first, each with the commits that wrote it (a merge against each parent).
    func blobs() throws -> [(blob: String, commits: [String])] {
        let output = try repository.output(RawFileChange.logArguments + ["--all", "--", ":(top,literal)" + path])
        var order: [String] = [], commits: [String: [String]] = [:]
        for change in RawFileChange.parse(output) where change.status == "M" || change.status == "A" {
            if commits[change.after] == nil { order.append(change.after) }
            if commits[change.after]?.last != change.commit { commits[change.after, default: []].append(change.commit) }
        }
        return order.map { ($0, commits[$0] ?? []) }
    }

    /// The file's versions, oldest first, read one at a time as they are iterated (one
    /// `git cat-file --batch` for all, no version held after the next is read), and the commits
    /// whose file is the current file byte for byte.
    func read(currentFile: String) throws -> (versions: Versions, currentCommits: [String]) {
        let current = try? repository.output(["hash-object", "--", currentFile])
        let all = try blobs()
        let earlier = all.filter { $0.blob != current }
        return (Versions(blobs: earlier, batch: try BlobBatch(repository)), all.first { $0.blob == current }?.commits ?? [])
    }

    /// The versions of the file other than the current one, each read from git when reached.
    struct Versions: Sequence {
        let blobs: [(blob: String, commits: [String])]
        let batch: BlobBatch

        func makeIterator() -> AnyIterator<VaultFileVersion> {
            var remaining = blobs[...]
            return AnyIterator {
                while let (blob, commits) = remaining.popFirst() {
                    if let bytes = batch.blob(blob) { return VaultFileVersion(commits: commits, bytes: bytes) }
                }
                try? batch.finish()
                return nil
            }
        }
    }
}
