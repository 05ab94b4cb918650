import FoundationEssentials
import VaultCore

/// `vault wipe`'s options.
struct WipeArguments: CommandArguments {
    static let expired = OptionSpec("expired", help: "only items whose expiry date has come")
    static let olderThan = OptionSpec(
        "older-than", value: "WHEN", help: "only items last changed longer ago than a duration (90d, 12h) or before a date (2026-01-31)")
    static let trash = OptionSpec("trash", help: "empty the trash (what delete kept) instead; takes only --group")
    static let yes = OptionSpec(SharedOptions.yes.name, short: "y", help: "confirm without asking (needed without a terminal)")
    static let dryRun = OptionSpec("dry-run", short: "n", help: "show what would be removed, and change nothing")

    static let options: [OptionSpec] =
        [
            OptionSpec(ItemSelection.group.name, value: "GROUP", help: "only items of this group", completion: .group),
            ItemSelection.service.with(help: "only items of this service"),
            ItemSelection.account.with(help: "only items of this account")
        ] + NameFilter.globs + [
            expired,
            olderThan,
            OptionSpec(LockArguments.all.name, help: "every item of the vault"),
            trash,
            dryRun,
            yes,
            JSONArguments.resultJSON
        ]

    var group: String?
    var service: String?
    var account: String?
    var serviceGlob: String?
    var accountGlob: String?
    /// --expired: only expired items.
    var expired: Bool
    /// --older-than: a duration or a date.
    var olderThan: Converted<PointInTime>?
    /// --all: every item.
    var all: Bool
    /// --trash: empty the trash instead.
    var trash: Bool
    var dryRun: Bool
    var yes: Bool
    var json: Bool

    init(_ options: OptionReader) {
        group = options.value(ItemSelection.group)
        service = options.value(ItemSelection.service)
        account = options.value(ItemSelection.account)
        serviceGlob = options.value(NameFilter.serviceGlob)
        accountGlob = options.value(NameFilter.accountGlob)
        expired = options.flag(WipeArguments.expired)
        olderThan = options.value(WipeArguments.olderThan).map { text in
            Converted(text) { try PointInTime(WipeArguments.olderThan.name.long, $0) }
        }
        all = options.flag(LockArguments.all)
        trash = options.flag(WipeArguments.trash)
        dryRun = options.flag(WipeArguments.dryRun)
        yes = options.flag(SharedOptions.yes)
        json = options.flag(JSONArguments.json)
    }

    /// The filters given, besides --group, in the order `--trash` names them.
    private var filtersButGroup: [(OptionName, Bool)] {
        [
            (ItemSelection.service.name, service != nil), (ItemSelection.account.name, account != nil),
            (NameFilter.serviceGlob.name, serviceGlob != nil),
            (NameFilter.accountGlob.name, accountGlob != nil),
            (WipeArguments.expired.name, expired), (WipeArguments.olderThan.name, olderThan != nil)
        ]
    }

    func validate() throws {
        if trash {
            if let other = (filtersButGroup + [(LockArguments.all.name, all), (WipeArguments.dryRun.name, dryRun)]).first(where: \.1)?.0 {
                throw UsageError(
                    "--trash empties the trash and takes no --\(other.long)",
                    hint: "drop --\(other.long); --group alone narrows it to one group")
            }
            return
        }
        let narrowed = group != nil || filtersButGroup.contains(where: \.1)
        if all, narrowed {
            throw UsageError("--all wipes every item and takes no filter", hint: "drop --all, or drop the filters")
        }
        if !all, !narrowed {
            throw UsageError(
                "nothing to wipe named",
                hint: "give --group, --service, --account, a glob, --expired or --older-than, or --all for every item")
        }
    }
}

/// `vault wipe`: removes the items that match every filter given.
enum WipeCommand {
    static func run(_ arguments: WipeArguments, _ invocation: Invocation) throws {
        if arguments.trash { return try emptyTrash(arguments, invocation) }
        let filter = try self.filter(arguments, now: invocation.now)
        let access = VaultAccess(invocation)
        let progress = ProgressLine.start(invocation, label: "wipe")
        let vault = try access.vault(progress: progress)
        defer { progress?.finish() }
        if arguments.dryRun {
            let plan = try vault.wipe(filter, dryRun: true)
            if !arguments.json { invocation.terminal.writeOut(WipeRun.describe(plan, now: invocation.now)) }
            invocation.report(
                "dry run: would have \(WipeRun.summary(plan)); nothing was changed",
                json: WipeRun.json(plan, dryRun: true, now: invocation.now),
                asJSON: arguments.json)
            return
        }
        let outcome = try WipeRun(invocation: invocation, access: access, confirmed: arguments.yes).perform(
            filter, on: vault, confirm: true)
        invocation.report(WipeRun.summary(outcome), json: WipeRun.json(outcome, dryRun: false, now: invocation.now), asJSON: arguments.json)
    }

    /// `wipe --trash`: empties the trash (of --group alone), after a yes.
    private static func emptyTrash(_ arguments: WipeArguments, _ invocation: Invocation) throws {
        let group = try arguments.group.map(ItemArguments.group(named:))
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let (items, locked) = try vault.trash(matching: Query(group: group))
        let count = items.count + locked
        if count > 0 {
            try Confirmation.require(
                invocation, confirmed: arguments.yes, access: access, question: "Remove \(counted(count, "item")) from the trash for good?")
        }
        let removed = count > 0 ? try vault.emptyTrash(group: group) : 0
        invocation.report(
            "emptied the trash: \(counted(removed, "item")) removed", json: .object([("removed_from_trash", .number(removed))]),
            asJSON: arguments.json)
    }

    private static func filter(_ arguments: WipeArguments, now: Date) throws -> WipeFilter {
        var filter = WipeFilter(
            query: Query(
                service: arguments.service, account: arguments.account,
                group: try arguments.group.map(ItemArguments.group(named:))),
            expiredOnly: arguments.expired,
            servicePattern: arguments.serviceGlob.map(NamePattern.init),
            accountPattern: arguments.accountGlob.map(NamePattern.init))
        if let olderThan = arguments.olderThan {
            filter.modifiedBefore = try olderThan.get().date(.past, now: now)
        }
        return filter
    }
}
