import FoundationEssentials
import VaultCore

/// `vault member add|list|remove`: public-key keyslots sealed to age recipients.
enum MemberCommand {
    static func run(_ invocation: Invocation) throws {
        let positionals = invocation.arguments.positionals
        let name = positionals.count > 1 ? positionals[1] : nil
        let recipient = positionals.count > 2 ? positionals[2] : nil
        switch positionals.first {
        case "add":
            try add(invocation, name: try required(name, action: "add"), recipient: recipient)
        case "list":
            guard name == nil else { throw UsageError("member list takes no name", hint: "run 'vault member list'") }
            try list(invocation)
        case "remove":
            guard recipient == nil else { throw UsageError("member remove takes a name only", hint: "run 'vault member remove NAME'") }
            try remove(invocation, name: try required(name, action: "remove"))
        default:
            preconditionFailure("the command table allows only add, list and remove")
        }
    }

    private static func required(_ name: String?, action: String) throws -> String {
        guard let name else {
            throw UsageError("member \(action) needs a member name", hint: "run 'vault member \(action) NAME\(action == "add" ? " age1…" : "")'")
        }
        return name
    }

    private static func add(_ invocation: Invocation, name: String, recipient text: String?) throws {
        let arguments = invocation.arguments
        guard let text else {
            throw UsageError("member add needs the member's recipient", hint: "run 'vault member add \(shellQuoted(name)) age1…' with the line 'vault identity new' printed for them")
        }
        let readOnly = arguments.flag(.readOnly)
        if readOnly, arguments.values(.group).isEmpty {
            throw UsageError("--read-only needs --group: a full member holds every group's keys, write keys included",
                             hint: "name the groups it may read: vault member add \(shellQuoted(name)) age1… --group GROUP --read-only")
        }
        let recipient = try AgeRecipient(parsing: text)
        let groups = arguments.values(.group).isEmpty ? [] : try ItemArguments.namedGroups(arguments.values(.group), purpose: "the member opens")
        let member = try VaultAccess(invocation).vault().addMember(name: name, recipient: recipient, groups: groups, readOnly: readOnly)
        let scope = member.groups.map { "group\($0.count == 1 ? "" : "s") " + $0.map { quoted($0.name) }.joined(separator: ", ") + (member.readOnly ? ", read-only" : "") }
            ?? "the whole vault (full member)"
        invocation.report("added member \(quoted(member.name)) (\(member.recipient)): \(scope); commit the vault file for them to use it",
                          json: object(member))
    }

    private static func list(_ invocation: Invocation) throws {
        let members = try VaultAccess(invocation).vault().members()
        let terminal = invocation.terminal
        if invocation.wantsJSON {
            terminal.writeOut(JSONValue.array(members.map(object)).text + "\n")
            return
        }
        for member in members {
            let scope = member.groups.map { $0.map(\.name).joined(separator: ",") } ?? "full"
            terminal.writeOut("\(ItemOutput.printable(member.name))\t\(member.recipient)\t\(scope)\(member.readOnly ? "\tread-only" : "")\t\(DateText.iso(member.addedAt))\n")
        }
    }

    private static func remove(_ invocation: Invocation, name: String) throws {
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let kdf = try KDFCost.parse(invocation.arguments.value(.kdfCost))
        let terminal = invocation.terminal
        let progress = ProgressLine.attach(to: vault, invocation, label: "remove")
        defer { progress?.finish() }
        let removal = try vault.removeMember(named: name, kdf: kdf) { plan in try RekeyCommand.confirm(plan, confirmed: invocation.arguments.flag(.yes), invocation, access: access) }
        let readable = removal.readable.sorted { ($0.group.name, $0.service, $0.account) < ($1.group.name, $1.service, $1.account) }
        if invocation.wantsJSON {
            terminal.writeOut(JSONValue.object([
                ("removed", .string(removal.member.name)), ("key_epoch", .number(Int(removal.keyEpoch))),
                ("rotate", .array(readable.map { .object([("group", .string($0.group.name)), ("service", .string($0.service)), ("account", .string($0.account))]) })),
            ]).text + "\n")
            return
        }
        let what = removal.member.groups == nil ? "re-keyed the vault" : "gave its groups new keys"
        terminal.say("removed member \(quoted(removal.member.name)) and \(what) (key epoch \(removal.keyEpoch)); commit the vault file")
        terminal.say("pinned readers keep their pin; a reader that remembers nothing (a CI job) refuses copies from before this removal with VAULT_MIN_EPOCH=\(removal.keyEpoch)")
        guard !readable.isEmpty else { return }
        terminal.writeErr("vault: git history still holds what \(quoted(removal.member.name)) could read; rotate these secrets at their services:\n")
        for key in readable {
            terminal.writeOut("\(key.group.name)\t\(key.service)\t\(key.account)\n")
        }
    }

    private static func object(_ member: MemberSummary) -> JSONValue {
        .object([
            ("name", .string(member.name)), ("recipient", .string(member.recipient)),
            ("scope", member.groups.map { .array($0.map { .string($0.name) }) } ?? .string("full")),
            ("read_only", .bool(member.readOnly)), ("added_at", .string(DateText.iso(member.addedAt))),
        ])
    }
}
