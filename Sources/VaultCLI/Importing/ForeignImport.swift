import FoundationEssentials
import VaultCore

/// `vault import --from FORMAT [SOURCE]`: reads the source (`ImportFormat`), names each entry's
/// item, refuses bad input and repeated names unless `--partial`, then adds everything in one
/// write (or, with `--dry-run`, prints the names), and says what came in and what was left out.
struct ForeignImport {
    let invocation: Invocation
    /// The command's arguments, validated.
    let arguments: ImportArguments
    let format: ImportFormat

    func run(source: String?) throws {
        let defaultGroup = try ItemArguments(ItemSelection(group: arguments.group), invocation).group() ?? .default
        var (batch, sourceName): (ImportBatch, String)
        do {
            (batch, sourceName) = try format.read(source, arguments, invocation)
        } catch let problem as ImportProblem {
            throw CommandFailure(
                .usage, "\(ImportWords.origin(problem.origin)): \(ImportWords.problem(problem.reason)); nothing was imported",
                hint: "check that the file is what --from \(format.rawValue) reads (docs/IMPORT.md)")
        }
        let entryCount = batch.entries.count + batch.bad.count
        if entryCount > arguments.maxEntries { throw ImportCommand.tooManyEntries(entryCount, limit: arguments.maxEntries) }
        let naming = item(defaultGroup: defaultGroup)
        batch.separateRepeatedNames { naming($0).key }
        if let first = batch.bad.first, !arguments.partial {
            throw CommandFailure(
                .usage, "\(ImportWords.origin(first.origin)): \(ImportWords.problem(first.reason)); nothing was imported",
                details: batch.bad.dropFirst().map { "\(ImportWords.origin($0.origin)): \(ImportWords.problem($0.reason))" },
                hint: "fix the source, or pass --partial to import the entries that were read")
        }
        let kept = batch.entries.map(naming)
        let terminal = invocation.terminal
        if arguments.dryRun {
            for new in kept { terminal.writeOut(ItemName.of(new.key) + "\n") }
            summarize(batch, source: sourceName, outcome: nil)
            return
        }
        let progress = ProgressLine.start(invocation, label: "import")
        let vault = try VaultAccess(invocation).vault(progress: progress)
        if arguments.group != nil {
            _ = try NewGroupCheck(invocation: invocation, createGroup: arguments.createGroup).createsGroup(defaultGroup, in: vault)
        }
        let existingGroups = Set(try vault.groupNames().groups)
        let outcome: Vault.ImportOutcome
        do {
            defer { progress?.finish() }
            outcome = try vault.importItems(dated(kept, batch.entries), onConflict: arguments.policy)
        } catch VaultError.item(.duplicateItem(let key)) {
            throw ImportCommand.existingItem(key, source: quoted(sourceName))
        }
        if !arguments.json {
            for group in Set(kept.map(\.group)).subtracting(existingGroups).sorted(by: { $0.name < $1.name }) where group != .default {
                terminal.say("created group \(quoted(group.name))")
            }
        }
        summarize(batch, source: sourceName, outcome: outcome)
    }

    /// The item an entry becomes: in the group of its folders (`--folders-as-groups`) or the one
    /// of `--group` (else the usual default), named by its service and account.
    private func item(defaultGroup: AccessGroup) -> (ImportEntry) -> NewItem {
        let foldersAsGroups = arguments.foldersAsGroups
        return { entry in
            let service =
                !foldersAsGroups && format.foldersNameTheService ? (entry.folders + [entry.service]).joined(separator: "/") : entry.service
            let group = foldersAsGroups ? AccessGroup(folders: entry.folders) ?? defaultGroup : defaultGroup
            return NewItem(service: service, account: entry.account, group: group, secret: entry.secret, fields: entry.fields)
        }
    }

    /// The items with the dates their source gave (`ImportEntry.created`, `.modified`), else
    /// dated now; a date that does not read is said, once per entry, and the item dated now.
    private func dated(_ items: [NewItem], _ entries: [ImportEntry]) -> [Item] {
        let now = invocation.now
        return zip(items, entries).map { new, entry in
            func read(_ text: String?, _ what: String) -> Date? {
                guard let text else { return nil }
                if let date = DateText.parseFraction(text) { return date }
                invocation.terminal.diagnostics.warning(
                    "\(ImportWords.origin(entry.origin)): its \(what) date \(quoted(text)) does not read as a date; the item is dated now")
                return nil
            }
            let created = read(entry.created, "creation") ?? now
            let modified = read(entry.modified, "revision") ?? created
            return Item(
                attributes: ItemAttributes(
                    service: new.service, account: new.account, group: new.group, accessibility: new.accessibility,
                    details: new.details, created: created, modified: max(created, modified)),
                secret: new.secret, fields: new.fields)
        }
    }

    private func summarize(_ batch: ImportBatch, source: String, outcome: Vault.ImportOutcome?) {
        let entries = batch.entries
        let kinds = ImportEntry.Kind.allCases.compactMap { kind -> String? in
            let count = entries.filter { $0.kind == kind }.count
            return count == 0 ? nil : counted(count, kind.rawValue)
        }
        let withNotes = entries.filter { $0.fields[.notes] != nil }.count
        let withCodes = entries.filter { $0.fields[.oneTimeCode] != nil }.count
        var read = "\(entries.count) \(entries.count == 1 ? "entry" : "entries")"
        if !kinds.isEmpty { read += " (\(kinds.joined(separator: ", ")); \(withNotes) with notes, \(withCodes) with a one-time code)" }
        let leftOut = batch.skipped + batch.bad
        let terminal = invocation.terminal
        for problem in leftOut {
            terminal.diagnostics.notice("left out \(ImportWords.origin(problem.origin)): \(ImportWords.problem(problem.reason))")
        }
        if let dropped = ImportWords.notKept(format) { terminal.diagnostics.notice("not kept (no item field holds them): \(dropped)") }
        var fields: [(String, JSONValue)] = [
            ("format", .string(format.rawValue)), ("source", .string(source)), ("entries", .number(entries.count))
        ]
        for kind in ImportEntry.Kind.allCases { fields.append((kind.rawValue + "s", .number(entries.filter { $0.kind == kind }.count))) }
        fields += [("with_notes", .number(withNotes)), ("with_one_time_code", .number(withCodes)), ("left_out", .number(leftOut.count))]
        guard let outcome else {
            terminal.diagnostics.notice(
                "would import \(read) from \(quoted(source)); \(leftOut.count) left out; nothing was written (--dry-run)")
            return
        }
        fields += [("added", .number(outcome.added)), ("replaced", .number(outcome.replaced)), ("skipped", .number(outcome.skipped))]
        invocation.report(
            "imported \(read) from \(quoted(source)): \(outcome.added) added, \(outcome.replaced) replaced, "
                + "\(outcome.skipped) skipped (they exist), \(leftOut.count) left out",
            json: .object(fields), asJSON: arguments.json)
    }
}
