import VaultCore

/// Reading item attributes and queries from parsed options, with the usage
/// errors that go with them. Shared by every item command.
struct ItemArguments {
    let arguments: ParsedArguments
    let environment: [String: String]

    init(_ invocation: Invocation) {
        arguments = invocation.arguments
        environment = invocation.environment
    }

    /// --service, required.
    func service() throws -> String {
        guard let service = arguments.value("service") else {
            throw UsageError("missing --service", hint: "name the item's service with -s SERVICE")
        }
        guard !service.isEmpty else { throw UsageError("the service is empty", hint: "give a non-empty -s SERVICE") }
        return service
    }

    /// --account, required (it may be empty).
    func account() throws -> String {
        guard let account = arguments.value("account") else {
            throw UsageError("missing --account", hint: "name the item's account with -a ACCOUNT (it may be \"\")")
        }
        return account
    }

    /// --group, or VAULT_GROUP, or `group` in the config file, or nil.
    func group() throws -> AccessGroup? {
        let fromEnvironment = environment["VAULT_GROUP"].flatMap { $0.isEmpty ? nil : $0 }
        guard let name = try arguments.value("group") ?? fromEnvironment ?? Config.load(environment: environment).value("group") else {
            return nil
        }
        guard let group = AccessGroup(name) else {
            throw UsageError("invalid group \(quoted(name))", hint: "a group name is \(AccessGroup.rule)")
        }
        return group
    }

    /// --class, or nil.
    func accessibility() throws -> Accessibility? {
        guard let name = arguments.value("class") else { return nil }
        guard let value = Accessibility(name: name) else {
            throw UsageError("unknown class \(quoted(name))",
                             hint: "use one of: \(Accessibility.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// The descriptive attributes given as options (label, comment, kind, generic, env name).
    func details() throws -> ItemDetails {
        let envName = arguments.value("env-name")
        if let envName, !Dotenv.isValidName(envName) {
            throw UsageError("invalid --env-name \(quoted(envName))",
                             hint: "an environment variable name is letters, digits and _, not starting with a digit")
        }
        return ItemDetails(label: arguments.value("label"), comment: arguments.value("comment"), kind: arguments.value("kind"),
                           generic: arguments.value("generic"), envName: envName)
    }

    /// The query the selecting options describe (service, account, group, label, class).
    func query() throws -> Query {
        Query(service: arguments.value("service"), account: arguments.value("account"), group: try group(),
              accessibility: try accessibility(), label: arguments.value("label"))
    }
}
