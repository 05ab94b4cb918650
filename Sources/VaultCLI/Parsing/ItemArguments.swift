import FoundationEssentials
import VaultCore

/// Item names, attributes and queries made of a command's typed options (its
/// `ItemSelection`, environment and config), with the usage errors that go
/// with them. Shared by every item command.
struct ItemArguments {
    let selection: ItemSelection
    private let invocation: Invocation

    /// The item named or selected by a command's typed arguments.
    init(_ selection: ItemSelection, _ invocation: Invocation) {
        self.selection = selection
        self.invocation = invocation
    }

    /// The item named by the positional REFERENCE (`SERVICE/ACCOUNT`,
    /// `GROUP/SERVICE/ACCOUNT` or `vault://…`), read by the same parser as
    /// `vault run`'s references; nil when none is given. Naming the item both
    /// ways, or a `?otp` query, is a usage error.
    func reference() throws -> SecretReference? {
        guard let text = selection.name, try serviceName() == nil else { return nil }
        let reference: SecretReference
        do {
            reference = try SecretReference(parsingName: text)
        } catch {
            throw UsageError(
                "invalid item name \(quoted(text)): \(ItemArguments.problem(error, name: text))",
                hint: ItemArguments.referenceHint)
        }
        guard reference.part == .secret else {
            throw UsageError(
                "\(quoted(text)) names a one-time code; a command names an item",
                hint:
                    "drop the ?otp, or print the code with 'vault otp \(SecretReference(group: reference.group, service: reference.service, account: reference.account).shortName)'"
            )
        }
        if selection.service != nil || selection.account != nil {
            throw UsageError(
                "the item is named twice, as \(quoted(text)) and with -s/-a",
                hint: "give either \(quoted(text)) or -s SERVICE -a ACCOUNT, not both")
        }
        if let named = reference.group, let given = selection.group, given != named.name {
            throw UsageError(
                "\(quoted(text)) is in group \(quoted(named.name)), and --group names \(quoted(given))",
                hint: "drop --group, or write the name as SERVICE/ACCOUNT")
        }
        return reference
    }

    /// A positional name without a '/' (`vault get postgres`): the service alone, which
    /// finds the one item of that service as -s does; nil for any other name.
    func serviceName() throws -> String? {
        guard let text = selection.name, !SecretReference.isReference(text), !text.contains("/") else { return nil }
        if selection.service != nil {
            throw UsageError(
                "the service is named twice, as \(quoted(text)) and with -s",
                hint: "give either \(quoted(text)) or -s SERVICE, not both")
        }
        do {
            return try SecretReference(parsingName: text + "/").service
        } catch {
            throw UsageError("invalid item name \(quoted(text)): \(error.problem)", hint: ItemArguments.referenceHint)
        }
    }

    /// How to write an item's name, for a hint.
    static let referenceHint =
        "write SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT (or vault://…), in quotes when a name has spaces ('AWS prod/deploy user'); "
        + "'/', '%', '?' and '#' in a name are percent-encoded, e.g. %2F"

    private static func problem(_ error: SecretReferenceError, name: String) -> String {
        guard case .segmentCount(let count) = error, !SecretReference.isReference(name) else { return error.problem }
        return "it has \(count) parts; it needs SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT"
    }

    /// The service of the positional reference, else --service, required.
    func service() throws -> String {
        if let name = try serviceName() { return name }
        if let reference = try reference() { return reference.service }
        guard let service = selection.service else {
            throw UsageError("missing --service", hint: "name the item's service with -s SERVICE")
        }
        guard !service.isEmpty else { throw UsageError("the service is empty", hint: "give a non-empty -s SERVICE") }
        return service
    }

    /// The account of the positional reference, else --account, required (it may be empty).
    func account() throws -> String {
        if let reference = try reference() { return reference.account }
        guard let account = selection.account else {
            throw UsageError("missing --account", hint: "name the item's account with -a ACCOUNT (it may be \"\")")
        }
        return account
    }

    /// The group of a three-part positional reference, else --group, or
    /// VAULT_GROUP, or `group` in the config file, or nil.
    func group() throws -> AccessGroup? {
        if let group = try reference()?.group { return group }
        guard let name = try Settings(invocation).value(ItemSelection.group.name, given: selection.group) else {
            return nil
        }
        return try ItemArguments.group(named: name)
    }

    /// Every --group given (`names`, no default), at least one.
    static func namedGroups(_ names: [String], purpose: String) throws -> [AccessGroup] {
        guard !names.isEmpty else {
            throw UsageError("no --group given", hint: "name the groups \(purpose) with --group GROUP (repeat it for several)")
        }
        var groups: [AccessGroup] = []
        for name in names where !groups.contains(where: { $0.name == name }) { groups.append(try ItemArguments.group(named: name)) }
        return groups
    }

    /// --out, given as `out`: a file that must not exist yet (vault never overwrites what it
    /// wrote, e.g. a credential or bundle), or `-` for stdout when `allowsStdout`.
    static func newOutputFile(_ out: String?, for what: String, allowsStdout: Bool) throws -> String {
        guard let out, !out.isEmpty else {
            throw UsageError(
                "no --out given",
                hint: "name a new file for the \(what) with --out FILE" + (allowsStdout ? ", or --out - for stdout" : ""))
        }
        if out == "-", allowsStdout { return out }
        if KeyFile.exists(path: out) {
            throw UsageError("\(quoted(out)) already exists", hint: "choose a new file for --out; vault never overwrites a \(what)")
        }
        return out
    }

    /// A group name, or a usage error that states the rule.
    static func group(named name: String) throws -> AccessGroup {
        guard let group = AccessGroup(name) else {
            throw UsageError("invalid group \(quoted(name))", hint: "a group name is \(AccessGroup.rule)")
        }
        return group
    }

    /// --class, or nil.
    func accessibility() throws -> Accessibility? {
        guard let name = selection.accessibility else { return nil }
        guard let value = Accessibility(name: name) else {
            throw UsageError(
                "unknown class \(quoted(name))",
                hint: "use one of: \(Accessibility.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// The descriptive attributes `given` (label, comment, kind, generic, env name, expires), checked.
    func details(_ given: ItemDetailOptions) throws -> ItemDetails {
        let envName = given.envName
        if let envName, !Dotenv.isValidName(envName) {
            throw UsageError(
                "invalid --env-name \(quoted(envName))",
                hint: "an environment variable name is letters, digits and _, not starting with a digit")
        }
        if let envName, ProtectedVariable.contains(envName) {
            throw UsageError(
                "--env-name \(envName) is protected: an item that sets it changes what the programs of a job do",
                hint: "choose another name; a job that means to set \(envName) writes it itself (--env, an env file), see docs/RUN.md")
        }
        return ItemDetails(
            label: given.label, comment: given.comment, kind: given.kind,
            generic: given.generic, envName: envName, expires: try given.expires?.get().date(.future, now: invocation.now))
    }

    /// The query the selecting options describe (service, account, group, label, class).
    func query() throws -> Query {
        let reference = try reference()
        return Query(
            service: try serviceName() ?? reference?.service ?? selection.service, account: reference?.account ?? selection.account,
            group: try group(),
            accessibility: try accessibility(), label: selection.label)
    }
}
