import VaultCore

/// `vault conflicts` and `vault resolve`: the items a merge left with two versions.
enum ConflictsCommand {
    static func list(_ invocation: Invocation) throws {
        let group = try ItemArguments(invocation).query().group
        let conflicts = try VaultAccess(invocation).vault().conflicts().filter { group == nil || $0.attributes.group == group }
        let terminal = invocation.terminal
        if invocation.wantsJSON {
            terminal.writeOut(JSONValue.array(conflicts.map { conflict in
                .object([("service", .string(conflict.attributes.service)), ("account", .string(conflict.attributes.account)),
                         ("group", .string(conflict.attributes.group.name)), ("current_side", .string(side(conflict.currentSide))),
                         ("other", .string(conflict.otherIsSealedElsewhere ? "sealed-elsewhere" : conflict.other == nil ? "deleted" : "changed")), ("origin", .string(conflict.origin)),
                         ("older_versions", .number(conflict.olderVersions))])
            }).text + "\n")
            return
        }
        for conflict in conflicts {
            let item = conflict.attributes
            let other = conflict.otherIsSealedElsewhere ? "changed it into a group or class these keys do not open"
                : conflict.other == nil ? "deleted it" : "changed it"
            let older = conflict.olderVersions > 0 ? "; \(counted(conflict.olderVersions, "older version")) from earlier merges" : ""
            // Names and the origin (git's author names) are others' words: no control character reaches the terminal.
            terminal.writeOut("\(ItemOutput.printable(item.service))\t\(ItemOutput.printable(item.account))\t\(item.group.name)\tcurrent: "
                              + "\(side(conflict.currentSide)); \(side(conflict.currentSide.other)) \(other) (\(ItemOutput.printable(conflict.origin)))\(older)\n")
        }
    }

    static func resolve(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        guard arguments.flag(.ours) != arguments.flag(.theirs) else {
            throw UsageError("resolve needs one of --ours and --theirs", hint: "'vault conflicts' shows which side each version came from")
        }
        let query = try ItemArguments(invocation).query()
        guard query.service != nil || query.account != nil else {
            throw UsageError("no item named", hint: "name it with -s SERVICE -a ACCOUNT")
        }
        let resolution = try VaultAccess(invocation).vault().resolve(matching: query, keeping: arguments.flag(.ours) ? .ours : .theirs)
        switch resolution {
        case .kept(let item):
            invocation.report("resolved service \(quoted(item.service)), account \(quoted(item.account)) in group \(quoted(item.group.name)): kept \(arguments.flag(.ours) ? "ours" : "theirs")",
                              json: .object([("service", .string(item.service)), ("account", .string(item.account)), ("group", .string(item.group.name)),
                                             ("kept", .bool(true))]))
        case .deleted(let item):
            invocation.report("resolved service \(quoted(item.service)), account \(quoted(item.account)) in group \(quoted(item.group.name)): deleted, as that side had",
                              json: .object([("service", .string(item.service)), ("account", .string(item.account)), ("group", .string(item.group.name)),
                                             ("kept", .bool(false))]))
        }
    }

    private static func side(_ side: MergeSide) -> String { side == .ours ? "ours" : "theirs" }
}
