import VaultCore

/// `vault conflicts`'s options.
struct ConflictsArguments: CommandArguments {

    static let options: [OptionSpec] = [
        ItemSelection.group.with(help: ItemSelection.group.help),
        JSONArguments.json
    ]

    /// --group: the conflicts of one group.
    var item: ItemSelection
    var json: Bool

    init(_ options: OptionReader) {
        item = ItemSelection(group: options.value(ItemSelection.group))
        json = options.flag(JSONArguments.json)
    }
}

/// `vault resolve`'s options.
struct ResolveArguments: CommandArguments {
    static let ours = OptionSpec("ours", help: "keep the version of the side that merged")

    static let options: [OptionSpec] = [
        ItemSelection.service.with(help: "service of the item"),
        ItemSelection.account.with(help: "account of the item"),
        ItemSelection.group.with(help: ItemSelection.group.help),
        ours,
        OptionSpec(GetArguments.theirs.name, help: "keep the other side's version"),
        JSONArguments.resultJSON
    ]

    var item: ItemSelection
    /// --ours: keep this side's version.
    var ours: Bool
    /// --theirs: keep the other side's.
    var theirs: Bool
    var json: Bool

    init(_ options: OptionReader) {
        item = ItemSelection(options)
        ours = options.flag(ResolveArguments.ours)
        theirs = options.flag(GetArguments.theirs)
        json = options.flag(JSONArguments.json)
    }

    func validate() throws {
        guard ours != theirs else {
            throw UsageError("resolve needs one of --ours and --theirs", hint: "'vault conflicts' shows which side each version came from")
        }
    }
}

/// `vault conflicts` and `vault resolve`: the items a merge left with two versions.
enum ConflictsCommand {
    static func list(_ arguments: ConflictsArguments, _ invocation: Invocation) throws {
        let group = try ItemArguments(arguments.item, invocation).query().group
        let conflicts = try VaultAccess(invocation).vault().conflicts().filter { group == nil || $0.attributes.group == group }
        let terminal = invocation.terminal
        if arguments.json {
            terminal.writeOut(
                JSONValue.array(
                    conflicts.map { conflict in
                        .object(
                            [
                                ("service", .string(conflict.attributes.service)), ("account", .string(conflict.attributes.account)),
                                ("group", .string(conflict.attributes.group.name)), ("current_side", .string(side(conflict.currentSide))),
                                (
                                    "other",
                                    .string(
                                        conflict.otherIsSealedElsewhere ? "sealed-elsewhere" : conflict.other == nil ? "deleted" : "changed"
                                    )
                                )
                            ]
                                + movedFields(conflict) + [
                                    ("origin", .string(conflict.origin)), ("older_versions", .number(conflict.olderVersions))
                                ])
                    }
                ).text + "\n")
            return
        }
        for conflict in conflicts {
            let item = conflict.attributes
            let other =
                conflict.otherIsSealedElsewhere
                ? "changed it into a group or class these keys do not open"
                : conflict.other == nil ? "deleted it" : "changed it" + movedWords(conflict)
            let older = conflict.olderVersions > 0 ? "; \(counted(conflict.olderVersions, "older version")) from earlier merges" : ""
            // Names and the origin (git's author names) are others' words: no control character reaches the terminal.
            terminal.writeOut(
                "\(ItemOutput.printable(item.service))\t\(ItemOutput.printable(item.account))\t\(item.group.name)\tcurrent: "
                    + "\(side(conflict.currentSide)); \(side(conflict.currentSide.other)) \(other) (\(ItemOutput.printable(conflict.origin)))\(older)\n"
            )
        }
    }

    /// What of the other version differs from the item as it reads now: its group, class and name.
    private static func moved(_ conflict: ConflictSummary) -> (group: String?, accessibility: String?, name: (String, String)?) {
        guard let other = conflict.other else { return (nil, nil, nil) }
        let item = conflict.attributes
        return (
            other.group != item.group ? other.group.name : nil,
            other.accessibility != item.accessibility ? other.accessibility.rawValue : nil,
            other.service != item.service || other.account != item.account ? (other.service, other.account) : nil
        )
    }

    /// ` into group "G", class C, as "S"/"A"`, for what differs.
    private static func movedWords(_ conflict: ConflictSummary) -> String {
        let (group, accessibility, name) = moved(conflict)
        var words: [String] = []
        if let group { words.append("into group \(quoted(group))") }
        if let accessibility { words.append("class \(accessibility)") }
        if let name { words.append("as \(quoted(name.0))/\(quoted(name.1))") }
        return words.isEmpty ? "" : " " + words.joined(separator: ", ")
    }

    private static func movedFields(_ conflict: ConflictSummary) -> [(String, JSONValue)] {
        let (group, accessibility, name) = moved(conflict)
        return (group.map { [("other_group", JSONValue.string($0))] } ?? [])
            + (accessibility.map { [("other_class", JSONValue.string($0))] } ?? [])
            + (name.map { [("other_service", JSONValue.string($0.0)), ("other_account", JSONValue.string($0.1))] } ?? [])
    }

    static func resolve(_ arguments: ResolveArguments, _ invocation: Invocation) throws {
        let query = try ItemArguments(arguments.item, invocation).query()
        guard query.service != nil || query.account != nil else {
            throw UsageError("no item named", hint: "name it with -s SERVICE -a ACCOUNT")
        }
        let resolution = try VaultAccess(invocation).vault().resolve(matching: query, keeping: arguments.ours ? .ours : .theirs)
        switch resolution {
        case .kept(let item):
            invocation.report(
                "resolved service \(quoted(item.service)), account \(quoted(item.account)) in group \(quoted(item.group.name)): kept \(arguments.ours ? "ours" : "theirs")",
                json: .object([
                    ("service", .string(item.service)), ("account", .string(item.account)), ("group", .string(item.group.name)),
                    ("kept", .bool(true))
                ]), asJSON: arguments.json)
        case .deleted(let item):
            invocation.report(
                "resolved service \(quoted(item.service)), account \(quoted(item.account)) in group \(quoted(item.group.name)): deleted, as that side had",
                json: .object([
                    ("service", .string(item.service)), ("account", .string(item.account)), ("group", .string(item.group.name)),
                    ("kept", .bool(false))
                ]), asJSON: arguments.json)
        }
    }

    private static func side(_ side: MergeSide) -> String { side == .ours ? "ours" : "theirs" }
}
