import VaultCore

/// The words for Items/'s errors: items and groups, values, export bundles.
extension ErrorReport {
    /// A ItemError in words.
    static func describe(_ error: ItemError) -> ErrorReport {
        let status = error.status
        switch error {
        case .itemNotFound(let query):
            var listHint = "list what exists with: vault list"
            if let service = query.service { listHint += " --service=\(shellQuoted(service))" }
            return ErrorReport(status: status, message: "no item for \(describe(query))", hint: listHint)
        case .duplicateItem(let key):
            return ErrorReport(
                status: status,
                message:
                    "an item for service \(quoted(key.service)), account \(quoted(key.account)) already exists in group \(quoted(key.group.name))",
                hint: "replace it with 'vault add --update …', or change it with 'vault update'")
        case .ambiguous(let candidates):
            return ErrorReport(
                status: status, message: "\(candidates.count) items match; the command needs exactly one",
                details: candidates.map { "group \(quoted($0.group.name)), service \(quoted($0.service)), account \(quoted($0.account))" },
                hint:
                    "name one as GROUP/SERVICE/ACCOUNT or with --service, --account and --group, or use --all-matching where the command has it"
            )
        case .noRevision(let key, let requested, let kept):
            let names = "service \(quoted(key.service)), account \(quoted(key.account)) in group \(quoted(key.group.name))"
            return ErrorReport(
                status: status,
                message:
                    "\(names) keeps \(kept == 0 ? "no earlier secret" : counted(kept, "earlier secret")); there is no revision \(requested)",
                hint: kept == 0
                    ? "update keeps the secrets it replaces from now on (--keep N, default 5)"
                    : "list them with 'vault history -s \(shellQuoted(key.service)) -a \(shellQuoted(key.account))'")
        case .invalidValue(let value):
            return describe(value)
        case .itemExpired(let attributes):
            return ErrorReport(
                status: status,
                message:
                    "the item for service \(quoted(attributes.service)), account \(quoted(attributes.account)) in group \(quoted(attributes.group.name)) expired on \(attributes.details.expires.map(DateText.iso) ?? "?")",
                hint:
                    "store a new secret with 'vault update … --expires WHEN' (or --expires never), or remove expired items with 'vault wipe --expired'"
            )
        case .changedSinceShown:
            return ErrorReport(
                status: status, message: "the vault changed after the items to remove were shown; nothing was removed",
                hint: "run the command again to see the items as they are now")
        case .noSuchGroup(let group, let known):
            if let near = Suggestion.closest(to: group.name, among: known.map(\.name)) {
                return ErrorReport(
                    status: status, message: "no group \(quoted(group.name))",
                    hint: "did you mean \(quoted(near))? ('vault group list' shows every group)")
            }
            return ErrorReport(
                status: status, message: "no group \(quoted(group.name))",
                hint: "list the groups with 'vault group list', or create it with 'vault group create \(shellQuoted(group.name))'")
        case .groupExists(let group):
            return ErrorReport(
                status: status, message: "the group \(quoted(group.name)) already exists",
                hint: "use it as it is; 'vault group list' shows every group")
        }
    }

    private static func describe(_ query: Query) -> String {
        var parts: [String] = []
        if let service = query.service { parts.append("service \(quoted(service))") }
        if let account = query.account { parts.append("account \(quoted(account))") }
        if let group = query.group { parts.append("group \(quoted(group.name))") }
        if let label = query.label { parts.append("label \(quoted(label))") }
        if let accessibility = query.accessibility { parts.append("class \(quoted(accessibility.rawValue))") }
        return parts.isEmpty ? "the query" : parts.joined(separator: ", ")
    }

    /// A BundleError in words.
    static func describe(_ error: BundleError) -> ErrorReport {
        let status = error.status
        switch error {
        case .wrongBundleCredential(let kind):
            return ErrorReport(
                status: status,
                message: "the bundle \(kind == .keyFile ? "key file" : "passphrase") does not open the export bundle; nothing was imported",
                hint: kind == .keyFile
                    ? "give the key file the bundle was exported with: --bundle-key-file FILE"
                    : "give the passphrase the bundle was exported with: --bundle-passphrase-file FILE, or leave it out to be asked")
        case .noBundleKeyslot(let kind):
            let other =
                kind == .keyFile
                ? "a passphrase: give --bundle-passphrase-file FILE, or leave it out to be asked"
                : "a key file: give --bundle-key-file FILE"
            return ErrorReport(
                status: status,
                message: "the export bundle does not open with a \(kind == .keyFile ? "key file" : "passphrase"); nothing was imported",
                hint: "it was exported with \(other)")
        case .damagedBundle(let path, let detail):
            return ErrorReport(
                status: status, message: "the export bundle \(quoted(path)) is damaged: \(detail)",
                hint: "nothing was imported; export it again from the vault it came from")
        }
    }
}
