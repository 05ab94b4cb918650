import VaultCore

/// `vault list`: the items that match, without secrets.
enum ListCommand {
    static func run(_ invocation: Invocation) throws {
        let query = try ItemArguments(invocation).query()
        let access = VaultAccess(invocation)
        var (items, locked, damagedGroups) = try access.store().listing(matching: query)
        // In place: a copy of 100 000 items' attributes costs more than sorting them.
        let names = NameFilter(invocation.arguments)
        items.removeAll { !names.matches($0) }
        items.sort { ($0.group.name, $0.service, $0.account) < ($1.group.name, $1.service, $1.account) }
        let terminal = invocation.terminal
        if locked > 0 {
            terminal.writeErr("vault: \(counted(locked, "item")) not listed: locked (unlock to see \(locked == 1 ? "it" : "them")) or bound to another device\n")
        }
        if invocation.arguments.flag(.json) {
            terminal.writeOut(ItemOutput.jsonArray(items, now: invocation.now) + "\n")
        } else if items.isEmpty {
            terminal.say("no items match")
        } else {
            terminal.writeOut(ItemOutput.table(items, now: invocation.now))
        }
        // The healthy groups are listed above; the damaged one is named, and the exit status says so.
        if let damaged = damagedGroups.first {
            throw VaultError.damagedGroup(path: access.location.path, group: damaged)
        }
    }
}
