import VaultCore
import VaultCrypto

/// `vault cargo-credential --cargo-plugin` (cargo runs `vault --cargo-plugin`, which means the
/// same): cargo's credential provider protocol over the item of service `cargo:INDEX-URL`. It
/// says hello, then answers each request line until cargo closes stdin; a failure is an `Err`
/// reply, which cargo shows, and never ends the conversation.
enum CargoCredentialCommand {
    static let servicePrefix = "cargo:"
    static let kind = "cargo token"

    static func run(_ arguments: CargoCredentialArguments, _ invocation: Invocation) throws {
        let terminal = invocation.terminal
        guard arguments.cargoPlugin else {
            throw UsageError(
                "cargo-credential speaks only cargo's protocol", hint: "run it as cargo does: vault cargo-credential --cargo-plugin")
        }
        terminal.writeOut(CargoCredentialReply.hello)
        let reader = HelperLineReader()
        while true {
            let line: SecretBytes
            do {
                guard let next = try reader.next() else { return }
                line = next
            } catch {
                // A line over the bound: what follows cannot be told apart, so the conversation ends.
                terminal.writeOut(CargoCredentialReply.other(message(error)))
                throw ReportedFailure(status: .usage)
            }
            if line.count == 0 { continue }
            reply(to: line, invocation).withUnsafeBytes { terminal.writeOut($0) }
        }
    }

    /// The reply to one request line.
    private static func reply(to line: SecretBytes, _ invocation: Invocation) -> SecretBytes {
        do {
            let request = try CargoCredentialRequest.parse(line)
            let service = servicePrefix + request.indexURL
            let requestInvocation = try invocationForArgs(request.args, invocation)
            let items = try ServiceCredentialItems(CargoCredentialArguments(requestInvocation).item, requestInvocation, kind: kind)
            switch request.action {
            case .get:
                let item = try items.get(service: service)
                return try CargoCredentialReply.token(try ServiceCredentialItems.token(of: item), expires: item.attributes.details.expires)
            case .login(let given):
                let token = try given ?? askToken(request, requestInvocation)
                try items.put(service: service, account: request.registryName ?? "", secret: token)
                return HelperJSON.plain(CargoCredentialReply.done("login"))
            case .logout:
                guard try items.erase(service: service) > 0 else {
                    throw VaultError.itemNotFound(Query(service: service, group: items.group))
                }
                return HelperJSON.plain(CargoCredentialReply.done("logout"))
            case .unknown:
                return HelperJSON.plain(CargoCredentialReply.operationNotSupported)
            }
        } catch VaultError.item(.itemNotFound) {
            return HelperJSON.plain(CargoCredentialReply.notFound)
        } catch {
            return HelperJSON.plain(CargoCredentialReply.other(message(error)))
        }
    }

    /// The message of an `Err` reply: vault's one line, without its line break.
    private static func message(_ error: Error) -> String {
        String(HelperReport.line(ErrorReport(error)).dropLast())
    }

    /// The invocation a request's `args` make: what follows the provider's path in cargo's
    /// `credential-provider` setting, parsed as vault's own argv (`cargo-credential --group ci`).
    private static func invocationForArgs(_ args: [String], _ invocation: Invocation) throws -> Invocation {
        guard !args.isEmpty else { return invocation }
        let command = CommandTable.cargoCredentialCommand.name
        let parsed = try Parser.parse(args.contains(command) ? args : [command] + args)
        guard parsed.command.name == command else {
            throw UsageError(
                "the credential-provider setting runs vault \(parsed.command.name)",
                hint: "set credential-provider = [\"vault\", \"cargo-credential\"] in ~/.cargo/config.toml")
        }
        return Invocation(arguments: parsed, environment: invocation.environment, terminal: invocation.terminal)
    }

    /// The token of a login cargo sent without one, typed at the terminal when vault may prompt.
    private static func askToken(_ request: CargoCredentialRequest, _ invocation: Invocation) throws -> SecretBytes {
        if let reason = VaultAccess(invocation).reasonPromptsAreOff {
            throw UsageError(
                "cargo sent no token and vault may not prompt here (\(reason))",
                hint: "give it on the command line: cargo login --registry NAME TOKEN")
        }
        guard let typed = try invocation.terminal.readHidden(prompt: "Token for \(request.registryName ?? request.indexURL): "),
            !typed.isEmpty
        else {
            throw UsageError("no token was typed", hint: "give it on the command line: cargo login --registry NAME TOKEN")
        }
        return SecretBytes(typed)
    }
}

/// The arguments of `cargo-credential`: whether cargo runs it, and the group and class of its items.
struct CargoCredentialArguments: CommandArguments {
    static let cargoPlugin = OptionSpec("cargo-plugin", help: "speak cargo's protocol on stdin and stdout (cargo passes it)")
    static let options = [cargoPlugin] + CredentialHelperArguments.options

    var cargoPlugin: Bool
    var item: ItemSelection

    init(_ options: OptionReader) {
        cargoPlugin = options.flag(Self.cargoPlugin)
        item = ItemSelection(group: options.value(ItemSelection.group), accessibility: options.value(ItemSelection.accessibility))
    }

    /// The arguments of a request's own invocation (its `args`).
    init(_ invocation: Invocation) {
        self.init(OptionReader(invocation.arguments))
    }
}
