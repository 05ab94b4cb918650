import VaultCore

/// `vault rename` (`vault mv`): gives one item a new service, account or
/// group in one atomic write, refusing a name that is taken.
enum RenameCommand {
    static func run(_ invocation: Invocation) throws {
        let options = ItemArguments(invocation)
        let arguments = invocation.arguments
        let query = Query(service: try options.service(), account: try options.account(), group: try options.group())
        let toService = arguments.value(.toService), toAccount = arguments.value(.toAccount)
        let toGroup = try arguments.value(.toGroup).map(ItemArguments.group(named:))
        guard toService != nil || toAccount != nil || toGroup != nil else {
            throw UsageError("nothing to rename to", hint: "give --to-service, --to-account or --to-group")
        }
        let vault = try VaultAccess(invocation).vault()
        let createsGroup = try toGroup.map { try NewGroupCheck(invocation: invocation).createsGroup($0, in: vault) } ?? false
        let (from, to, dropped) = try vault.move(matching: query, toService: toService, toAccount: toAccount, toGroup: toGroup,
                                                 keepingHistory: arguments.flag(.keepHistory))
        if createsGroup, let toGroup, !invocation.wantsJSON { invocation.terminal.say("created group \(quoted(toGroup.name))") }
        if dropped > 0, !invocation.wantsJSON {
            invocation.terminal.say("left \(counted(dropped, "earlier secret")) behind: the readers of group \(quoted(to.group.name)) "
                                    + "never read what only group \(quoted(from.group.name))'s could (--keep-history carries them)")
        }
        invocation.report("renamed \(describe(from)) to \(describe(to))",
                          json: .object([("from", .rendered(ItemOutput.json(from, now: invocation.now))), ("to", .rendered(ItemOutput.json(to, now: invocation.now))),
                                         ("dropped_revisions", .number(dropped))]))
    }

    private static func describe(_ item: ItemAttributes) -> String {
        "service \(quoted(item.service)), account \(quoted(item.account)) in group \(quoted(item.group.name))"
    }
}
