import VaultCore

/// `vault history`'s options, worded for it.
enum HistoryOptions: OptionWording {
    static let options = [ItemSelection.service, ItemSelection.account, ItemSelection.group, JSONArguments.json]
}

/// `vault history`: the earlier secrets an item keeps, listed without the secrets.
enum HistoryCommand {
    static func run(_ arguments: ItemJSONArguments<HistoryOptions>, _ invocation: Invocation) throws {
        let options = ItemArguments(arguments.item, invocation)
        let query = Query(service: try options.service(), account: try options.account(), group: try options.group())
        guard query.service != nil || query.account != nil else {
            throw UsageError("no item named", hint: "name it as SERVICE/ACCOUNT or with -s SERVICE -a ACCOUNT")
        }
        let (attributes, revisions) = try VaultAccess(invocation).store().history(matching: query)
        let terminal = invocation.terminal
        if arguments.json {
            let entries = revisions.enumerated().map { number, revision in
                JSONValue.object([
                    ("revision", .number(number + 1)), ("set", .string(DateText.iso(revision.setAt))),
                    ("replaced", .string(DateText.iso(revision.replacedAt)))
                ])
            }
            terminal.writeOut(JSONValue.array(entries).text + "\n")
        } else if revisions.isEmpty {
            terminal.say("service \(quoted(attributes.service)), account \(quoted(attributes.account)) keeps no earlier secret")
        } else {
            var lines = "REVISION  SET                   REPLACED\n"
            for (number, revision) in revisions.enumerated() {
                let revisionColumn = String(number + 1)
                lines +=
                    revisionColumn + String(repeating: " ", count: max(0, 8 - revisionColumn.count))
                    + "  \(DateText.iso(revision.setAt))  \(DateText.iso(revision.replacedAt))\n"
            }
            terminal.writeOut(lines)
        }
    }
}

extension ItemStore {
    /// The history of the one item that matches `query`: what the file backend keeps.
    func history(matching query: Query) throws -> (attributes: ItemAttributes, revisions: [SecretRevision]) {
        try keepingHistory().history(matching: query)
    }

    /// The store as the vault file, the backend that keeps earlier secrets; the desktop keyring keeps none, and says so.
    func keepingHistory() throws -> any FileVaultFeatures {
        guard let vault = fileVault else {
            throw UsageError(
                "the desktop keyring keeps no earlier secrets", hint: "history, get --revision and update --undo need the file backend")
        }
        return vault
    }
}
