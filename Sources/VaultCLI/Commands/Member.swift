import FoundationEssentials
import VaultCore

/// `vault member`'s arguments.
struct MemberArguments: CommandArguments {

    static let options: [OptionSpec] = [
        OptionSpec(
            ItemSelection.group.name, value: "GROUP",
            help: "add: a group the member opens; repeat it for several; none makes a full member",
            repeatable: true, completion: .group),
        OptionSpec(GrantArguments.readOnly.name, help: "add: the member reads its groups but cannot change them (needs --group)"),
        OptionSpec(
            GrantArguments.freshHistory.name,
            help:
                "add: re-key what the member opens and drop its revisions and trash first, so it reads nothing written before; ends those keys' credentials"
        ),
        KDFCost.option,
        OptionSpec(
            SharedOptions.yes.name, short: "y",
            help: "add (re-keying) and remove: confirm dropping what the re-key cannot carry over without asking"),
        JSONArguments.json
    ]

    /// add, list or remove (the table allows no other).
    var action: String
    var name: String?
    /// The recipient of the member `add` adds.
    var recipient: String?
    /// Every --group given: the groups a member opens.
    var groups: [String]
    /// --read-only: the member opens no write key.
    var readOnly: Bool
    /// --kdf-cost: the scrypt cost of the passphrase keyslot a re-key makes.
    var kdf: Scrypt.Parameters
    /// --yes: drop what a re-key cannot carry over without asking.
    var yes: Bool
    /// --fresh-history: add re-keys what the member opens and drops its revisions and trash first.
    var freshHistory: Bool
    var json: Bool

    init(_ options: OptionReader) throws {
        let positionals = options.positionals
        action = positionals.first ?? ""
        name = positionals.dropFirst().first
        recipient = positionals.dropFirst(2).first
        groups = options.values(ItemSelection.group)
        readOnly = options.flag(GrantArguments.readOnly)
        kdf = try KDFCost.parse(options.value(KDFCost.option))
        yes = options.flag(SharedOptions.yes)
        freshHistory = options.flag(GrantArguments.freshHistory)
        json = options.flag(JSONArguments.json)
    }

    func validate() throws {
        if action == "list", name != nil { throw UsageError("member list takes no name", hint: "run 'vault member list'") }
        if action == "remove", recipient != nil {
            throw UsageError("member remove takes a name only", hint: "run 'vault member remove NAME'")
        }
        if action != "add", freshHistory {
            throw UsageError("--fresh-history is for member add", hint: "run 'vault member add NAME age1… --fresh-history'")
        }
    }
}

/// `vault member add|list|remove`: public-key keyslots sealed to age recipients.
enum MemberCommand {
    static func run(_ arguments: MemberArguments, _ invocation: Invocation) throws {
        let name = arguments.name
        switch arguments.action {
        case "add":
            try add(arguments, invocation, name: try required(name, action: "add"), recipient: arguments.recipient)
        case "list":
            try list(json: arguments.json, invocation)
        case "remove":
            try remove(arguments, invocation, name: try required(name, action: "remove"))
        default:
            preconditionFailure("the command table allows only add, list and remove")
        }
    }

    private static func required(_ name: String?, action: String) throws -> String {
        guard let name else {
            throw UsageError(
                "member \(action) needs a member name", hint: "run 'vault member \(action) NAME\(action == "add" ? " age1…" : "")'")
        }
        return name
    }

    private static func add(_ arguments: MemberArguments, _ invocation: Invocation, name: String, recipient text: String?) throws {
        guard let text else {
            throw UsageError(
                "member add needs the member's recipient",
                hint: "run 'vault member add \(shellQuoted(name)) age1…' with the line 'vault identity new' printed for them")
        }
        let readOnly = arguments.readOnly
        if readOnly, arguments.groups.isEmpty {
            throw UsageError(
                "--read-only needs --group: a full member holds every group's keys, write keys included",
                hint: "name the groups it may read: vault member add \(shellQuoted(name)) age1… --group GROUP --read-only")
        }
        let recipient = try AgeRecipient(parsing: text)
        let groups = arguments.groups.isEmpty ? [] : try ItemArguments.namedGroups(arguments.groups, purpose: "the member opens")
        let access = VaultAccess(invocation)
        let addition = try access.vault().addMember(
            name: name, recipient: recipient, groups: groups, readOnly: readOnly,
            freshHistory: arguments.freshHistory, kdf: arguments.kdf
        ) { plan in
            try RekeyCommand.confirm(plan, confirmed: arguments.yes, invocation, access: access)
        }
        let member = addition.member
        if let renewal = addition.renewal {
            FreshKeysWords.say(renewal, for: quoted(member.name), addedBack: addition.addedBack, invocation.terminal)
        }
        let scope =
            member.groups.map {
                "group\($0.count == 1 ? "" : "s") " + $0.map { quoted($0.name) }.joined(separator: ", ")
                    + (member.readOnly ? ", read-only" : "")
            }
            ?? "the whole vault (full member)"
        invocation.report(
            "added member \(quoted(member.name))\(addition.addedBack ? " back" : "") (\(member.recipient)): \(scope); commit the vault file for them to use it",
            json: object(member, addition), asJSON: arguments.json)
    }

    private static func list(json: Bool, _ invocation: Invocation) throws {
        let members = try VaultAccess(invocation).vault().members()
        let terminal = invocation.terminal
        if json {
            terminal.writeOut(JSONValue.array(members.map(object)).text + "\n")
            return
        }
        for member in members {
            let scope = member.groups.map { $0.map(\.name).joined(separator: ",") } ?? "full"
            terminal.writeOut(
                "\(ItemOutput.printable(member.name))\t\(member.recipient)\t\(scope)\(member.readOnly ? "\tread-only" : "")\t\(DateText.iso(member.addedAt))\n"
            )
        }
    }

    private static func remove(_ arguments: MemberArguments, _ invocation: Invocation, name: String) throws {
        let access = VaultAccess(invocation)
        let progress = ProgressLine.start(invocation, label: "remove")
        defer { progress?.finish() }
        let vault = try access.vault(progress: progress)
        let kdf = arguments.kdf
        let terminal = invocation.terminal
        // Read before the removal: the file as it is now still names the member (outside git it is the only version).
        let principal = ExposurePrincipal.member(name)
        let exposure = try? ExposureCommand.read(vault, invocation)
        let removal = try vault.removeMember(named: name, kdf: kdf) { plan in
            try RekeyCommand.confirm(plan, confirmed: arguments.yes, invocation, access: access)
        }
        let live = exposure.map { ExposureCommand.liveCount(exposedTo: principal, in: $0) }
        if arguments.json {
            terminal.writeOut(
                JSONValue.object([
                    ("removed", .string(removal.member.name)), ("key_epoch", .number(Int(removal.keyEpoch))),
                    ("live_exposed", live.map { .number($0) } ?? .null), ("exposure", .string(ExposureText.command(for: principal)))
                ]).text + "\n")
            return
        }
        let what = removal.member.groups == nil ? "re-keyed the vault" : "gave its groups new keys"
        terminal.say("removed member \(quoted(removal.member.name)) and \(what) (key epoch \(removal.keyEpoch)); commit the vault file")
        terminal.say(
            "pinned readers keep their pin; a reader that remembers nothing (a CI job) refuses copies from before this removal with VAULT_MIN_EPOCH=\(removal.keyEpoch)"
        )
        terminal.say(ExposureText.pointer(live: live, principal: principal))
    }

    private static func object(_ member: MemberSummary) -> JSONValue {
        .object(fields(member))
    }

    private static func object(_ member: MemberSummary, _ addition: MemberAddition) -> JSONValue {
        .object(
            fields(member) + [("added_back", .bool(addition.addedBack)), ("rekeyed", .bool(addition.renewal != nil))]
                + (addition.renewal.map { [("key_epoch", .number(Int($0.keyEpoch)))] } ?? []))
    }

    private static func fields(_ member: MemberSummary) -> [(String, JSONValue)] {
        [
            ("name", .string(member.name)), ("recipient", .string(member.recipient)),
            ("scope", member.groups.map { .array($0.map { .string($0.name) }) } ?? .string("full")),
            ("read_only", .bool(member.readOnly)), ("added_at", .string(DateText.iso(member.addedAt)))
        ]
    }
}
