import FoundationEssentials
import VaultCore

/// `vault wipe`: removes the items that match every filter given.
enum WipeCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        if arguments.flag(.trash) { return try emptyTrash(invocation) }
        let filter = try self.filter(arguments, now: invocation.now)
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let progress = ProgressLine.attach(to: vault, invocation, label: "wipe")
        defer { progress?.finish() }
        if arguments.flag(.dryRun) {
            let plan = try vault.wipe(filter, dryRun: true)
            if !invocation.wantsJSON { invocation.terminal.writeOut(WipeRun.describe(plan, now: invocation.now)) }
            invocation.report("dry run: would have \(WipeRun.summary(plan)); nothing was changed", json: WipeRun.json(plan, dryRun: true, now: invocation.now))
            return
        }
        let outcome = try WipeRun(invocation: invocation, access: access).perform(filter, on: vault, confirm: true)
        invocation.report(WipeRun.summary(outcome), json: WipeRun.json(outcome, dryRun: false, now: invocation.now))
    }

    /// `wipe --trash`: empties the trash (of --group alone), after a yes.
    private static func emptyTrash(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let others: [OptionName] = [.service, .account, .serviceGlob, .accountGlob, .expired, .olderThan, .all, .dryRun]
        if let other = arguments.given(others).first {
            throw UsageError("--trash empties the trash and takes no --\(other.long)", hint: "drop --\(other.long); --group alone narrows it to one group")
        }
        let group = try arguments.value(.group).map(ItemArguments.group(named:))
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let (items, locked) = try vault.trash(matching: Query(group: group))
        let count = items.count + locked
        if count > 0 {
            try Confirmation.require(invocation, access: access, question: "Remove \(counted(count, "item")) from the trash for good?")
        }
        let removed = count > 0 ? try vault.emptyTrash(group: group) : 0
        invocation.report("emptied the trash: \(counted(removed, "item")) removed", json: .object([("removed_from_trash", .number(removed))]))
    }

    private static func filter(_ arguments: ParsedArguments, now: Date) throws -> WipeFilter {
        var filter = WipeFilter(query: Query(service: arguments.value(.service), account: arguments.value(.account),
                                             group: try arguments.value(.group).map(ItemArguments.group(named:))),
                                expiredOnly: arguments.flag(.expired),
                                servicePattern: arguments.value(.serviceGlob).map(NamePattern.init),
                                accountPattern: arguments.value(.accountGlob).map(NamePattern.init))
        if let text = arguments.value(.olderThan) {
            filter.modifiedBefore = try DurationText.pointInTime("older-than", text, .past, now: now)
        }
        let all = arguments.flag(.all)
        let narrowed = filter != WipeFilter()
        if all, narrowed {
            throw UsageError("--all wipes every item and takes no filter", hint: "drop --all, or drop the filters")
        }
        if !all, !narrowed {
            throw UsageError("nothing to wipe named", hint: "give --group, --service, --account, a glob, --expired or --older-than, or --all for every item")
        }
        return filter
    }
}
