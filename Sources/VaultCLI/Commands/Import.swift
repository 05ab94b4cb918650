import VaultCore

/// `vault import`'s arguments.
struct ImportArguments: CommandArguments {
    /// The bundle, export or store to read.
    var source: String?
    /// --from as given: vault-csv, vault-json, or another manager's format.
    var from: String?
    /// --columns: which column of --from csv is which.
    var columns: String?
    /// --group as given: the group of the items another manager's entries become.
    var group: String?
    var foldersAsGroups: Bool
    var createGroup: Bool
    var dryRun: Bool
    /// --partial: import the entries that were read when some were not.
    var partial: Bool
    var kdbxPasswordFile: String?
    var kdbxKeyFile: String?
    var bundle: BundleCredentialOptions
    /// --on-conflict: what happens to an item that exists.
    var policy: ConflictPolicy
    var json: Bool
    /// --max-entries: the most entries this import takes, from 1.
    var maxEntriesGiven: Converted<Int>?

    init(_ options: OptionReader) {
        source = options.positionals.first
        from = options.value(.from)
        columns = options.value(.columns)
        group = options.value(.group)
        foldersAsGroups = options.flag(.foldersAsGroups)
        createGroup = options.flag(.createGroup)
        dryRun = options.flag(.dryRun)
        partial = options.flag(.partial)
        kdbxPasswordFile = options.value(.kdbxPasswordFile)
        kdbxKeyFile = options.value(.kdbxKeyFile)
        bundle = BundleCredentialOptions(options)
        policy = ConflictPolicy(rawValue: options.value(.onConflict) ?? "fail") ?? .fail
        json = options.flag(.json)
        maxEntriesGiven = options.value(.maxEntries).map { text in
            Converted(text, { Int($0).flatMap { $0 >= 1 ? $0 : nil } },
                      else: UsageError("--max-entries \(quoted(text)) is not a positive number", hint: "write --max-entries N, e.g. --max-entries 200000"))
        }
    }

    /// The most entries this import takes: --max-entries, else `ImportLimits.defaultMaxEntries`.
    var maxEntries: Int { (try? maxEntriesGiven?.get()) ?? ImportLimits.defaultMaxEntries }

    /// The other password manager --from names; nil for a bundle or a plaintext export.
    var foreignFormat: ImportFormat? { from.flatMap(ImportFormat.init(rawValue:)) }

    func validate() throws {
        _ = try maxEntriesGiven?.get()
        if let format = foreignFormat {
            if format != .csv, columns != nil {
                throw UsageError("--columns maps the columns of --from csv", hint: "drop --columns, or import with --from csv")
            }
            if format != .kdbx, let option = [(OptionName.kdbxPasswordFile, kdbxPasswordFile != nil), (.kdbxKeyFile, kdbxKeyFile != nil)].first(where: \.1)?.0 {
                throw UsageError("--\(option.long) opens a KeePassXC database", hint: "drop it, or import with --from kdbx")
            }
            return
        }
        let foreignOptions: [(OptionName, Bool)] = [
            (.columns, columns != nil), (.dryRun, dryRun), (.group, group != nil), (.foldersAsGroups, foldersAsGroups), (.partial, partial),
            (.kdbxPasswordFile, kdbxPasswordFile != nil), (.kdbxKeyFile, kdbxKeyFile != nil), (.createGroup, createGroup),
            (.maxEntries, maxEntriesGiven != nil),
        ]
        if let option = foreignOptions.first(where: \.1)?.0 {
            throw UsageError("--\(option.long) goes with --from FORMAT of another password manager",
                             hint: "name the format of the source, e.g. --from pass")
        }
        guard let source else {
            throw UsageError("no file named", hint: "give the bundle or plaintext export, or --from FORMAT to import another password manager's export")
        }
        if let from, let bundleOption = bundle.firstGiven {
            throw UsageError("--\(bundleOption.long) opens a bundle; \(quoted(source)) is read as \(from)",
                             hint: "leave out --\(bundleOption.long), or --from for a bundle")
        }
    }
}

/// `vault import`: adds the items of an export bundle, of a plaintext export (`--from vault-csv`
/// or `vault-json`: `PlaintextImport`), or (`--from FORMAT`) the entries of another password
/// manager's export (docs/IMPORT.md).
enum ImportCommand {
    static func run(_ arguments: ImportArguments, _ invocation: Invocation) throws {
        let policy = arguments.policy
        if let format = arguments.foreignFormat {
            try ForeignImport(invocation: invocation, arguments: arguments, format: format).run(source: arguments.source)
            return
        }
        let path = arguments.source ?? ""
        if let format = arguments.from {
            try PlaintextImport.run(invocation, from: format, path: path, policy: policy, json: arguments.json)
            return
        }
        // Said before any passphrase is asked for: the vault's or the bundle's.
        guard KeyFile.exists(path: path) else { throw VaultError.noSuchFile(path: path, kind: .bundle) }
        let access = VaultAccess(invocation)
        let progress = ProgressLine.start(invocation, label: "import")
        let vault = try access.vault(progress: progress)
        defer { progress?.finish() }
        try addAll(from: path, holder: "the bundle", json: arguments.json, invocation) {
            try vault.importBundle(at: path, credential: try access.bundleCredential(arguments.bundle, creating: false), onConflict: policy)
        }
    }

    /// Runs an import (`add`) of the items of `path` and says what it did; an item that exists, with
    /// --on-conflict fail, is exit 45 naming it as held by `holder`.
    static func addAll(from path: String, holder: String, json: Bool, _ invocation: Invocation, add: () throws -> Vault.ImportOutcome) throws {
        let outcome: Vault.ImportOutcome
        do {
            outcome = try add()
        } catch VaultError.item(.duplicateItem(let key)) {
            throw existingItem(key, source: holder)
        }
        invocation.report("imported from \(quoted(path)): \(outcome.added) added, \(outcome.replaced) replaced, \(outcome.skipped) skipped",
                          json: .object([("file", .string(path)), ("added", .number(outcome.added)),
                                         ("replaced", .number(outcome.replaced)), ("skipped", .number(outcome.skipped))]), asJSON: json)
    }

    /// The source holds more entries than --max-entries (or the default cap) lets one import take.
    static func tooManyEntries(_ count: Int, limit: Int) -> CommandFailure {
        CommandFailure(.usage, "the source holds \(count) entries, more than the \(limit) one import takes; nothing was imported",
                       hint: "pass --max-entries \(count) if you mean to import them all (docs/IMPORT.md, \"Bounds\")")
    }

    /// `--on-conflict fail` met an item that exists.
    static func existingItem(_ key: ItemKey, source: String) -> CommandFailure {
        CommandFailure(
            .duplicateItem,
            "\(source) holds service \(quoted(key.service)), account \(quoted(key.account)) of group \(quoted(key.group.name)), which exists here; nothing was imported",
            hint: "choose what to do with such items: --on-conflict skip or --on-conflict replace")
    }
}
