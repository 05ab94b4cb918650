import VaultCore

/// `vault __complete groups|services|accounts|items [--service S]`: names for
/// shell completion, one per line. Never prompts and never waits: it reads only
/// what opens at once (a locked vault gives what opens without an unlock, often
/// nothing), and leaves out names with control characters, which would reach
/// the terminal raw. groups are every group the keys open, items or none;
/// items are the item names commands take as their one positional argument,
/// SERVICE/ACCOUNT and GROUP/SERVICE/ACCOUNT, percent-encoded as they must be.
enum CompleteCommand {
    static func run(_ invocation: Invocation) throws {
        let query = Query(service: invocation.arguments.value(.service))
        guard let kind = invocation.arguments.positionals.first,
              let vault = try? VaultAccess(invocation).vaultOpeningAtOnce() else { return }
        let names: [String]
        switch kind {
        case "groups":
            guard let groups = try? vault.groups().groups else { return }
            names = groups.map(\.group.name)
        case "services", "accounts", "items":
            guard let items = try? vault.listing(matching: query).items else { return }
            names = switch kind {
            case "services": items.map(\.service)
            case "accounts": items.map(\.account)
            default: items.flatMap { item in
                [SecretReference(service: item.service, account: item.account).shortName,
                 SecretReference(group: item.group, service: item.service, account: item.account).shortName]
            }
            }
        default: return
        }
        let printable = Set(names).filter { !$0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } }.sorted()
        invocation.terminal.writeOut(printable.map { $0 + "\n" }.joined())
    }
}
