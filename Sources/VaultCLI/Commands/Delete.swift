import VaultCore

/// `vault delete`'s options.
struct DeleteArguments: CommandArguments {
    static let allMatching = OptionSpec("all-matching", help: "delete every item that matches instead of exactly one")

    static let options = [
        ItemSelection.service, ItemSelection.account, ItemSelection.group, ItemSelection.label, allMatching,
        SharedOptions.yes.with(help: "delete without asking on a terminal"), JSONArguments.resultJSON
    ]

    var item: ItemSelection
    /// --all-matching: every item that matches, not one.
    var allMatching: Bool
    /// --yes: delete without asking on a terminal.
    var yes: Bool
    var json: Bool

    init(_ options: OptionReader) {
        item = ItemSelection(options, label: true)
        allMatching = options.flag(Self.allMatching)
        yes = options.flag(SharedOptions.yes)
        json = options.flag(JSONArguments.json)
    }
}

/// `vault delete`: removes one item, or every match with --all-matching.
enum DeleteCommand {
    static func run(_ arguments: DeleteArguments, _ invocation: Invocation) throws {
        let query = try ItemArguments(arguments.item, invocation).query()
        guard query.service != nil || query.account != nil || query.label != nil || query.group != nil else {
            throw UsageError(
                "no item named", hint: "name it as SERVICE/ACCOUNT or with -s SERVICE -a ACCOUNT (add --all-matching to delete several)")
        }
        let access = VaultAccess(invocation)
        let store = try access.store()
        let allMatching = arguments.allMatching
        if !arguments.yes, access.reasonPromptsAreOff == nil {
            try confirm(deleting: try store.attributes(matching: query), allMatching: allMatching, terminal: invocation.terminal)
        }
        let deleted = try store.delete(matching: query, allMatching: allMatching)
        // The vault file keeps what delete removes in its trash; the desktop keyring keeps nothing.
        let kept = store.fileVault != nil ? " (kept in the trash: 'vault trash' lists it, 'vault undelete' brings it back)" : ""
        invocation.report(
            "deleted \(counted(deleted.count, "item"))" + kept, json: .object([("deleted", .items(deleted, now: invocation.now))]),
            asJSON: arguments.json)
    }

    /// Names what a delete on a terminal is about to remove and asks; anything but y stops it (128).
    /// Nothing to ask about (no match, several without --all-matching) is left to the delete to say.
    private static func confirm(deleting matches: [ItemAttributes], allMatching: Bool, terminal: Terminal) throws {
        guard !matches.isEmpty, matches.count == 1 || allMatching else { return }
        let what =
            matches.count == 1
            ? "service \(quoted(matches[0].service)), account \(quoted(matches[0].account)) in group \(quoted(matches[0].group.name))"
            : counted(matches.count, "item")
        let answer = try terminal.readLine(prompt: "vault: delete \(what)? [y/N] ")
        guard let answer, ["y", "yes"].contains(answer.lowercased()) else {
            throw CommandFailure(.userCanceled, "not deleted; nothing was changed", hint: "answer y, or add --yes to delete without asking")
        }
    }
}
