#if canImport(Glibc)
import Glibc
#endif

/// The git work tree a vault file lies in, worked through the installed `git` binary
/// (`vault sync`, `vault merge-driver`).
struct GitRepository {
    /// The top of the work tree.
    let top: String
    var environment: [String: String]

    typealias Outcome = Git.Outcome

    /// The work tree holding `path`; throws when there is none.
    static func containing(_ path: String, environment: [String: String]) throws -> GitRepository {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let found = Git.run(["rev-parse", "--show-toplevel"], in: directory.isEmpty ? "/" : directory, environment: environment)
        guard found.status == 0, !found.text.isEmpty else {
            throw CommandFailure(
                .failure, "the vault \(quoted(path)) is not in a git work tree",
                hint: "sync shares a vault committed to a git repository: move it into one (git init, git add)")
        }
        return GitRepository(top: found.text, environment: environment)
    }

    /// `path` relative to the top of the work tree (both resolved, so links agree).
    func relativePath(of path: String) throws -> String {
        guard let real = realpath(path, nil), let root = realpath(top, nil) else {
            throw CommandFailure(.failure, "cannot resolve \(quoted(path)) in the work tree \(quoted(top))")
        }
        defer {
            free(real)
            free(root)
        }
        let file = String(cString: real), base = String(cString: root) + "/"
        guard file.hasPrefix(base) else {
            throw CommandFailure(.failure, "the vault \(quoted(path)) is outside the work tree \(quoted(top))")
        }
        return String(file.dropFirst(base.count))
    }

    /// Runs `git ARGUMENTS` at the top of the work tree.
    func run(_ arguments: [String]) -> Outcome {
        Git.run(arguments, in: top, environment: environment)
    }

    /// Runs `git ARGUMENTS` and returns its stdout; throws, quoting git, when it fails.
    @discardableResult
    func output(_ arguments: [String]) throws -> String {
        let stdout = try Git.output(
            arguments, in: top, environment: environment,
            hint: "run the git command yourself to see why, fix it, and run 'vault sync' again")
        return Git.Outcome(status: 0, stdout: stdout, stderr: []).text
    }

    /// Whether `git ARGUMENTS` exits 0 (a question such as `merge-base --is-ancestor`).
    func succeeds(_ arguments: [String]) -> Bool { run(arguments).status == 0 }

    /// The bytes of a blob (`:1:path`, `HEAD:path`), or nil when there is none.
    func blob(_ name: String) -> [UInt8]? {
        let outcome = run(["cat-file", "blob", name])
        return outcome.status == 0 ? outcome.stdout : nil
    }

    /// The path of a file in the git directory (`MERGE_HEAD`, `rebase-merge`), absolute.
    func gitPath(_ name: String) throws -> String {
        let path = try output(["rev-parse", "--git-path", name])
        return path.hasPrefix("/") ? path : top + "/" + path
    }

    /// Whether a rebase is under way: its stage 2 ("ours") is then the upstream, and stage 3 the commit replayed.
    var isRebasing: Bool {
        ["rebase-merge", "rebase-apply"].contains { (try? gitPath($0)).map(GitRepository.exists) ?? false }
    }

    /// "REF abc1234 by AUTHOR": how a conflict names the side a commit is on.
    func describe(_ ref: String) -> String {
        let outcome = run(["log", "-1", "--format=%h by %an", ref, "--"])
        return outcome.status == 0 && !outcome.text.isEmpty ? "\(ref) \(outcome.text)" : ref
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
