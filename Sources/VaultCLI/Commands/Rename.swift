import VaultCore

/// `vault rename`'s options.
struct RenameArguments: CommandArguments {
    static let toService = OptionSpec("to-service", value: "SERVICE", help: "the new service", completion: .service)
    static let toAccount = OptionSpec("to-account", value: "ACCOUNT", help: "the new account", completion: .account)
    static let toGroup = OptionSpec("to-group", value: "GROUP", help: "the group to move the item to", completion: .group)
    static let keepHistory = OptionSpec("keep-history", help: "carry the item's earlier secrets into the new group too")

    static let options = [
        ItemSelection.service, ItemSelection.account, ItemSelection.group, toService, toAccount, toGroup,
        NewGroupCheck.createGroup.with(help: "create the new group even when its name is one letter away from an existing group's"),
        keepHistory, JSONArguments.resultJSON
    ]

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
        toService = options.value(Self.toService)
        toAccount = options.value(Self.toAccount)
        toGroup = options.value(Self.toGroup)
        createGroup = options.flag(NewGroupCheck.createGroup)
        keepHistory = options.flag(Self.keepHistory)
        json = options.flag(JSONArguments.json)
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
        let (from, to, dropped) = try vault.move(
            matching: query, toService: toService, toAccount: toAccount, toGroup: toGroup,
            keepingHistory: arguments.keepHistory)
        if createsGroup, let toGroup, !arguments.json { invocation.terminal.say("created group \(quoted(toGroup.name))") }
        if dropped > 0, !arguments.json {
            invocation.terminal.say(
                "left \(counted(dropped, "earlier secret")) behind: the readers of group \(quoted(to.group.name)) "
                    + "never read what only group \(quoted(from.group.name))'s could (--keep-history carries them)")
        }
        invocation.report(
            "renamed \(describe(from)) to \(describe(to))",
            json: .object([
                ("from", .rendered(ItemOutput.json(from, now: invocation.now))),
                ("to", .rendered(ItemOutput.json(to, now: invocation.now))),
                ("dropped_revisions", .number(dropped))
            ]), asJSON: arguments.json)
    }

    private static func describe(_ item: ItemAttributes) -> String {
        "service \(quoted(item.service)), account \(quoted(item.account)) in group \(quoted(item.group.name))"
    }
}
