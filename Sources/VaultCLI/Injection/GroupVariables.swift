import VaultCore
import VaultCrypto

/// The items of some groups as environment variables, each named by its env name (or the name
/// derived from service and account), read in one pass: what `vault env` prints and
/// `vault run --env-group` sets. Only the names the job accepts (`AcceptedNames`), or with none
/// those the groups' owner allowed (`OwnerAllowedNames`), are taken; two
/// items with one name are refused; an item whose secret is not text, or whose name is protected
/// (`ProtectedVariable`) and not allowed by `--allow-env-name`, is skipped with a warning naming it.
struct GroupVariables {
    private(set) var variables: [(name: String, value: SecretBytes)] = []
    /// The values of the items' sealed fields: not set as variables, but masked by `run` as the secrets are.
    private(set) var sealedFields: [SecretBytes] = []
    /// The protected names that were skipped: the command exits non-zero for them after doing the rest.
    private(set) var skippedProtected: [String] = []

    /// `accepted` are the names the job takes (nil: every name, for output that sets no variable;
    /// none named: those the groups' owner allowed, `OwnerAllowedNames`, else the refusal of
    /// `command`); `allowedNames` are the protected names --allow-env-name lets items set.
    init(_ invocation: Invocation, groups: [AccessGroup?], accepted: AcceptedNames?, allowedNames: [String], command: String) throws {
        let progress = ProgressLine.start(invocation, label: "reading secrets")
        let store = try VaultAccess(invocation).store(progress: progress)
        defer { progress?.finish() }
        var items: [Item] = []
        if groups.count == 1 {
            // One reading of one group gives each item once.
            items = try store.items(matching: Query(group: groups[0]))
        } else {
            var seen = Set<ItemKey>()
            for group in groups {
                for item in try store.items(matching: Query(group: group)) where seen.insert(item.attributes.key).inserted {
                    items.append(item)
                }
            }
        }
        progress?.finish()
        for item in items where !item.fields.isEmpty { sealedFields += item.secretValues.dropFirst() }
        let terminal = invocation.terminal
        if items.isEmpty {
            terminal.diagnostics.warning("\(ReadableSecrets.scope(groups)) \(groups.count > 1 ? "hold" : "holds") no item you can read")
        }
        // Each name made once; sorted by name, the items of one name are neighbours.
        var names = items.map { EnvironmentName.of($0.attributes) }
        if let accepted {
            let owners = accepted.isEmpty ? try OwnerAllowedNames(store, groups: groups, items: items, command: command) : nil
            let taken = names.indices.filter { owners?.accepts(names[$0], in: items[$0].attributes.group) ?? accepted.accepts(names[$0]) }
            for name in accepted.names where !taken.contains(where: { names[$0] == name }) {
                terminal.diagnostics.warning("no item of \(ReadableSecrets.scope(groups)) sets \(name)")
            }
            items = taken.map { items[$0] }
            names = taken.map { names[$0] }
        }
        let order = names.indices.sorted { names[$0] < names[$1] }
        for (first, second) in zip(order, order.dropFirst()) where names[first] == names[second] {
            let clashing = items.indices.filter { names[$0] == names[first] }.map { items[$0].attributes }
            throw CommandFailure(
                .usage, "\(clashing.count) items would set \(names[first])",
                details: clashing.map { "group \(quoted($0.group.name)), service \(quoted($0.service)), account \(quoted($0.account))" },
                hint: "give one another name with 'vault update … --keep-secret --env-name NAME', or pick a group with --group")
        }
        let allowed = Set(allowedNames)
        variables.reserveCapacity(items.count)
        for index in order {
            let name = names[index], attributes = items[index].attributes
            // Words for a warning only: most items never need them.
            func described() -> String {
                "service \(quoted(attributes.service)), account \(quoted(attributes.account)) in group \(quoted(attributes.group.name))"
            }
            if ProtectedVariable.contains(name), !allowed.contains(name) {
                terminal.diagnostics.warning(
                    "skipped \(name): the item \(described()) may not set it (it changes what programs of the job do); pass --allow-env-name \(name) if the job means it"
                )
                skippedProtected.append(name)
                continue
            }
            let secret = items[index].secret
            guard GroupVariables.isEnvironmentText(secret) else {
                terminal.diagnostics.warning(
                    "skipped \(name): the secret of \(described()) is not text, so it cannot be an environment variable; read it with 'vault get'"
                )
                continue
            }
            variables.append((name, secret))
        }
    }

    /// The error to end with when protected names were skipped, or nil.
    var skippedFailure: CommandFailure? {
        guard !skippedProtected.isEmpty else { return nil }
        return CommandFailure(
            .failure,
            "skipped \(counted(skippedProtected.count, "item")) whose variable name is protected: \(skippedProtected.joined(separator: ", "))",
            hint:
                "rename the item with 'vault update … --keep-secret --env-name NAME', or pass --allow-env-name NAME if the job means it (docs/RUN.md)"
        )
    }

    /// Whether a secret can be an environment variable's value: UTF-8 without NUL
    /// (checked in place, without copying it into a String).
    private static func isEnvironmentText(_ secret: SecretBytes) -> Bool {
        secret.withUnsafeBytes { bytes in
            guard !bytes.contains(0) else { return false }
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes.makeIterator()
            while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        }
    }
}
