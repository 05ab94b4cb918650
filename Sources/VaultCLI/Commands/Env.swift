#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// `vault env`: prints an assignment for every item in scope, named by its
/// env name (or the default derived from service and account).
enum EnvCommand {
    static func run(_ invocation: Invocation) throws {
        if invocation.wantsJSON {
            throw UsageError("env takes --format json, not --json", hint: "run 'vault env --format json'")
        }
        let formatName = invocation.arguments.value(.format) ?? EnvFormat.dotenv.rawValue
        guard let format = EnvFormat(rawValue: formatName) else {
            throw UsageError("unknown format \(quoted(formatName))",
                             hint: "use one of: \(EnvFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let githubEnv = invocation.environment["GITHUB_ENV"].flatMap { $0.isEmpty ? nil : $0 }
        if format == .github, githubEnv == nil {
            throw UsageError("--format github appends to $GITHUB_ENV, which is not set",
                             hint: "run it in a GitHub Actions step, or use --format dotenv, shell or json")
        }
        let variables = try self.variables(invocation)
        let refused = format.unwritable(variables)
        if !refused.isEmpty {
            throw CommandFailure(.usage, "\(counted(refused.count, "secret")) \(refused.count == 1 ? "holds" : "hold") a ', a \\, a line break or ${, which --format dotenv cannot write so that bash and python-dotenv read the same value; nothing was printed",
                                 details: refused, hint: "use --format shell (for sh, bash, zsh) or --format json")
        }
        let terminal = invocation.terminal
        if variables.isEmpty { terminal.say("no items in scope; nothing to print") }
        guard format == .github, let githubEnv else {
            format.render(variables).withUnsafeBytes { terminal.writeOut($0) }
            return
        }
        GitHubEnvironment.maskCommands(variables.map(\.value)).withUnsafeBytes { terminal.writeOut($0) }
        try append(format.render(variables), to: githubEnv)
        terminal.say("exported \(counted(variables.count, "variable")) to $GITHUB_ENV")
    }

    /// Name and secret of every item of the group (or of every group), by name.
    private static func variables(_ invocation: Invocation) throws -> [(name: String, value: SecretBytes)] {
        let group = try ItemArguments(invocation).group()
        let store = try VaultAccess(invocation).store()
        let items = try store.attributes(matching: Query(group: group))
        let byName = Dictionary(grouping: items, by: EnvironmentName.of)
        if let (name, clashing) = byName.first(where: { $0.value.count > 1 }) {
            throw CommandFailure(.usage, "\(clashing.count) items would set \(name)",
                                 details: clashing.map { "group \(quoted($0.group.name)), service \(quoted($0.service)), account \(quoted($0.account))" },
                                 hint: "give one another name with 'vault update … --keep-secret --env-name NAME', or pick a group with --group")
        }
        return try byName.keys.sorted().compactMap { name in
            let attributes = byName[name]![0]
            let secret = try store.item(matching: Query(service: attributes.service, account: attributes.account, group: attributes.group)).secret
            guard isEnvironmentText(secret) else {
                invocation.terminal.writeErr("vault: warning: skipped \(name): the secret of service \(quoted(attributes.service)), account \(quoted(attributes.account)) in group \(quoted(attributes.group.name)) is not text, so it cannot be an environment variable; read it with 'vault get'\n")
                return nil
            }
            return (name, secret)
        }
    }

    /// Whether a secret can be an environment variable's value: UTF-8 without NUL
    /// (checked in place, without copying it into a String).
    private static func isEnvironmentText(_ secret: SecretBytes) -> Bool {
        secret.withUnsafeBytes { bytes in
            guard !bytes.contains(0) else { return false }
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes.makeIterator()
            while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        }
    }

    /// Appends to the file GitHub Actions reads after the step.
    private static func append(_ secret: SecretBytes, to path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: path, operation: "open", errno: errno) }
        defer { close(fd) }
        let written = secret.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == secret.count else { throw VaultError.io(path: path, operation: "write", errno: errno) }
    }
}
