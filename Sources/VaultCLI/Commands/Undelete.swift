import VaultCore

/// `vault undelete`'s options, worded for it.
enum UndeleteOptions: OptionWording {
    static let options = [ItemSelection.service, ItemSelection.account, ItemSelection.group, JSONArguments.resultJSON]
}

/// `vault undelete`: brings one item back from the trash.
enum UndeleteCommand {
    static func run(_ arguments: ItemJSONArguments<UndeleteOptions>, _ invocation: Invocation) throws {
        let options = ItemArguments(arguments.item, invocation)
        let query = Query(service: try options.service(), account: try options.account(), group: try options.group())
        let restored = try VaultAccess(invocation).vault().undelete(matching: query)
        invocation.report(
            "brought back service \(quoted(restored.service)), account \(quoted(restored.account)) in group \(quoted(restored.group.name))",
            json: .object([("undeleted", .items([restored], now: invocation.now))]), asJSON: arguments.json)
    }
}
