import FoundationEssentials
import VaultCore

/// Reading item attributes and queries from parsed options, with the usage
/// errors that go with them. Shared by every item command.
struct ItemArguments {
    let arguments: ParsedArguments
    let environment: [String: String]
    private let invocation: Invocation

    init(_ invocation: Invocation) {
        self.invocation = invocation
        arguments = invocation.arguments
        environment = invocation.environment
    }

    /// --service, required.
    func service() throws -> String {
        guard let service = arguments.value(.service) else {
            throw UsageError("missing --service", hint: "name the item's service with -s SERVICE")
        }
        guard !service.isEmpty else { throw UsageError("the service is empty", hint: "give a non-empty -s SERVICE") }
        return service
    }

    /// --account, required (it may be empty).
    func account() throws -> String {
        guard let account = arguments.value(.account) else {
            throw UsageError("missing --account", hint: "name the item's account with -a ACCOUNT (it may be \"\")")
        }
        return account
    }

    /// --group, or VAULT_GROUP, or `group` in the config file, or nil.
    func group() throws -> AccessGroup? {
        guard let name = try Settings(invocation).value(.group) else {
            return nil
        }
        return try ItemArguments.group(named: name)
    }

    /// Every --group given (no default), at least one.
    func namedGroups(purpose: String) throws -> [AccessGroup] {
        let names = arguments.values(.group)
        guard !names.isEmpty else { throw UsageError("no --group given", hint: "name the groups \(purpose) with --group GROUP (repeat it for several)") }
        var groups: [AccessGroup] = []
        for name in names where !groups.contains(where: { $0.name == name }) { groups.append(try ItemArguments.group(named: name)) }
        return groups
    }

    /// --out: a file that must not exist yet (vault never overwrites what it
    /// wrote, e.g. a credential or bundle), or `-` for stdout when `allowsStdout`.
    func newOutputFile(for what: String, allowsStdout: Bool) throws -> String {
        guard let out = arguments.value(.out), !out.isEmpty else {
            throw UsageError("no --out given",
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
        guard let name = arguments.value(.class) else { return nil }
        guard let value = Accessibility(name: name) else {
            throw UsageError("unknown class \(quoted(name))",
                             hint: "use one of: \(Accessibility.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// The descriptive attributes given as options (label, comment, kind, generic, env name, expires).
    func details() throws -> ItemDetails {
        let envName = arguments.value(.envName)
        if let envName, !Dotenv.isValidName(envName) {
            throw UsageError("invalid --env-name \(quoted(envName))",
                             hint: "an environment variable name is letters, digits and _, not starting with a digit")
        }
        if let envName, ProtectedVariable.contains(envName) {
            throw UsageError("--env-name \(envName) is protected: an item that sets it changes what the programs of a job do",
                             hint: "choose another name; a job that means to set \(envName) writes it itself (--env, an env file), see docs/RUN.md")
        }
        return ItemDetails(label: arguments.value(.label), comment: arguments.value(.comment), kind: arguments.value(.kind),
                           generic: arguments.value(.generic), envName: envName, expires: try expiry())
    }

    /// Whether --expires never was given: the item's expiry is removed.
    var removesExpiry: Bool { arguments.value(.expires) == "never" }

    /// --expires as a date: a duration from now, or a date that has not passed; nil when not given or `never`.
    func expiry(now: Date? = nil) throws -> Date? {
        let now = now ?? invocation.now
        guard let text = arguments.value(.expires), text != "never" else { return nil }
        return try DurationText.pointInTime("expires", text, .future, now: now)
    }

    /// The query the selecting options describe (service, account, group, label, class).
    func query() throws -> Query {
        Query(service: arguments.value(.service), account: arguments.value(.account), group: try group(),
              accessibility: try accessibility(), label: arguments.value(.label))
    }
}
