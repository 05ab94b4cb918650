import VaultCore

/// `vault rename`'s options.
struct RenameArguments: CommandArguments {
    var item: ItemSelection
    var toService: String?
    var toAccount: String?
    /// --to-group as given.
    var toGroup: String?
    /// --create-group: a new group one letter from an existing one is meant.
    var createGroup: Bool
    /// --keep-history: the earlier secrets move with the item.
    var keepHistory: Bool
    var json: Bool

    init(_ options: OptionReader) {
        item = ItemSelection(options)
        toService = options.value(.toService)
        toAccount = options.value(.toAccount)
        toGroup = options.value(.toGroup)
        createGroup = options.flag(.createGroup)
        keepHistory = options.flag(.keepHistory)
        json = options.flag(.json)
    }
}

/// `vault rename` (`vault mv`): gives one item a new service, account or
/// group in one atomic write, refusing a name that is taken.
enum RenameCommand {
    static func run(_ arguments: RenameArguments, _ invocation: Invocation) throws {
        let options = ItemArguments(arguments.item, invocation)
        let query = Query(service: try options.service(), account: try options.account(), group: try options.group())
        let toService = arguments.toService, toAccount = arguments.toAccount
        let toGroup = try arguments.toGroup.map(ItemArguments.group(named:))
        guard toService != nil || toAccount != nil || toGroup != nil else {
            throw UsageError("nothing to rename to", hint: "give --to-service, --to-account or --to-group")
        }
        let vault = try VaultAccess(invocation).vault()
        let groupCheck = NewGroupCheck(invocation: invocation, createGroup: arguments.createGroup)
        let createsGroup = try toGroup.map { try groupCheck.createsGroup($0, in: vault) } ?? false
        let (from, to, dropped) = try vault.move(matching: query, toService: toService, toAccount: toAccount, toGroup: toGroup,
                                                 keepingHistory: arguments.keepHistory)
        if createsGroup, let toGroup, !arguments.json { invocation.terminal.say("created group \(quoted(toGroup.name))") }
        if dropped > 0, !arguments.json {
            invocation.terminal.say("left \(counted(dropped, "earlier secret")) behind: the readers of group \(quoted(to.group.name)) "
                                    + "never read what only group \(quoted(from.group.name))'s could (--keep-history carries them)")
        }
        invocation.report("renamed \(describe(from)) to \(describe(to))",
                          json: .object([("from", .rendered(ItemOutput.json(from, now: invocation.now))), ("to", .rendered(ItemOutput.json(to, now: invocation.now))),
                                         ("dropped_revisions", .number(dropped))]), asJSON: arguments.json)
    }

    private static func describe(_ item: ItemAttributes) -> String {
        "service \(quoted(item.service)), account \(quoted(item.account)) in group \(quoted(item.group.name))"
    }
}
