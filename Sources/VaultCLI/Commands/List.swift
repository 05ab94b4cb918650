import VaultCore

/// `vault list`'s options.
struct ListArguments: CommandArguments {
    static let options =
        [
            ItemSelection.service.with(help: "only items of this service"), ItemSelection.account.with(help: "only items of this account"),
            ItemSelection.group, ItemSelection.accessibility("only items of this accessibility class"), NameFilter.search
        ] + NameFilter.globs + [JSONArguments.json]

    var item: ItemSelection
    var names: NameFilter
    var json: Bool

    init(_ options: OptionReader) {
        item = ItemSelection(options, class: true)
        names = NameFilter(options)
        json = options.flag(JSONArguments.json)
    }
}

/// `vault list`: the items that match, without secrets.
enum ListCommand {
    static func run(_ arguments: ListArguments, _ invocation: Invocation) throws {
        let query = try ItemArguments(arguments.item, invocation).query()
        let access = VaultAccess(invocation)
        var (items, locked, damagedGroups) = try access.store().listing(matching: query)
        // In place: a copy of 100 000 items' attributes costs more than sorting them.
        let names = arguments.names
        items.removeAll { !names.matches($0) }
        sortByName(&items)
        let terminal = invocation.terminal
        if locked > 0 {
            terminal.diagnostics.notice(
                "\(counted(locked, "item")) not listed: locked (unlock to see \(locked == 1 ? "it" : "them")) or bound to another device")
        }
        if arguments.json {
            terminal.writeOut(ItemOutput.jsonArray(items, now: invocation.now) + "\n")
        } else if items.isEmpty {
            terminal.say("no items match")
        } else if terminal.stdoutIsTTY {
            ItemOutput.writeTable(items, now: invocation.now) { terminal.writeOut($0) }
        } else {
            ItemOutput.writeRows(items, now: invocation.now) { terminal.writeOut($0) }
        }
        // The healthy groups are listed above; the damaged one is named, and the exit status says so.
        if let damaged = damagedGroups.first {
            throw VaultError.damagedGroup(path: access.location.path, group: damaged)
        }
    }

    /// Sorts by group, service and account, each compared case-folded first (Unicode's default
    /// lower case, the same in every locale: `aws` beside `AWS Console`, not after every capital),
    /// then as written, so the order is total. Sorting 100 000 items' attributes in place would
    /// move each many times; their positions are sorted instead (field by field: a tuple of the
    /// three strings per comparison retains and releases each), and each item then moved once,
    /// cycle by cycle. The folded names are made once per item, not per comparison.
    private static func sortByName(_ items: inout [ItemAttributes]) {
        let folded = items.map { SortKey(group: $0.group.name, service: $0.service, account: $0.account) }
        var order = Array(items.indices)
        order.sort { a, b in
            let (x, y) = (folded[a], folded[b])
            if x.group != y.group { return x.group < y.group }
            if x.service != y.service { return x.service < y.service }
            if x.account != y.account { return x.account < y.account }
            if items[a].group.name != items[b].group.name { return items[a].group.name < items[b].group.name }
            return items[a].service != items[b].service ? items[a].service < items[b].service : items[a].account < items[b].account
        }
        // order[i] is the position whose item belongs at i: follow each cycle once.
        var placed = [Bool](repeating: false, count: items.count)
        for start in items.indices where !placed[start] {
            var at = start
            while order[at] != start {
                items.swapAt(at, order[at])
                placed[at] = true
                at = order[at]
            }
            placed[at] = true
        }
    }

    /// An item's names in lower case, for the order `list` shows.
    private struct SortKey {
        let group: String
        let service: String
        let account: String

        init(group: String, service: String, account: String) {
            self.group = group.lowercased()
            self.service = service.lowercased()
            self.account = account.lowercased()
        }
    }
}
