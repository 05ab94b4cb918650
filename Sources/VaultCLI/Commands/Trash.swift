import FoundationEssentials
import VaultCore

/// `vault trash`'s options, worded for it.
enum TrashOptions: OptionWording {
    static let options = [
        ItemSelection.service.with(help: "only items of this service"), ItemSelection.account.with(help: "only items of this account"),
        ItemSelection.group, JSONArguments.json
    ]
}

/// `vault trash`: what `delete` kept, newest deletion first, with list's columns after the deletion date.
enum TrashCommand {
    static func run(_ arguments: ItemJSONArguments<TrashOptions>, _ invocation: Invocation) throws {
        let options = ItemArguments(arguments.item, invocation)
        let query = Query(
            service: arguments.item.service, account: arguments.item.account,
            group: try options.group())
        var (items, locked) = try VaultAccess(invocation).vault().trash(matching: query)
        items.sort { $0.deletedAt > $1.deletedAt }
        let terminal = invocation.terminal
        let now = invocation.now
        // How many the keys at hand cannot open is not said: the trash block is sealed, so its count is not public.
        if locked > 0 {
            terminal.diagnostics.notice(
                "trashed items of classes the keys at hand do not open are not listed: unlock to see them (or they are bound to another device)"
            )
        }
        let deleted = items.map { DateText.iso($0.deletedAt) }
        if arguments.json {
            // Each item as list --json shows it, with the deletion date as one more field.
            let objects = zip(items, deleted).map { item, date in
                JSONValue.rendered(
                    String(ItemOutput.json(item.attributes, now: now).dropLast()) + ",\"deleted\":" + ItemOutput.jsonString(date) + "}")
            }
            terminal.writeOut(JSONValue.array(objects).text + "\n")
        } else if items.isEmpty {
            terminal.say("the trash is empty")
        } else if terminal.stdoutIsTTY {
            let lines = ItemOutput.table(items.map(\.attributes), now: now).split(separator: "\n", omittingEmptySubsequences: false)
            let width = DateText.iso(now).count
            var text = "DELETED" + String(repeating: " ", count: width - 7 + 2) + lines[0] + "\n"
            for (date, line) in zip(deleted, lines.dropFirst()) { text += date + "  " + line + "\n" }
            terminal.writeOut(text)
        } else {
            var rows: [UInt8] = []
            ItemOutput.writeRows(items.map(\.attributes), now: now) { rows.append(contentsOf: $0) }
            let lines = rows.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            var text = ""
            for (date, line) in zip(deleted, lines) { text += date + "\t" + String(decoding: line, as: UTF8.self) + "\n" }
            terminal.writeOut(text)
        }
    }
}
