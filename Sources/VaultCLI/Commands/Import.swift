import VaultCore

/// `vault import`: adds the items of an export bundle, or (`--from FORMAT`) the entries of
/// another password manager's export (docs/IMPORT.md).
enum ImportCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let policy = ConflictPolicy(rawValue: arguments.value(.onConflict) ?? "fail") ?? .fail
        if let name = arguments.value(.from) {
            guard let format = ImportFormat(rawValue: name) else { preconditionFailure("the table lists the formats") }
            try ForeignImport(invocation: invocation, format: format, policy: policy).run(source: arguments.positionals.first)
            return
        }
        for option in arguments.given(ForeignImport.options) {
            throw UsageError("--\(option.long) goes with --from FORMAT", hint: "name the format of the source, e.g. --from pass")
        }
        guard let path = arguments.positionals.first else {
            throw UsageError("no bundle named", hint: "give the bundle file, or --from FORMAT to import another password manager's export")
        }
        // Said before any passphrase is asked for: the vault's or the bundle's.
        guard KeyFile.exists(path: path) else { throw VaultError.noSuchFile(path: path, kind: .bundle) }
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let outcome: Vault.ImportOutcome
        let progress = ProgressLine.attach(to: vault, invocation, label: "import")
        defer { progress?.finish() }
        do {
            outcome = try vault.importBundle(at: path, credential: try access.bundleCredential(creating: false), onConflict: policy)
        } catch VaultError.duplicateItem(let key) {
            throw existingItem(key, source: "the bundle")
        }
        invocation.report("imported from \(quoted(path)): \(outcome.added) added, \(outcome.replaced) replaced, \(outcome.skipped) skipped",
                          json: .object([("file", .string(path)), ("added", .number(outcome.added)),
                                         ("replaced", .number(outcome.replaced)), ("skipped", .number(outcome.skipped))]))
    }

    /// `--on-conflict fail` met an item that exists.
    static func existingItem(_ key: ItemKey, source: String) -> CommandFailure {
        CommandFailure(
            .duplicateItem,
            "\(source) holds service \(quoted(key.service)), account \(quoted(key.account)) of group \(quoted(key.group.name)), which exists here; nothing was imported",
            hint: "choose what to do with such items: --on-conflict skip or --on-conflict replace")
    }
}
