#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault export --format csv|json --plaintext`: the items that match, in the clear, to stdout or
/// a new 0600 file, only when --plaintext says so (and, on a terminal, after a yes).
enum PlaintextExport {
    enum Format: String {
        case csv, json
    }

    /// `arguments` are validated: --plaintext given, no bundle option.
    static func run(_ arguments: ExportArguments, _ invocation: Invocation, format: Format) throws {
        let out = arguments.out.flatMap { $0 == "-" ? nil : $0 }
        if let out { _ = try ItemArguments.newOutputFile(out, for: "plaintext export", allowsStdout: false) }
        if out == nil, arguments.json {
            throw UsageError("--json and the export would both write to stdout", hint: "give --out FILE with --json")
        }
        let query = try ItemArguments(arguments.item, invocation).query()
        let names = arguments.names
        let access = VaultAccess(invocation)
        let progress = ProgressLine.start(invocation, label: "export")
        let vault = try access.vault(progress: progress)
        let (items, outcome) = try vault.exportableItems(matching: query, where: names.matches)
        progress?.finish()
        try confirm(outcome.exported, to: out, invocation, access: access)
        // Sorted as list sorts, so two exports of the same items are the same bytes.
        let rows = items.sorted {
            ($0.attributes.group.name, $0.attributes.service, $0.attributes.account)
                < ($1.attributes.group.name, $1.attributes.service, $1.attributes.account)
        }.map(PlainExportFields.fields(of:))
        let rendered = format == .csv ? PlainExportCSV.render(rows) : try PlainExportJSON.render(rows)
        if let out {
            // The file writer takes an array: the copy lives only for the write, then is wiped.
            var bytes = rendered.copyBytes()
            defer { bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { memset(base, 0, $0.count) } } }
            try PlainFile.createPrivately(bytes, at: out)
        } else {
            rendered.withUnsafeBytes { invocation.terminal.writeOut($0) }
        }
        ExportCommand.report(outcome, to: out ?? "-", inTheClear: true, json: arguments.json, invocation)
    }

    /// On a terminal, asks before secrets leave the vault in the clear; without one, --plaintext is enough.
    private static func confirm(_ count: Int, to out: String?, _ invocation: Invocation, access: VaultAccess) throws {
        guard access.reasonPromptsAreOff == nil else { return }
        let place = out.map(quoted) ?? "stdout"
        guard
            let answer = try invocation.terminal.readLine(
                prompt: "Write the secrets of \(counted(count, "item")) in the clear to \(place)? [y/N] "),
            ["y", "yes"].contains(answer.lowercased())
        else {
            throw CommandFailure(
                .userCanceled, "not confirmed; nothing was written",
                hint: "answer y to write them; without a terminal --plaintext is enough")
        }
    }
}
