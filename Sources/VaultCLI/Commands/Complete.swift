import VaultCore

/// `vault __complete`'s arguments.
struct CompleteArguments: CommandArguments {
    static let notes = OptionSpec(
        "notes",
        help: "then, when names were not offered because they are locked, a line saying so that starts with a tab (no name holds one)")

    static let options: [OptionSpec] = [
        ItemSelection.service.with(help: "only accounts of this service"),
        OptionSpec(
            ItemSelection.group.name, value: "GROUP", help: "only names of this group's items (the --group on the line being completed)"),
        notes
    ]

    /// groups, services, accounts or items.
    var kind: String?
    /// --service: only the accounts of this service.
    var service: String?
    /// --group: only the names of this group's items.
    var group: String?
    /// --notes: a last line saying how many names were locked.
    var notes: Bool

    init(_ options: OptionReader) {
        kind = options.positionals.first
        service = options.value(ItemSelection.service)
        group = options.value(ItemSelection.group)
        notes = options.flag(CompleteArguments.notes)
    }
}

/// `vault __complete groups|services|accounts|items [--service S] [--group G]`: names for
/// shell completion, one per line. Never prompts and never waits: it reads only
/// what opens at once (a locked vault gives what opens without an unlock, often
/// nothing), and leaves out names with control characters, which would reach
/// the terminal raw. groups are every group the keys open, items or none;
/// items are the item names commands take as their one positional argument,
/// SERVICE/ACCOUNT and GROUP/SERVICE/ACCOUNT, percent-encoded as they must be; with --group, only
/// that group's (`get --group ci <TAB>`).
/// With --notes, a last line starting with a tab says how many were locked:
/// zsh shows it under the names; bash and fish have no place to (see docs/CLI.md).
enum CompleteCommand {
    static func run(_ arguments: CompleteArguments, _ invocation: Invocation) throws {
        // A --group that names no valid group offers nothing, as the command would find nothing.
        var group: AccessGroup?
        if let name = arguments.group {
            guard let named = AccessGroup(name) else { return }
            group = named
        }
        let query = Query(service: arguments.service, group: group)
        guard let kind = arguments.kind,
            let vault = try? VaultAccess(invocation).vaultOpeningAtOnce()
        else { return }
        let names: [String]
        // What was not offered: how many of what (no count: every group, how many unknown).
        let locked: (count: Int?, noun: String)?
        switch kind {
        case "groups":
            do {
                let (groups, unopened) = try vault.groupNames()
                names = groups.map(\.name)
                locked = unopened > 0 ? (unopened, "group") : nil
            } catch VaultError.unlock(.locked) {
                (names, locked) = ([], (nil, "group"))
            } catch {
                return
            }
        case "services", "accounts", "items":
            guard let listing = try? vault.listing(matching: query) else { return }
            let items = listing.items
            locked = listing.locked > 0 ? (listing.locked, "item") : nil
            names =
                switch kind {
                case "services": items.map(\.service)
                case "accounts": items.map(\.account)
                default:
                    items.flatMap { item in
                        [
                            SecretReference(service: item.service, account: item.account).shortName,
                            SecretReference(group: item.group, service: item.service, account: item.account).shortName
                        ]
                    }
                }
        default: return
        }
        let printable = Set(names).filter { !$0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } }.sorted()
        var output = printable.map { $0 + "\n" }.joined()
        if arguments.notes, let locked {
            let what = locked.count.map { counted($0, locked.noun) } ?? locked.noun + "s"
            output += "\t\(what) not offered: locked (unlock to complete \(locked.count == 1 ? "it" : "them"))\n"
        }
        invocation.terminal.writeOut(output)
    }
}
