import VaultCore

/// `vault __complete groups|services|accounts`: names for shell completion.
/// Prints nothing, and never prompts, when the vault cannot be read as it is.
enum CompleteCommand {
    static func run(_ invocation: Invocation) throws {
        var access = VaultAccess(invocation)
        access.invocation.arguments.options["no-interaction"] = [""]
        guard let kind = invocation.arguments.positionals.first,
              let items = try? access.store().attributes(matching: Query()) else { return }
        let names: [String]
        switch kind {
        case "groups": names = items.map(\.group.name)
        case "services": names = items.map(\.service)
        case "accounts": names = items.map(\.account)
        default: return
        }
        let printable = Set(names).filter { !$0.contains("\n") }.sorted()
        invocation.terminal.writeOut(printable.map { $0 + "\n" }.joined())
    }
}
