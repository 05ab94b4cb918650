import VaultCore

/// `vault import`: adds the items of an export bundle, of a plaintext export (`--from vault-csv`
/// or `vault-json`: `PlaintextImport`), or (`--from FORMAT`) the entries of another password
/// manager's export (docs/IMPORT.md).
enum ImportCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let policy = ConflictPolicy(rawValue: arguments.value(.onConflict) ?? "fail") ?? .fail
        if let name = arguments.value(.from), let format = ImportFormat(rawValue: name) {
            try ForeignImport(invocation: invocation, format: format, policy: policy).run(source: arguments.positionals.first)
            return
        }
        for option in arguments.given(ForeignImport.options) {
            throw UsageError("--\(option.long) goes with --from FORMAT of another password manager",
                             hint: "name the format of the source, e.g. --from pass")
        }
        guard let path = arguments.positionals.first else {
            throw UsageError("no file named", hint: "give the bundle or plaintext export, or --from FORMAT to import another password manager's export")
        }
        if let format = arguments.value(.from) {
            try PlaintextImport.run(invocation, from: format, path: path, policy: policy)
            return
        }
        // Said before any passphrase is asked for: the vault's or the bundle's.
        guard KeyFile.exists(path: path) else { throw VaultError.noSuchFile(path: path, kind: .bundle) }
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let progress = ProgressLine.attach(to: vault, invocation, label: "import")
        defer { progress?.finish() }
        try addAll(from: path, holder: "the bundle", invocation) {
            try vault.importBundle(at: path, credential: try access.bundleCredential(BundleCredentialOptions(OptionReader(invocation.arguments)), creating: false), onConflict: policy)
        }
    }

    /// Runs an import (`add`) of the items of `path` and says what it did; an item that exists, with
    /// --on-conflict fail, is exit 45 naming it as held by `holder`.
    static func addAll(from path: String, holder: String, _ invocation: Invocation, add: () throws -> Vault.ImportOutcome) throws {
        let outcome: Vault.ImportOutcome
        do {
            outcome = try add()
        } catch VaultError.duplicateItem(let key) {
            throw existingItem(key, source: holder)
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
