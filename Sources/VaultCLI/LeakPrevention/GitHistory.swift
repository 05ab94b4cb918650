#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// A leak in a blob of a repository's history, at a path that holds it.
struct HistoryLeak {
    /// The commit that added the blob at `path`, or nil when no commit's
    /// diff shows it (a blob reachable only from a tag or a merge).
    var commit: String?
    var blob: String
    var path: String
    var hit: LeakHit
}

/// Scans every blob reachable from any ref of a repository, each unique blob
/// read once, with the installed git: `git rev-list --objects --all` piped
/// into `git cat-file --batch`, then `git log --find-object` for the commits
/// that added the blobs with hits.
struct GitHistory {
    let repository: String
    let environment: [String: String]

    static let unreadableRepositoryHint = "check that the path is a git repository that git itself can read ('git -C PATH log' works)"

    /// Every hit, by the commits that added its blob (newest first), then path and place.
    func scan(_ patterns: LeakPatterns) throws -> [HistoryLeak] {
        let blobHits = try scanBlobs(patterns)
        guard !blobHits.isEmpty else { return [] }
        let hitsByBlob = Dictionary(blobHits.map { ($0.blob, $0.hits) }, uniquingKeysWith: +)
        let additions = try commitsAdding(Set(hitsByBlob.keys))
        var leaks: [HistoryLeak] = []
        for addition in additions {
            leaks += hitsByBlob[addition.blob, default: []].map {
                HistoryLeak(commit: addition.commit, blob: addition.blob, path: addition.path, hit: $0)
            }
        }
        let attributed = Set(additions.map(\.blob))
        for blob in blobHits where !attributed.contains(blob.blob) {
            leaks += blob.hits.map { HistoryLeak(commit: nil, blob: blob.blob, path: blob.path, hit: $0) }
        }
        return leaks
    }

    /// The hits of each blob that has any, with the path rev-list first saw it at.
    private func scanBlobs(_ patterns: LeakPatterns) throws -> [(blob: String, path: String, hits: [LeakHit])] {
        let listArguments = ["rev-list", "--objects", "--all", "--filter=object:type=blob"]
        // With %(rest), cat-file takes the object name before the first space of
        // each line rev-list prints and hands back the path after it.
        let batchArguments = ["cat-file", "--batch=%(objectname) %(objecttype) %(objectsize) %(rest)"]
        let objects = try PipeEnds()
        let contents = try PipeEnds()
        let list: GitProcess
        let batch: GitProcess
        do {
            defer {
                for fd in [objects.readEnd, objects.writeEnd, contents.writeEnd] { close(fd) }
            }
            list = try GitProcess.start(listArguments, in: repository, environment: environment, stdout: objects.writeEnd)
            batch = try GitProcess.start(
                batchArguments, in: repository, environment: environment,
                stdin: objects.readEnd, stdout: contents.writeEnd)
        }
        let reader = BufferedReader(contents.readEnd)
        let scanner = LeakScanner(patterns)
        var results: [(blob: String, path: String, hits: [LeakHit])] = []
        while let header = reader.readLine() {
            let fields = header.split(separator: 0x20, maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3, let size = Int(String(decoding: fields[2], as: UTF8.self)) else { continue }  // "<name> missing"
            var remaining = size
            let read: (UnsafeMutableRawBufferPointer) -> Int = { target in
                let count = reader.read(into: UnsafeMutableRawBufferPointer(rebasing: target[0..<min(target.count, remaining)]))
                remaining -= count
                return count
            }
            if fields[1].elementsEqual("blob".utf8) {
                let hits = scanner.scan(read: read)
                if !hits.isEmpty {
                    let path = fields.count > 3 ? String(decoding: fields[3], as: UTF8.self) : ""
                    results.append((String(decoding: fields[0], as: UTF8.self), path, hits))
                }
            }
            var rest = [UInt8](repeating: 0, count: 1 << 16)
            while remaining > 0, rest.withUnsafeMutableBytes(read) > 0 {}
            _ = reader.readLine()  // the newline after the content
        }
        close(contents.readEnd)
        try list.finish(listArguments)
        try batch.finish(batchArguments)
        return results
    }

    /// Every commit whose diff adds one of `blobs`, with the path, newest first.
    private func commitsAdding(_ blobs: Set<String>) throws -> [(commit: String, path: String, blob: String)] {
        var additions: [(commit: String, path: String, blob: String)] = []
        let sorted = blobs.sorted()
        // A few hundred --find-object at a time keeps the command line short.
        for start in stride(from: 0, to: sorted.count, by: 500) {
            let batch = sorted[start..<min(start + 500, sorted.count)]
            let output = try Git.output(
                ["log", "--all", "--no-renames", "--no-abbrev", "--format=%x01%H", "--raw", "-z"] + batch.map { "--find-object=\($0)" },
                in: repository, environment: environment, hint: GitHistory.unreadableRepositoryHint)
            // -z output: "\x01COMMIT", then per file ":MODE MODE OLD NEW STATUS" and "PATH", each ending in NUL.
            var commit = ""
            var pathOf: String??  // set after a file's raw line: the blob it adds, if one of ours
            for field in output.split(separator: 0, omittingEmptySubsequences: false) {
                if let blob = pathOf {
                    if let blob { additions.append((commit, String(decoding: field, as: UTF8.self), blob)) }
                    pathOf = nil
                    continue
                }
                let token = field.drop { $0 == 0x0A }
                if token.first == 0x01 {
                    commit = String(decoding: token.dropFirst(), as: UTF8.self)
                } else if token.first == UInt8(ascii: ":") {
                    let parts = token.split(separator: 0x20)
                    let newBlob = parts.count >= 4 ? String(decoding: parts[3], as: UTF8.self) : ""
                    pathOf = .some(blobs.contains(newBlob) ? newBlob : nil)
                }
            }
        }
        return additions
    }
}
