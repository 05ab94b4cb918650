#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// `vault env`'s options.
struct EnvArguments: CommandArguments {
    static let format = OptionSpec(
        "format", value: "FORMAT", help: "how to print the assignments", default: "dotenv",
        completion: .values(EnvFormat.allCases.map(\.rawValue)))

    static let options: [OptionSpec] = [
        RunArguments.referenceGroup,
        RunArguments.only,
        RunArguments.namePrefix,
        RunArguments.allowEnvName,
        format,
        OptionSpec(JSONArguments.json.name, help: "refused with a pointer to --format json", hidden: true)
    ]

    /// --group as given.
    var group: String?
    /// Every --allow-env-name: protected names items may set.
    var allowedNames: [String]
    /// Every --only, as given.
    var only: [String]
    /// Every --prefix, as given.
    var prefixes: [String]
    /// --format, dotenv when not given.
    var format: Converted<EnvFormat>
    /// --json, which env refuses with a pointer to --format json.
    var json: Bool

    init(_ options: OptionReader) {
        group = options.value(ItemSelection.group)
        allowedNames = options.values(RunArguments.allowEnvName)
        only = options.values(RunArguments.only)
        prefixes = options.values(RunArguments.namePrefix)
        let formatName = options.value(EnvArguments.format) ?? EnvFormat.dotenv.rawValue
        format = Converted(
            formatName, EnvFormat.init(rawValue:),
            else: UsageError(
                "unknown format \(quoted(formatName))",
                hint: "use one of: \(EnvFormat.allCases.map(\.rawValue).joined(separator: ", "))"))
        json = options.flag(JSONArguments.json)
    }

    func validate() throws {
        if json {
            throw UsageError("env takes --format json, not --json", hint: "run 'vault env --format json'")
        }
        _ = try acceptedNames()
    }

    /// The names the job accepts (none named: the owner's, or a refusal once the vault is read);
    /// nil for json, which sets no variable and may print every name.
    func acceptedNames() throws -> AcceptedNames? {
        let accepted = try AcceptedNames(only: only, prefixes: prefixes)
        guard accepted.isEmpty else { return accepted }
        return try format.get() == .json ? nil : accepted
    }
}

/// `vault env`: prints an assignment for every item in scope, named by its
/// env name (or the default derived from service and account).
enum EnvCommand {
    static func run(_ arguments: EnvArguments, _ invocation: Invocation) throws {
        let format = try arguments.format.get()
        let githubEnv = Settings(invocation).value(variable: .githubEnv)
        if format == .github, githubEnv == nil {
            throw UsageError(
                "--format github appends to $GITHUB_ENV, which is not set",
                hint: "run it in a GitHub Actions step, or use --format dotenv, shell or json")
        }
        let group = try ItemArguments(ItemSelection(group: arguments.group), invocation).group()
        let groupVariables = try GroupVariables(
            invocation, groups: [group], accepted: arguments.acceptedNames(),
            allowedNames: arguments.allowedNames, command: "vault env --format \(format.rawValue)")
        let variables = groupVariables.variables
        let refused = format.unwritable(variables)
        if !refused.isEmpty {
            throw CommandFailure(
                .usage,
                "\(counted(refused.count, "secret")) \(refused.count == 1 ? "holds" : "hold") a ', a \\, a line break or ${, which --format dotenv cannot write so that bash and python-dotenv read the same value; nothing was printed",
                details: refused, hint: "use --format shell (for sh, bash, zsh) or --format json")
        }
        let terminal = invocation.terminal
        if format == .github, let githubEnv {
            GitHubEnvironment.maskCommands(variables.map(\.value)).withUnsafeBytes { terminal.writeOut($0) }
            try append(format.render(variables), to: githubEnv)
            terminal.say("exported \(counted(variables.count, "variable")) to $GITHUB_ENV")
        } else {
            format.render(variables).withUnsafeBytes { terminal.writeOut($0) }
        }
        if let failure = groupVariables.skippedFailure { throw failure }
    }

    /// Appends to the file GitHub Actions reads after the step.
    private static func append(_ secret: SecretBytes, to path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: path, operation: .open, errno: errno) }
        defer { close(fd) }
        let written = secret.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == secret.count else { throw VaultError.io(path: path, operation: .write, errno: errno) }
    }
}
