import VaultCore

/// `vault import`'s arguments.
struct ImportArguments: CommandArguments {
    static let from = OptionSpec(
        "from", value: "FORMAT",
        help: "what SOURCE is, when not a bundle: vault-csv or vault-json (a plaintext export), or another password manager's export",
        completion: .values(PlaintextImport.formats + ImportFormat.allCases.map(\.rawValue)))
    static let columns = OptionSpec(
        "columns", value: "MAPPING",
        help:
            "for --from csv: which column gives what, as ROLE=COLUMN pairs joined by commas, e.g. service=Title,account=Username,secret=Password (roles: service, account, secret, notes, url, otp, folder, tags, archived)"
    )
    static let foldersAsGroups = OptionSpec(
        "folders-as-groups", help: "make each entry's folder its group (an entry without one goes to --group)")
    static let partial = OptionSpec("partial", help: "import the entries that were read even when others are bad input or share a name")
    static let maxEntries = OptionSpec(
        "max-entries", value: "N",
        help:
            "take up to N entries (default 100000); a source with more imports nothing. An export over 256 MiB is never read (docs/IMPORT.md)"
    )
    static let kdbxPasswordFile = OptionSpec(
        "kdbx-password-file", value: "FILE", help: "for --from kdbx: read the database's password from FILE (else it is asked for)",
        completion: .file)
    static let kdbxKeyFile = OptionSpec("kdbx-key-file", value: "FILE", help: "for --from kdbx: the database's key file", completion: .file)
    static let onConflict = OptionSpec(
        "on-conflict", value: "POLICY", help: "what to do with an item that exists", default: "fail",
        completion: .values(["skip", "replace", "fail"]))

    static let options: [OptionSpec] = [
        from,
        columns,
        OptionSpec(
            ItemSelection.group.name, value: "GROUP", help: "put every imported item in this group, created as add creates one",
            completion: .group),
        foldersAsGroups,
        OptionSpec(
            NewGroupCheck.createGroup.name, help: "create the --group even when its name is one letter away from an existing group's"),
        OptionSpec(WipeArguments.dryRun.name, short: "n", help: "print the names of the items that would be imported, and change nothing"),
        partial,
        maxEntries,
        kdbxPasswordFile,
        kdbxKeyFile,
        OptionSpec(
            ExportArguments.bundlePassphraseFile.name, value: "FILE", help: "read the bundle's passphrase from FILE", completion: .file),
        OptionSpec(ExportArguments.bundleKeyFile.name, value: "FILE", help: "open the bundle with the key file FILE", completion: .file),
        onConflict,
        JSONArguments.resultJSON
    ]

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
        from = options.value(ImportArguments.from)
        columns = options.value(ImportArguments.columns)
        group = options.value(ItemSelection.group)
        foldersAsGroups = options.flag(ImportArguments.foldersAsGroups)
        createGroup = options.flag(NewGroupCheck.createGroup)
        dryRun = options.flag(WipeArguments.dryRun)
        partial = options.flag(ImportArguments.partial)
        kdbxPasswordFile = options.value(ImportArguments.kdbxPasswordFile)
        kdbxKeyFile = options.value(ImportArguments.kdbxKeyFile)
        bundle = BundleCredentialOptions(options)
        policy = ConflictPolicy(rawValue: options.value(ImportArguments.onConflict) ?? "fail") ?? .fail
        json = options.flag(JSONArguments.json)
        maxEntriesGiven = options.value(ImportArguments.maxEntries).map { text in
            Converted(
                text, { Int($0).flatMap { $0 >= 1 ? $0 : nil } },
                else: UsageError(
                    "--max-entries \(quoted(text)) is not a positive number", hint: "write --max-entries N, e.g. --max-entries 200000"))
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
            if format != .kdbx,
                let option = [
                    (ImportArguments.kdbxPasswordFile.name, kdbxPasswordFile != nil), (ImportArguments.kdbxKeyFile.name, kdbxKeyFile != nil)
                ].first(where: \.1)?.0
            {
                throw UsageError("--\(option.long) opens a KeePassXC database", hint: "drop it, or import with --from kdbx")
            }
            return
        }
        let foreignOptions: [(OptionName, Bool)] = [
            (ImportArguments.columns.name, columns != nil), (WipeArguments.dryRun.name, dryRun), (ItemSelection.group.name, group != nil),
            (ImportArguments.foldersAsGroups.name, foldersAsGroups), (ImportArguments.partial.name, partial),
            (ImportArguments.kdbxPasswordFile.name, kdbxPasswordFile != nil), (ImportArguments.kdbxKeyFile.name, kdbxKeyFile != nil),
            (NewGroupCheck.createGroup.name, createGroup),
            (ImportArguments.maxEntries.name, maxEntriesGiven != nil)
        ]
        if let option = foreignOptions.first(where: \.1)?.0 {
            throw UsageError(
                "--\(option.long) goes with --from FORMAT of another password manager",
                hint: "name the format of the source, e.g. --from pass")
        }
        guard let source else {
            throw UsageError(
                "no file named", hint: "give the bundle or plaintext export, or --from FORMAT to import another password manager's export")
        }
        if let from, let bundleOption = bundle.firstGiven {
            throw UsageError(
                "--\(bundleOption.long) opens a bundle; \(quoted(source)) is read as \(from)",
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
    static func addAll(from path: String, holder: String, json: Bool, _ invocation: Invocation, add: () throws -> Vault.ImportOutcome)
        throws
    {
        let outcome: Vault.ImportOutcome
        do {
            outcome = try add()
        } catch VaultError.item(.duplicateItem(let key)) {
            throw existingItem(key, source: holder)
        }
        invocation.report(
            "imported from \(quoted(path)): \(outcome.added) added, \(outcome.replaced) replaced, \(outcome.skipped) skipped",
            json: .object([
                ("file", .string(path)), ("added", .number(outcome.added)),
                ("replaced", .number(outcome.replaced)), ("skipped", .number(outcome.skipped))
            ]), asJSON: json)
    }

    /// The source holds more entries than --max-entries (or the default cap) lets one import take.
    static func tooManyEntries(_ count: Int, limit: Int) -> CommandFailure {
        CommandFailure(
            .usage, "the source holds \(count) entries, more than the \(limit) one import takes; nothing was imported",
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
