import VaultCore

/// `vault list`: the items that match, without secrets.
enum ListCommand {
    static func run(_ invocation: Invocation) throws {
        let query = try ItemArguments(invocation).query()
        let items = try VaultAccess(invocation).store().attributes(matching: query)
        let terminal = invocation.terminal
        if invocation.arguments.flag("json") {
            terminal.writeOut(ItemOutput.jsonArray(items) + "\n")
        } else if items.isEmpty {
            terminal.writeErr("vault: no items match\n")
        } else {
            terminal.writeOut(ItemOutput.table(items))
        }
    }
}
