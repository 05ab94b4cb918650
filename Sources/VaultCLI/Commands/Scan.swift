#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault scan`'s options.
struct ScanArguments: CommandArguments {
    static let gitHistory = OptionSpec("git-history", help: "search every blob of the repository's history instead of the files")
    static let skipIgnored = OptionSpec("skip-ignored", help: "search only files git would track, not those .gitignore ignores")
    static let baseline = OptionSpec(
        "baseline", value: "FILE", help: "hits listed in FILE are accepted and do not fail the scan", completion: .file)
    static let updateBaseline = OptionSpec(
        "update-baseline", help: "write every current hit to the --baseline FILE as accepted, and exit 0")
    static let exitCode = OptionSpec("exit-code", value: "N", help: "exit status when a leak is found", default: "1")
    static let scanGroups = OptionSpec(
        ItemSelection.group.name, value: "GROUP",
        help: "only the items of this access group (repeat for several); every group the caller can open when none is named",
        repeatable: true, completion: .group, environment: .vaultGroup, configKey: .group)
    static let ref = OptionSpec(
        "ref", value: "REFERENCE",
        help: "also the value of this reference (openbao://MOUNT/PATH#FIELD or vault://…), fetched once (repeat for several); "
            + "with --ref and no --group, only the references' values",
        repeatable: true)
    static let scanReferences = ref

    static let options: [OptionSpec] = [
        gitHistory,
        scanGroups,
        scanReferences,
        skipIgnored,
        baseline,
        updateBaseline,
        exitCode,
        JSONArguments.json
    ]

    /// The files and directories to search; the current directory without any.
    var paths: [String]
    /// --git-history: every blob of the repository's history instead.
    var gitHistory: Bool
    /// Every --group given: the groups whose secrets are searched for.
    var groups: [String]
    /// Every --ref given: references whose values are searched for too (alone, without --group).
    var references: [String]
    var skipIgnored: Bool
    /// --baseline: the file of accepted hits.
    var baseline: String?
    /// --update-baseline: write the hits to it.
    var updateBaseline: Bool
    /// The status for "a leak was found": 1, or --exit-code N.
    var exitCode: Converted<Int32>
    var json: Bool

    init(_ options: OptionReader) {
        paths = options.positionals
        gitHistory = options.flag(ScanArguments.gitHistory)
        groups = options.values(ItemSelection.group)
        references = options.values(ScanArguments.ref)
        skipIgnored = options.flag(ScanArguments.skipIgnored)
        baseline = options.value(ScanArguments.baseline)
        updateBaseline = options.flag(ScanArguments.updateBaseline)
        exitCode = options.value(ScanArguments.exitCode).map { Converted($0, ScanArguments.exitCode) } ?? .value(1)
        json = options.flag(JSONArguments.json)
    }

    /// --exit-code given as `text`: the status a leak found gives, which may not be one of vault's error statuses.
    static func exitCode(_ text: String) throws -> Int32 {
        let reserved = Set(Status.allCases.map(\.exitCode)).subtracting([0, 1]).union([ScanCommand.failureExitCode])
        guard let code = Int32(text), (0...255).contains(code), !reserved.contains(code) else {
            throw UsageError(
                "--exit-code \(quoted(text)) is not a number from 0 to 255 that vault does not use for errors",
                hint:
                    "use 1 (the default), 0 to report without failing, or another number not in \(reserved.sorted().map(String.init).joined(separator: ", "))"
            )
        }
        return code
    }

    func validate() throws {
        _ = try exitCode.get()
        if updateBaseline, baseline == nil {
            throw UsageError(
                "--update-baseline needs --baseline FILE",
                hint: "write the accepted hits with 'vault scan --baseline FILE --update-baseline'")
        }
        if gitHistory, skipIgnored {
            throw UsageError(
                "--skip-ignored applies to files, and --git-history searches commits",
                hint: "drop one of them: history holds only what was committed")
        }
    }
}

/// `vault scan`: searches files, or every blob of a repository's history,
/// for the secrets the caller can read, in their common encodings, and
/// prints where each is, never what.
enum ScanCommand {
    /// The exit status when the scan could not complete: never 1, which says
    /// a leak was found, so a CI step can tell a leak from a failure.
    static let failureExitCode: Int32 = 3

    static func run(_ arguments: ScanArguments, _ invocation: Invocation) throws {
        do {
            try scan(arguments, invocation)
        } catch let error where !(error is ChildExitStatus) {
            let report = ErrorReport(error)
            guard report.status.exitCode == Status.failure.exitCode else { throw error }
            throw ChildExitStatus(
                code: failureExitCode,
                failure: CommandFailure(report.status, report.message, details: report.details, hint: report.hint))
        }
    }

    private static func scan(_ arguments: ScanArguments, _ invocation: Invocation) throws {
        let leakExitCode = try arguments.exitCode.get()
        let history = arguments.gitHistory
        let baselinePath = arguments.baseline
        let baseline = try baselinePath.flatMap { arguments.updateBaseline ? nil : try ScanBaseline(reading: $0) }

        let roots = arguments.paths.isEmpty ? ["."] : arguments.paths
        // Bad paths are found before the vault is opened.
        let trees =
            history
            ? []
            : try roots.map {
                try ScanFiles(root: $0, skipIgnored: arguments.skipIgnored, environment: invocation.environment)
            }
        // The server first, so a reference that cannot be read fails before the vault is opened.
        var secrets = try ReferencedSecrets.resolve(arguments.references, invocation, action: "nothing was searched")
        if arguments.references.isEmpty || !arguments.groups.isEmpty {
            secrets += try ReadableSecrets(
                groups: arguments.groups, invocation, ifNone: "there is nothing to search for", includingTrash: true
            )
            .itemsByName.map { (LeakSubject.item($0.key), $0.secret) }
        }
        let patterns = LeakPatterns(secrets: secrets.map { $0.secret.copyBytes() })
        let terminal = invocation.terminal
        let skipped = patterns.skipped.map { secrets[$0].subject.name }
        if !skipped.isEmpty {
            terminal.diagnostics.note(
                "\(counted(skipped.count, "item")) shorter than \(LeakPatterns.minimumLength) bytes not searched (too short to search without noise): \(skipped.joined(separator: ", "))"
            )
        }

        var findings: [ScanFinding] = []
        var unreadable: [String] = []
        if history {
            for root in roots {
                let leaks = try GitHistory(repository: root, environment: invocation.environment).scan(patterns)
                findings += leaks.map { ScanFinding(history: $0, item: secrets[$0.hit.source.secret].subject) }
            }
        } else {
            let scanner = LeakScanner(patterns)
            let total = trees.reduce(0) { $0 + $1.files.count }
            let progress = ProgressLine.start(invocation, label: "scan", unit: "file")
            defer { progress?.finish() }
            var done = 0
            for tree in trees {
                unreadable += tree.unreadable
                for path in tree.files {
                    done += 1
                    progress?.update(done: done, total: total)
                    guard let hits = try? FileScan.hits(in: path, scanner) else {
                        unreadable.append(path)
                        continue
                    }
                    findings += hits.map { ScanFinding(file: path, hit: $0, item: secrets[$0.source.secret].subject) }
                }
            }
        }
        for path in unreadable { terminal.diagnostics.warning("cannot read \(quoted(path)); it was not searched") }

        if arguments.updateBaseline, let baselinePath {
            try ScanBaseline.write(findings, to: baselinePath)
            terminal.diagnostics.notice(
                "wrote \(counted(Set(findings.map(\.baselineKey)).count, "accepted hit")) to \(quoted(baselinePath))")
            return
        }
        let new = findings.filter { !(baseline?.accepted.contains($0.baselineKey) ?? false) }
        let accepted = findings.count - new.count
        if arguments.json {
            terminal.writeOut(json(new, accepted: accepted, skipped: skipped, unreadable: unreadable))
        } else {
            terminal.writeOut(new.map(\.text).joined())
        }
        let acceptedNote = accepted > 0 ? " (\(accepted) more accepted by the baseline)" : ""
        terminal.diagnostics.notice(
            "\(counted(new.count, "hit")) of \(counted(secrets.count - skipped.count, "secret")) searched\(acceptedNote)")
        if !new.isEmpty {
            throw ChildExitStatus(code: leakExitCode)
        }
        if !unreadable.isEmpty {
            throw ChildExitStatus(
                code: failureExitCode,
                failure: CommandFailure(
                    .failure, "\(counted(unreadable.count, "path")) could not be read, so the scan is incomplete",
                    hint: "give vault read access to them, or scan without them"))
        }
    }

    private static func json(_ findings: [ScanFinding], accepted: Int, skipped: [String], unreadable: [String]) -> String {
        let hits = findings.map { "    " + $0.json }.joined(separator: ",\n")
        let skippedItems = skipped.map {
            "{\"item\": \(ItemOutput.jsonString($0)), \"reason\": \"shorter than \(LeakPatterns.minimumLength) bytes\"}"
        }
        return """
            {
              "hits": [\(hits.isEmpty ? "" : "\n" + hits + "\n  ")],
              "accepted": \(accepted),
              "skipped": [\(skippedItems.joined(separator: ", "))],
              "unreadable": [\(unreadable.map(ItemOutput.jsonString).joined(separator: ", "))]
            }

            """
    }
}

/// Reads one file through `LeakScanner`.
enum FileScan {
    static func hits(in path: String, _ scanner: LeakScanner) throws -> [LeakHit] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError.io(path: path, operation: .open, errno: errno) }
        defer { close(fd) }
        return try scanner.scan { target in
            while true {
                let count = read(fd, target.baseAddress, target.count)
                if count >= 0 { return count }
                if errno != EINTR { throw VaultError.io(path: path, operation: .read, errno: errno) }
            }
        }
    }
}
