import VaultCore

/// `vault get`: writes one item's secret exactly, or its attributes as JSON.
enum GetCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        if arguments.flag(.showSecret), !arguments.flag(.json) {
            throw UsageError("--show-secret goes with --json", hint: "add --json, or drop --show-secret to print the secret alone")
        }
        let field = try FieldChoice.requested(by: arguments)
        let clipboard = try ClipboardCopy.requested(by: invocation)
        let query = try ItemArguments(invocation).query()
        guard query.service != nil || query.account != nil || query.label != nil else {
            throw UsageError("no item named", hint: "name it as SERVICE/ACCOUNT or with -s SERVICE -a ACCOUNT")
        }
        let store = try VaultAccess(invocation).store()
        let conflictNumber = try arguments.value(.conflict).map { text in
            guard let number = Int(text), number >= 1 else {
                throw UsageError("invalid conflict number \(quoted(text))", hint: "give a number from 1 (the newest conflict); 'vault conflicts' counts them")
            }
            return number
        }
        if arguments.flag(.theirs) || conflictNumber != nil {
            guard field == nil, clipboard == nil, !arguments.flag(.json), arguments.value(.revision) == nil,
                  !(arguments.flag(.theirs) && conflictNumber != nil) else {
                throw UsageError("--theirs and --conflict print one other version's secret alone", hint: "give one of them, without --json, --field, --clip or --revision")
            }
            guard let vault = store as? Vault else {
                throw UsageError("--theirs and --conflict read a merge conflict of the vault file; the desktop keyring has none", hint: "drop --backend secret-service")
            }
            let other = try vault.otherVersion(matching: query, conflict: conflictNumber).item
            other.secret.withUnsafeBytes { invocation.terminal.writeOut($0) }
            if invocation.terminal.stdoutIsTTY { invocation.terminal.writeOut("\n") }
            return
        }
        if let text = arguments.value(.revision) {
            guard field == nil, clipboard == nil, !arguments.flag(.json) else {
                throw UsageError("--revision prints an earlier secret alone", hint: "drop --json, --field or --clip")
            }
            guard let number = Int(text), number >= 1 else {
                throw UsageError("invalid revision \(quoted(text))", hint: "give a number from 1 (the secret before the current one); 'vault history' lists them")
            }
            let (attributes, revisions) = try store.history(matching: query)
            if attributes.hasExpired(at: invocation.now) { throw VaultError.itemExpired(attributes) }
            guard number <= revisions.count else {
                throw VaultError.noRevision(ItemKey(group: attributes.group, service: attributes.service, account: attributes.account),
                                            requested: number, kept: revisions.count)
            }
            revisions[number - 1].secret.withUnsafeBytes { invocation.terminal.writeOut($0) }
            if invocation.terminal.stdoutIsTTY { invocation.terminal.writeOut("\n") }
            return
        }
        let item: Item
        do {
            item = try store.item(matching: query)
        } catch VaultError.itemNotFound(let missing) {
            let error = VaultError.itemNotFound(missing)
            // A scoped credential or member is told only of the groups it opens, never whether the item is elsewhere.
            if let scope = (store as? Vault)?.scopedCredential?.groups, missing.group == nil {
                let groups = scope.map { quoted($0.name) }.sorted().joined(separator: ", ")
                throw CommandFailure(.itemNotFound, ErrorReport(error).message,
                                     hint: NearNames.hint(for: query, in: store)
                                        ?? "your credential opens \(scope.count == 1 ? "group" : "groups") \(groups) only; name the item's group with --group")
            }
            guard let hint = NearNames.hint(for: query, in: store) else { throw error }
            throw CommandFailure(.itemNotFound, ErrorReport(error).message, hint: hint)
        }
        let terminal = invocation.terminal
        if let clipboard {
            try clipboard.copy(item.secret, of: item.attributes, invocation: invocation)
            return
        }
        switch field {
        case .attribute(let attribute)?:
            terminal.writeOut(attribute.text(of: item.attributes, now: invocation.now) + "\n")
        case .sealed(let sealed)?:
            item.fields[sealed]?.withUnsafeBytes { terminal.writeOut($0) }
            if terminal.stdoutIsTTY { terminal.writeOut("\n") }
        case nil where arguments.flag(.json):
            let shown = arguments.flag(.showSecret) ? item : nil
            terminal.writeOut(ItemOutput.json(item.attributes, secret: shown?.secret, fields: item.fields, showingFields: shown != nil,
                                              now: invocation.now) + "\n")
        case nil:
            item.secret.withUnsafeBytes { terminal.writeOut($0) }
            if terminal.stdoutIsTTY { terminal.writeOut("\n") }
        }
    }
}
