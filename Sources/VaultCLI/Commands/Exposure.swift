#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault exposure`'s arguments.
struct ExposureArguments: CommandArguments {
    static let member = OptionSpec("member", value: "NAME", help: "the member whose exposure to list, present or removed")
    static let grant = OptionSpec(
        "grant", value: "ID", help: "the credential whose exposure to list, by its id in 'vault grant --list' (or a prefix of it)")
    static let reason = OptionSpec(
        "reason", value: "TEXT", help: "accept: why the item's exposed values stay (kept in clear beside the vault)")

    static let options: [OptionSpec] = [
        member,
        OptionSpec(
            ItemSelection.group.name, value: "GROUP", help: "the group whose keys' exposure to list (what its credentials could open)",
            completion: .group),
        grant,
        reason,
        JSONArguments.json
    ]

    /// Empty (list), `check` or `accept`.
    var action: String
    /// accept's ITEM: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT.
    var item: String?
    /// --reason TEXT, accept's.
    var reason: String?
    /// --member NAME.
    var member: String?
    /// --group G (the option is repeatable elsewhere; exposure takes one).
    var groups: [String]
    /// --grant ID: a credential the grant ledger records.
    var grant: String?
    /// The global --credential given a grant id's shape (16 hex digits) that names no file: no
    /// credential is that short, so it is taken as --grant.
    var grantGivenAsCredential: String?
    /// The grant named, by --grant or --credential.
    var grantID: String? { grant ?? grantGivenAsCredential }
    var json: Bool

    init(_ options: OptionReader) {
        action = options.positionals.first ?? ""
        item = options.positionals.dropFirst().first
        reason = options.value(ExposureArguments.reason)
        member = options.value(ExposureArguments.member)
        groups = options.values(ItemSelection.group)
        grant = options.value(ExposureArguments.grant)
        grantGivenAsCredential = options.value(GlobalOptions.credential.name).flatMap {
            GrantEntry.isID($0) && access($0, F_OK) != 0 ? $0 : nil
        }
        json = options.flag(JSONArguments.json)
    }

    func validate() throws {
        if grant != nil, grantGivenAsCredential != nil {
            throw UsageError(
                "--grant and --credential both name a credential of the grant ledger", hint: "give one: 'vault exposure --grant ID'")
        }
        if action == "accept" {
            guard item != nil else {
                throw UsageError("exposure accept needs the item", hint: "run 'vault exposure accept GROUP/SERVICE/ACCOUNT --reason TEXT'")
            }
            guard let reason, !reason.isEmpty else {
                throw UsageError(
                    "exposure accept needs --reason",
                    hint: "say why the value stays, e.g. --reason 'the service cannot rotate it before March'")
            }
            if member != nil || !groups.isEmpty || grantID != nil {
                throw UsageError("exposure accept takes no --member, --group or --grant", hint: "name the item: GROUP/SERVICE/ACCOUNT")
            }
            return
        }
        if item != nil {
            throw UsageError("only exposure accept takes an item", hint: "run 'vault exposure accept GROUP/SERVICE/ACCOUNT --reason TEXT'")
        }
        if reason != nil {
            throw UsageError("only exposure accept takes --reason", hint: "run 'vault exposure accept GROUP/SERVICE/ACCOUNT --reason TEXT'")
        }
        if action == "check" {
            if member != nil || !groups.isEmpty || grantID != nil {
                throw UsageError(
                    "exposure check takes no --member, --group or --grant",
                    hint: "run 'vault exposure check': it checks every member and credential that lost access")
            }
            return
        }
        if groups.count > 1 { throw UsageError("exposure takes one --group", hint: "run it once per group") }
        if [member != nil, !groups.isEmpty, grantID != nil].filter({ $0 }).count != 1 {
            throw UsageError(
                "name one principal: --member NAME, --group G or --grant ID",
                hint: "run 'vault member list' for the members, 'vault group list' for the groups, 'vault grant --list' for the credentials"
            )
        }
    }
}

/// `vault exposure`: every value a member, or a group's keys, could open through the vault file's
/// git history, never a secret; `check`, the gate after an offboarding (docs/TEAMS.md, "Offboarding").
enum ExposureCommand {
    static func run(_ arguments: ExposureArguments, _ invocation: Invocation) throws {
        var invocation = invocation
        // The credential option held a grant id, not a file to unlock with.
        if arguments.grantGivenAsCredential != nil { invocation.arguments = invocation.arguments.removing(GlobalOptions.credential.name) }
        let vault = try VaultAccess(invocation).vault()
        let reading = try read(vault, invocation)
        if arguments.action == "accept", let item = arguments.item, let reason = arguments.reason {
            try accept(item, reason: reason, vault, reading, invocation)
            return
        }
        let (accepted, unverified) = try vault.exposureAcceptances()
        if unverified > 0 { invocation.terminal.say(ExposureText.unverified(unverified, path: vault.exposureAcceptancesPath)) }
        if arguments.action == "check" {
            try check(vault, reading, accepted: accepted, invocation)
            return
        }
        let principal: ExposurePrincipal
        if let member = arguments.member {
            principal = .member(member)
        } else if let id = arguments.grantID {
            principal = .credential(try grant(id, in: vault))
        } else {
            principal = .group(try ItemArguments.group(named: arguments.groups[0]))
        }
        let report = reading.history.values(exposedTo: principal, accepted: accepted)
        guard report.principalFound else {
            switch principal {
            case .member(let name):
                throw CommandFailure(
                    .itemNotFound, "no version of the vault file names a member \(quoted(name))",
                    hint: "run 'vault member list' for the members now")
            case .group(let group):
                throw CommandFailure(
                    .itemNotFound, "no version of the vault file has a group \(quoted(group.name))",
                    hint: "run 'vault group list' for the groups now")
            case .credential(let grant):
                throw CommandFailure(
                    .itemNotFound, "no version of the vault file holds the keys of credential \(grant.id)",
                    hint:
                        "the history that had them is gone from this clone; fetch it, or run 'vault exposure --group G' for each of its groups"
                )
            }
        }
        if arguments.json {
            invocation.terminal.writeOut(JSONValue.array(report.values.map(ExposureText.object)).text + "\n")
        } else {
            invocation.terminal.writeOut(ExposureText.table(report.values))
        }
        invocation.terminal.say(ExposureText.summary(report, of: principal, source: reading.source))
    }

    /// What exposure read: the history, and where it came from.
    struct Reading {
        let history: ExposureHistory
        let source: ExposureText.Source
    }

    /// Reads the vault file's git history (every commit of any local ref), or the file alone outside git.
    static func read(_ vault: Vault, _ invocation: Invocation) throws -> Reading {
        let path = vault.location.path
        guard let fileHistory = VaultFileHistory.of(path, environment: invocation.environment) else {
            return Reading(history: try vault.exposureHistory([], currentCommits: []), source: .fileAlone)
        }
        let (versions, currentCommits) = try fileHistory.read(currentFile: path)
        return Reading(history: try vault.exposureHistory(versions, currentCommits: currentCommits), source: .git)
    }

    /// Exits 1 while a live value exposed to a member that lost access is not accepted.
    static func check(_ vault: Vault, _ reading: Reading, accepted: [ExposureAcceptance], _ invocation: Invocation) throws {
        let grants = try vault.grants()
        let findings = vault.exposureFindings(in: reading.history, accepted: accepted, grants: grants, now: invocation.now)
        let lost =
            vault.membersWhoLostAccess(in: reading.history).map(ExposurePrincipal.member)
            + grants.filter { $0.state(at: invocation.now) != .live }.map(ExposurePrincipal.credential)
        for finding in findings { invocation.terminal.writeOut(ExposureText.line(finding)) }
        guard findings.isEmpty else {
            throw CommandFailure(.failure, ExposureText.checkFailure(findings), hint: ExposureText.checkHint)
        }
        invocation.terminal.say(ExposureText.checkPassed(lost: lost, source: reading.source))
    }

    /// Signs the owner's acceptance of the live exposed values the item holds now.
    static func accept(_ name: String, reason: String, _ vault: Vault, _ reading: Reading, _ invocation: Invocation) throws {
        var selection = ItemSelection(group: nil)
        selection.name = name
        let options = ItemArguments(selection, invocation)
        let (service, account, group) = (try options.service(), try options.account(), try options.group())
        let ids = reading.history.currentItemIDs(service: service, account: account, group: group)
        guard let itemID = ids.first else {
            throw CommandFailure(
                .itemNotFound, "the vault holds no item \(quoted(name))",
                hint: "run 'vault list' for the items; an item already deleted needs no acceptance")
        }
        guard ids.count == 1 else {
            throw UsageError("\(quoted(name)) names \(ids.count) items, in several groups", hint: "name it as GROUP/SERVICE/ACCOUNT")
        }
        let acceptance = try vault.acceptExposure(itemID: itemID, reason: reason)
        invocation.terminal.say(ExposureText.accepted(name, acceptance, path: vault.exposureAcceptancesPath))
    }

    /// The grant the ledger records under `id` (its whole id, or a prefix of one grant's; any case).
    static func grant(_ id: String, in vault: Vault) throws -> GrantEntry {
        let wanted = id.lowercased()
        let matches = try vault.grants().filter { $0.id.hasPrefix(wanted) }
        guard !wanted.isEmpty, let grant = matches.first else {
            throw CommandFailure(
                .itemNotFound, "the grant ledger records no credential \(quoted(id))",
                hint: "run 'vault grant --list' for the credentials granted and their ids")
        }
        guard matches.count == 1 else {
            throw UsageError(
                "\(quoted(id)) starts the ids of \(matches.count) credentials",
                hint: "give more of the id; 'vault grant --list' shows them whole")
        }
        return grant
    }

    /// How many live values `principal` could open: what `member remove` and `revoke` print.
    static func liveCount(exposedTo principal: ExposurePrincipal, in reading: Reading) -> Int {
        reading.history.values(exposedTo: principal, accepted: []).values.filter { $0.state == .live }.count
    }
}
