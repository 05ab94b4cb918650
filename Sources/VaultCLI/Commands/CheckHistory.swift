#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault check-history [REVISION…] [--file PATH]…`'s arguments.
struct CheckHistoryArguments: CommandArguments {
    static let file = OptionSpec(
        "file", value: "PATH", help: "a vault file's path in the repository", default: "every file whose name ends in .vault",
        repeatable: true, completion: .file)

    static let options: [OptionSpec] = [
        file
    ]

    /// What to walk, as git rev-list takes it (`A..B`, a commit, `--not`, `--all`); empty: the current
    /// branch's commits its upstream lacks.
    var revisions: [String]
    /// The vault files' paths in the repository; empty: every file named *.vault.
    var files: [String]

    init(_ options: OptionReader) throws {
        revisions = options.positionals
        files = options.values(CheckHistoryArguments.file)
        // Never an option of git's own but the two that select commits: a name that starts with '-' could be one.
        for revision in revisions where revision.hasPrefix("-") && !["--not", "--all"].contains(revision) {
            throw UsageError(
                "\(quoted(revision)) is not a revision check-history walks",
                hint: "give revisions as git rev-list takes them (A..B, a commit), or --not and --all after '--'")
        }
    }
}

/// `vault check-history`: the guard a git server or CI runs (docs/TEAMS.md, "A guard for git
/// servers and CI"). Walks the commits given, oldest first, and exits 49 on the first whose vault
/// file's team log does not descend from each of its parents' — with no key at all: the chain of
/// hashes is in clear.
enum CheckHistoryCommand {
    static func run(_ arguments: CheckHistoryArguments, _ invocation: Invocation) throws {
        let directory =
            getcwd(nil, 0).map { pointer in
                defer { free(pointer) }; return String(cString: pointer)
            } ?? "."
        let repository = GitRepository(top: directory, environment: invocation.environment)
        guard repository.succeeds(["rev-parse", "--git-dir"]) else {
            throw CommandFailure(
                .failure, "\(quoted(directory)) is not in a git repository",
                hint: "run it in a clone or a bare repository (a pre-receive hook runs in one)")
        }
        var revisions = arguments.revisions
        if revisions.isEmpty {
            revisions = repository.succeeds(["rev-parse", "-q", "--verify", "@{upstream}"]) ? ["@{upstream}..HEAD"] : ["HEAD"]
        }
        let history = TeamLogHistory(repository: repository, paths: arguments.files)
        let steps = try history.steps(revisions)
        if let broken = history.firstBreak(in: steps) {
            throw VaultError.historyDropsTeamLog(
                HistoryBreak(path: broken.path, commit: history.abbreviated(broken.commit), finding: .checkingHistory))
        }
        let commits = Set(steps.map(\.commit)).count
        invocation.terminal.say("checked \(counted(commits, "commit")) that change a vault file: each keeps its parents' team log entries")
    }
}
