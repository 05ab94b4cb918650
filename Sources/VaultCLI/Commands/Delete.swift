import VaultCore

/// `vault delete`: removes one item, or every match with --all-matching.
enum DeleteCommand {
    static func run(_ invocation: Invocation) throws {
        let query = try ItemArguments(invocation).query()
        guard query.service != nil || query.account != nil || query.label != nil || query.group != nil else {
            throw UsageError("no item named", hint: "name it as SERVICE/ACCOUNT or with -s SERVICE -a ACCOUNT (add --all-matching to delete several)")
        }
        let access = VaultAccess(invocation)
        let store = try access.store()
        let allMatching = invocation.arguments.flag(.allMatching)
        if !invocation.arguments.flag(.yes), access.reasonPromptsAreOff == nil {
            try confirm(deleting: try store.attributes(matching: query), allMatching: allMatching, terminal: invocation.terminal)
        }
        let deleted = try store.delete(matching: query, allMatching: allMatching)
        invocation.report("deleted \(counted(deleted.count, "item"))", json: .object([("deleted", .items(deleted, now: invocation.now))]))
    }

    /// Names what a delete on a terminal is about to remove and asks; anything but y stops it (128).
    /// Nothing to ask about (no match, several without --all-matching) is left to the delete to say.
    private static func confirm(deleting matches: [ItemAttributes], allMatching: Bool, terminal: Terminal) throws {
        guard !matches.isEmpty, matches.count == 1 || allMatching else { return }
        let what = matches.count == 1
            ? "service \(quoted(matches[0].service)), account \(quoted(matches[0].account)) in group \(quoted(matches[0].group.name))"
            : counted(matches.count, "item")
        let answer = try terminal.readLine(prompt: "vault: delete \(what)? [y/N] ")
        guard let answer, ["y", "yes"].contains(answer.lowercased()) else {
            throw CommandFailure(.userCanceled, "not deleted; nothing was changed", hint: "answer y, or add --yes to delete without asking")
        }
    }
}
