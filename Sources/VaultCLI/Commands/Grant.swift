import VaultCore

/// `vault grant`'s options.
struct GrantArguments: CommandArguments {
    static let list = OptionSpec("list", help: "list every credential granted, with its id and state (live, revoked, expired)")
    static let readOnly = OptionSpec("read-only", help: "the credential can read items but not change them")
    static let freshHistory = OptionSpec(
        "fresh-history",
        help:
            "re-key the groups and drop their revisions and trash first, so the credential opens nothing written before; ends their other credentials"
    )
    static let out = OptionSpec(
        "out", short: "o", value: "FILE", help: "the new file to write the credential to; - writes it to stdout",
        completion: .file)

    static let options: [OptionSpec] = [
        list,
        OptionSpec(
            ItemSelection.group.name, value: "GROUP", help: "a group the credential opens; repeat it for several",
            repeatable: true, completion: .group),
        readOnly,
        freshHistory,
        OptionSpec(
            ItemDetailOptions.expires.name, value: "WHEN",
            help: "stop working after a duration (90m, 30d) or at a date (2027-01-31, 2027-01-31T12:00Z)"),
        out,
        JSONArguments.resultJSON
    ]

    /// Every --group given.
    var groups: [String]
    /// --read-only: the credential opens no write key.
    var readOnly: Bool
    /// --expires: a duration or a date; nil when not given or never.
    var expires: Converted<PointInTime>?
    /// --out: the new file, or - for stdout.
    var out: String?
    /// --fresh-history: re-key the groups and drop their revisions and trash before granting.
    var freshHistory: Bool
    /// --list: show the grant ledger instead of granting.
    var list: Bool
    var json: Bool

    init(_ options: OptionReader) {
        groups = options.values(ItemSelection.group)
        readOnly = options.flag(GrantArguments.readOnly)
        expires = PointInTime.expiry(options.value(ItemDetailOptions.expires))
        out = options.value(GrantArguments.out)
        freshHistory = options.flag(GrantArguments.freshHistory)
        list = options.flag(GrantArguments.list)
        json = options.flag(JSONArguments.json)
    }

    func validate() throws {
        if list, !groups.isEmpty || readOnly || expires != nil || out != nil || freshHistory {
            throw UsageError(
                "grant --list takes no other option but --json", hint: "run 'vault grant --list' to list, or grant without --list")
        }
    }
}

/// `vault grant`: writes a scoped credential for some groups.
enum GrantCommand {
    static func run(_ arguments: GrantArguments, _ invocation: Invocation) throws {
        if arguments.list {
            try list(json: arguments.json, invocation)
            return
        }
        let groups = try ItemArguments.namedGroups(arguments.groups, purpose: "the credential opens")
        let out = try ItemArguments.newOutputFile(arguments.out, for: "credential", allowsStdout: true)
        if out == "-", arguments.json {
            throw UsageError("--json and --out - would both write to stdout", hint: "give --out FILE with --json")
        }
        let expires = try arguments.expires?.get().date(.future, now: invocation.now)
        let vault = try VaultAccess(invocation).vault()
        if arguments.freshHistory {
            let renewal = try vault.renewKeys(.groups(groups), freshHistory: true) { _ in }
            FreshKeysWords.say(renewal, for: "the new credential", addedBack: false, invocation.terminal)
        }
        let credential = try vault.grant(groups: groups, readOnly: arguments.readOnly, expires: expires)
        if out == "-" {
            invocation.terminal.writeOut(credential.encoded())
        } else {
            try credential.write(to: out)
        }
        let names = groups.map { quoted($0.name) }.joined(separator: ", ")
        let mode = credential.readOnly ? "read-only" : "read-write"
        let until = credential.expires.map { "until \(DateText.iso($0))" } ?? "with no expiry"
        let place = out == "-" ? "stdout" : quoted(out)
        invocation.report(
            "wrote a \(mode) credential for group\(groups.count == 1 ? "" : "s") \(names), \(until), to \(place); recorded as \(credential.grantID) in the grant ledger (commit the vault file)",
            json: .object([
                ("file", .string(out)), ("groups", .array(groups.map { .string($0.name) })),
                ("read_only", .bool(credential.readOnly)),
                ("expires", .optional(credential.expires.map(DateText.iso))), ("id", .string(credential.grantID))
            ]),
            asJSON: arguments.json)
    }

    /// Every credential the grant ledger records, oldest first.
    static func list(json: Bool, _ invocation: Invocation) throws {
        let grants = try VaultAccess(invocation).vault().grants()
        let now = invocation.now
        if json {
            invocation.terminal.writeOut(JSONValue.array(grants.map { GrantLedgerText.object($0, now: now) }).text + "\n")
        } else {
            invocation.terminal.writeOut(grants.map { GrantLedgerText.line($0, now: now) }.joined())
        }
        if grants.isEmpty, !json { invocation.terminal.say(GrantLedgerText.empty) }
    }
}
