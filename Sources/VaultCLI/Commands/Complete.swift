import VaultCore

/// `vault __complete groups|services|accounts [--service S]`: names for shell
/// completion, one per line. Never prompts and never waits: it reads only what
/// opens at once (a locked vault gives what opens without an unlock, often
/// nothing), and leaves out names with control characters, which would reach
/// the terminal raw.
enum CompleteCommand {
    static func run(_ invocation: Invocation) throws {
        let query = Query(service: invocation.arguments.value(.service))
        guard let kind = invocation.arguments.positionals.first,
              let vault = try? VaultAccess(invocation).vaultOpeningAtOnce(),
              let items = try? vault.listing(matching: query).items else { return }
        let names: [String]
        switch kind {
        case "groups": names = items.map(\.group.name)
        case "services": names = items.map(\.service)
        case "accounts": names = items.map(\.account)
        default: return
        }
        let printable = Set(names).filter { !$0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } }.sorted()
        invocation.terminal.writeOut(printable.map { $0 + "\n" }.joined())
    }
}
