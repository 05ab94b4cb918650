import VaultCore

/// `vault group`'s arguments.
struct GroupArguments: CommandArguments {

    static let options: [OptionSpec] = [
        JSONArguments.json,
        OptionSpec(SharedOptions.yes.name, short: "y", help: "delete a group that holds items without asking (needed without a terminal)")
    ]

    /// list, create, delete or allow-env (the table allows no other).
    var action: String
    /// The group to create, delete or set the allowed names of.
    var name: String?
    /// allow-env: the names, as written (empty: none).
    var allowedNames: String?
    var json: Bool
    /// --yes: delete a group that holds items without asking.
    var yes: Bool

    init(_ options: OptionReader) {
        action = options.positionals.first ?? ""
        name = options.positionals.dropFirst().first
        allowedNames = options.positionals.dropFirst(2).first
        json = options.flag(JSONArguments.json)
        yes = options.flag(SharedOptions.yes)
    }

    func validate() throws {
        if action == "list", name != nil { throw UsageError("group list takes no name", hint: "run 'vault group list'") }
        if action != "allow-env", let extra = allowedNames {
            throw UsageError("group \(action) takes one name, not also \(quoted(extra))", hint: "run 'vault group \(action) NAME'")
        }
        if action == "allow-env" { _ = try allowed() }
    }

    /// allow-env's names: nil to clear them. A missing or malformed list is a usage error.
    func allowed() throws -> AllowedEnvNames? {
        let hint = "write them as NAME,PREFIX*,… (e.g. 'APP_*,DEPLOY_TOKEN'), or '' for none: vault group allow-env GROUP NAMES"
        guard let text = allowedNames else { throw UsageError("group allow-env needs a group and the names its items may set", hint: hint) }
        if text.isEmpty { return nil }
        guard let allowed = AllowedEnvNames(text: text) else {
            throw UsageError("\(quoted(text)) is not a list of variable names and prefixes", hint: hint)
        }
        return allowed
    }
}

/// `vault group list|create|delete`.
enum GroupCommand {
    static func run(_ arguments: GroupArguments, _ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let name = arguments.name
        switch arguments.action {
        case "list":
            try list(json: arguments.json, invocation, access: access)
        case "create":
            let group = try ItemArguments.group(named: try required(name, action: "create"))
            try access.vault().createGroup(group)
            invocation.report(
                "created group \(quoted(group.name))", json: .object([("created", .string(group.name))]), asJSON: arguments.json)
        case "delete":
            let group = try ItemArguments.group(named: try required(name, action: "delete"))
            let vault = try access.vault()
            let groups = try vault.groups().groups
            guard let summary = groups.first(where: { $0.group == group }) else {
                throw VaultError.noSuchGroup(group, known: groups.map(\.group))
            }
            if summary.itemCount > 0 {
                try Confirmation.require(
                    invocation, confirmed: arguments.yes, access: access,
                    question: "Delete group \(quoted(group.name)) and its \(counted(summary.itemCount, "item"))?")
            }
            let removed = try vault.deleteGroup(group)
            // One line per item whose conflict kept a version of the deleted group: that version went with it.
            for key in removed.droppedConflictVersions where !arguments.json {
                invocation.terminal.diagnostics.notice(
                    "the conflict of service \(quoted(key.service)), account \(quoted(key.account)) in group "
                        + "\(quoted(key.group.name)) lost its other version, which was in group \(quoted(group.name))")
            }
            invocation.report(
                "deleted group \(quoted(group.name)) and \(counted(removed.items, "item"))",
                json: .object([
                    ("deleted", .string(group.name)), ("items", .number(removed.items)),
                    (
                        "dropped_conflict_versions",
                        .array(
                            removed.droppedConflictVersions.map { key in
                                .object([
                                    ("service", .string(key.service)), ("account", .string(key.account)), ("group", .string(key.group.name))
                                ])
                            })
                    )
                ]), asJSON: arguments.json)
        case "allow-env":
            let group = try ItemArguments.group(named: try required(name, action: "allow-env"))
            let allowed = try arguments.allowed()
            try access.vault().setAllowedEnvNames(allowed, for: group)
            let words =
                allowed.map { "the items of group \(quoted(group.name)) may set \($0.text) when a job names none" }
                ?? "the items of group \(quoted(group.name)) set only the names a job names"
            invocation.report(
                words, json: .object([("group", .string(group.name)), ("allowed", allowed.map { .string($0.text) } ?? .null)]),
                asJSON: arguments.json)
        default:
            preconditionFailure("the command table allows only list, create, delete and allow-env")
        }
    }

    private static func required(_ name: String?, action: String) throws -> String {
        guard let name else { throw UsageError("group \(action) needs a group name", hint: "run 'vault group \(action) NAME'") }
        return name
    }

    private static func list(json: Bool, _ invocation: Invocation, access: VaultAccess) throws {
        let (groups, unopened) = try access.vault().groups()
        let terminal = invocation.terminal
        if unopened > 0 {
            terminal.diagnostics.notice("\(counted(unopened, "group")) not listed: locked (unlock to see \(unopened == 1 ? "it" : "them"))")
        }
        if json {
            let objects = groups.map { "{\"group\":\(ItemOutput.jsonString($0.group.name)),\"items\":\($0.itemCount)}" }
            terminal.writeOut("[" + objects.joined(separator: ",") + "]\n")
        } else {
            for summary in groups {
                terminal.writeOut("\(summary.group.name)\t\(counted(summary.itemCount, "item"))\n")
            }
        }
    }
}
