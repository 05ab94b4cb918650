import VaultCore

/// `vault merge-driver`'s arguments: the files git names (the table requires BASE, OURS and THEIRS).
struct MergeDriverArguments: CommandArguments {
    var base: String
    var ours: String
    var theirs: String
    /// The path of the vault file in the work tree, to name in messages.
    var path: String?

    init(_ options: OptionReader) {
        let positionals = options.positionals + Array(repeating: "", count: max(0, 3 - options.positionals.count))
        (base, ours, theirs) = (positionals[0], positionals[1], positionals[2])
        path = positionals.dropFirst(3).first
    }
}

/// `vault merge-driver %O %A %B %P`: git's merge of a vault file, record by record; exit 1 leaves
/// git a conflict for `vault sync` to finish.
enum MergeDriverCommand {
    static func run(_ arguments: MergeDriverArguments, _ invocation: Invocation) throws {
        let directory = invocation.environment[.workingDirectory] ?? "."
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : directory + "/" + path }
        let shown = arguments.path ?? arguments.ours
        do {
            let base = try Vault.readMergeSide(at: absolute(arguments.base))
            let theirs = try Vault.readMergeSide(at: absolute(arguments.theirs))
            var access = VaultAccess(invocation)
            access.overriddenLocation = VaultLocation(path: absolute(arguments.ours))
            let vault = try access.vault()
            let repository = try? GitRepository.containing(absolute(arguments.ours), environment: invocation.environment)
            if let repository { GitWorkTree.removeAbandonedMergeDriverTemporaries(in: repository.top) }
            let origins = (
                ours: repository?.describe("HEAD") ?? "ours",
                theirs: repository.map { $0.describe(theirCommit(invocation.environment, in: $0)) } ?? "theirs"
            )
            let report = try vault.merge(
                base: base, theirs: theirs, origins: origins,
                kdf: .interactive
            ) { _ in
                throw CommandFailure(
                    .interactionNotAllowed, "this merge re-keys the vault and would drop what the re-key cannot carry over")
            }
            MergeReportText.say(report, merging: origins.theirs, terminal: invocation.terminal)
            // git shows a driver's stderr; sync, which runs git merge, counts the conflicts itself.
        } catch {
            let report = ErrorReport(error)
            invocation.terminal.diagnostics.notice("cannot merge \(quoted(shown)) record by record here: \(report.message)")
            invocation.terminal.diagnostics.hint("git leaves it in conflict; run 'vault sync' with the vault unlocked to finish the merge")
            throw CommandFailure(.failure, "left \(quoted(shown)) in conflict for 'vault sync'")
        }
    }

    /// The commit merged in: git names the two sides of a merge in GITHEAD_<commit> variables
    /// (MERGE_HEAD is written only after the drivers ran); in a rebase, REBASE_HEAD.
    private static func theirCommit(_ environment: [String: String], in repository: GitRepository) -> String {
        let head = (try? repository.output(["rev-parse", "HEAD"])) ?? ""
        let named = environment.keys.filter { $0.hasPrefix("GITHEAD_") }.map { String($0.dropFirst(8)) }.filter { $0 != head }
        if let commit = named.first { return commit }
        return repository.isRebasing ? "REBASE_HEAD" : "MERGE_HEAD"
    }
}
