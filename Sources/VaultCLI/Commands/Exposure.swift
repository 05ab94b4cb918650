import VaultCore

/// `vault exposure`'s arguments.
struct ExposureArguments: CommandArguments {
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
    var json: Bool

    init(_ options: OptionReader) {
        action = options.positionals.first ?? ""
        item = options.positionals.dropFirst().first
        reason = options.value(.reason)
        member = options.value(.member)
        groups = options.values(.group)
        json = options.flag(.json)
    }

    func validate() throws {
        if action == "accept" {
            guard item != nil else { throw UsageError("exposure accept needs the item", hint: "run 'vault exposure accept GROUP/SERVICE/ACCOUNT --reason TEXT'") }
            guard let reason, !reason.isEmpty else {
                throw UsageError("exposure accept needs --reason", hint: "say why the value stays, e.g. --reason 'the service cannot rotate it before March'")
            }
            if member != nil || !groups.isEmpty { throw UsageError("exposure accept takes no --member or --group", hint: "name the item: GROUP/SERVICE/ACCOUNT") }
            return
        }
        if item != nil { throw UsageError("only exposure accept takes an item", hint: "run 'vault exposure accept GROUP/SERVICE/ACCOUNT --reason TEXT'") }
        if reason != nil { throw UsageError("only exposure accept takes --reason", hint: "run 'vault exposure accept GROUP/SERVICE/ACCOUNT --reason TEXT'") }
        if action == "check" {
            if member != nil || !groups.isEmpty { throw UsageError("exposure check takes no --member or --group", hint: "run 'vault exposure check': it checks every member that lost access") }
            return
        }
        if groups.count > 1 { throw UsageError("exposure takes one --group", hint: "run it once per group") }
        if (member == nil) == groups.isEmpty {
            throw UsageError("name one principal: --member NAME or --group G", hint: "run 'vault member list' for the members, 'vault group list' for the groups")
        }
    }
}

/// `vault exposure`: every value a member, or a group's keys, could open through the vault file's
/// git history, never a secret; `check`, the gate after an offboarding (docs/TEAMS.md, "Offboarding").
enum ExposureCommand {
    static func run(_ arguments: ExposureArguments, _ invocation: Invocation) throws {
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
        } else {
            principal = .group(try ItemArguments.group(named: arguments.groups[0]))
        }
        let report = reading.history.values(exposedTo: principal, accepted: accepted)
        guard report.principalFound else {
            switch principal {
            case .member(let name):
                throw CommandFailure(.itemNotFound, "no version of the vault file names a member \(quoted(name))", hint: "run 'vault member list' for the members now")
            case .group(let group):
                throw CommandFailure(.itemNotFound, "no version of the vault file has a group \(quoted(group.name))", hint: "run 'vault group list' for the groups now")
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
        let findings = vault.exposureFindings(in: reading.history, accepted: accepted)
        let lost = vault.membersWhoLostAccess(in: reading.history)
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
            throw CommandFailure(.itemNotFound, "the vault holds no item \(quoted(name))", hint: "run 'vault list' for the items; an item already deleted needs no acceptance")
        }
        guard ids.count == 1 else {
            throw UsageError("\(quoted(name)) names \(ids.count) items, in several groups", hint: "name it as GROUP/SERVICE/ACCOUNT")
        }
        let acceptance = try vault.acceptExposure(itemID: itemID, reason: reason)
        invocation.terminal.say(ExposureText.accepted(name, acceptance, path: vault.exposureAcceptancesPath))
    }

    /// How many live values `principal` could open: what `member remove` and `revoke` print.
    static func liveCount(exposedTo principal: ExposurePrincipal, in reading: Reading) -> Int {
        reading.history.values(exposedTo: principal, accepted: []).values.filter { $0.state == .live }.count
    }
}
