#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// `vault run`: resolves the secret references in the environment, env files
/// and `--env`, then runs the command with them, its output masked.
/// `vault run`'s options, and the command after `--`.
struct RunArguments: CommandArguments {
    static let env = OptionSpec("env", value: "NAME=VALUE", help: "set NAME for the command; VALUE may be a reference", repeatable: true)
    static let envFile = OptionSpec(
        "env-file", value: "FILE", help: "read NAME=VALUE lines from FILE (dotenv syntax)", repeatable: true,
        completion: .file)
    static let envGroup = OptionSpec(
        "env-group", value: "GROUP",
        help: "set every item of GROUP you can read as a variable named by its env name, masked like references (as envchain does)",
        repeatable: true, completion: .group)
    static let noMasking = OptionSpec("no-masking", help: "pass the command's output through unmasked")
    static let keepVaultEnv = OptionSpec(
        "keep-vault-env",
        help:
            "hand the command the variables that unlock vault (VAULT_SESSION, VAULT_CREDENTIAL, VAULT_KEY_FILE, VAULT_PASSPHRASE_FILE) and the login's kernel keyring, which run keeps from it by default; the command can then read every item you can"
    )
    static let allowTrace = OptionSpec(
        "allow-trace",
        help:
            "let the command trace other processes and gain privileges: without it, it runs with no-new-privs (sudo, ping and other setuid or file-capability programs do not gain theirs) and cannot ptrace, read the memory of or take descriptors from a process outside it (debuggers, strace, rr and LeakSanitizer fail); see docs/RUN.md"
    )
    static let mount = OptionSpec(
        "mount", value: "PATH[=TEMPLATE]",
        help:
            "serve the referenced variables (or TEMPLATE filled in) on a named pipe at PATH instead of the environment; a bare name goes in a private directory under $XDG_RUNTIME_DIR",
        completion: .file)
    static let mountFormat = OptionSpec(
        "mount-format", value: "FORMAT", help: "how the variables are written on the pipe without a template",
        default: "dotenv", completion: .values(MountOption.Format.allCases.map(\.rawValue)))
    static let mountMaxReads = OptionSpec(
        "mount-max-reads", value: "N", help: "remove the pipe after N readers; 0 serves until the command exits", default: "0")
    static let allowEnvName = OptionSpec(
        "allow-env-name", value: "NAME",
        help:
            "let an item set NAME though it is protected (PATH, BASH_ENV, LD_*, GIT_*, GITHUB_ENV and the rest of docs/RUN.md); without it such an item is skipped and the command exits 1",
        repeatable: true)
    static let only = OptionSpec(
        "only", value: "NAME[,NAME…]",
        help:
            "take the items whose variable name is NAME; the job must name what it accepts with --only or --prefix, since an item's writer chooses its name",
        repeatable: true)
    static let namePrefix = OptionSpec(
        "prefix", value: "PREFIX", help: "take the items whose variable name begins with PREFIX (e.g. APP_)", repeatable: true)
    static let referenceGroup = ItemSelection.group.with(
        help:
            "group of references that name none, and of the items env prints; every group when none is named")

    static let options: [OptionSpec] = [
        env,
        envFile,
        referenceGroup,
        envGroup,
        only,
        namePrefix,
        allowEnvName,
        noMasking,
        keepVaultEnv,
        allowTrace,
        mount,
        mountFormat,
        mountMaxReads
    ]

    /// The command to run and its arguments.
    var command: [String]
    /// Every --env NAME=VALUE, in order.
    var assignments: [String]
    /// Every --env-file, in order.
    var envFiles: [String]
    /// --group as given: the group of references that name none.
    var group: String?
    /// Every --env-group: groups whose items become variables.
    var envGroups: [String]
    /// Every --allow-env-name: protected names items may set.
    var allowedNames: [String]
    /// Every --only, as given.
    var only: [String]
    /// Every --prefix, as given.
    var prefixes: [String]
    var noMasking: Bool
    var keepVaultEnv: Bool
    /// --allow-trace: no trace guard on the command.
    var allowTrace: Bool
    var mount: MountArguments

    init(_ options: OptionReader) {
        command = options.trailing
        assignments = options.values(RunArguments.env)
        envFiles = options.values(RunArguments.envFile)
        group = options.value(ItemSelection.group)
        envGroups = options.values(RunArguments.envGroup)
        allowedNames = options.values(RunArguments.allowEnvName)
        only = options.values(RunArguments.only)
        prefixes = options.values(RunArguments.namePrefix)
        noMasking = options.flag(RunArguments.noMasking)
        keepVaultEnv = options.flag(RunArguments.keepVaultEnv)
        allowTrace = options.flag(RunArguments.allowTrace)
        mount = MountArguments(options)
    }

    func validate() throws {
        guard let program = command.first, !program.isEmpty else {
            throw UsageError("no command to run", hint: "put it after --, e.g. vault run -- ./deploy.sh")
        }
        try mount.validate()
        _ = try AcceptedNames(only: only, prefixes: prefixes)
    }
}

enum RunCommand {
    static func run(_ arguments: RunArguments, _ invocation: Invocation) throws {
        let groups = try arguments.envGroups.map(ItemArguments.group(named:))
        let groupVariables =
            groups.isEmpty
            ? nil
            : try GroupVariables(
                invocation, groups: groups, accepted: AcceptedNames(only: arguments.only, prefixes: arguments.prefixes),
                allowedNames: arguments.allowedNames, command: "vault run --env-group")
        let environment = try ChildEnvironment(invocation, arguments, groupVariables: groupVariables)
        if arguments.keepVaultEnv {
            invocation.terminal.diagnostics.warning("--keep-vault-env hands the command what unlocks vault; it can read every item you can")
        }
        let mount = try MountOption(arguments.mount)
        var sealedFields = groupVariables?.sealedFields ?? []
        let secrets = try ReferenceResolver(invocation, group: arguments.group).resolve(
            environment.referenceUses + (mount?.referenceUses ?? []),
            action: "nothing was run", sealedFields: &sealedFields)
        var variables = try environment.resolved(with: secrets)
        let terminal = invocation.terminal

        let signals = try SignalRelay()
        defer { signals.restore() }
        let mounted = try mount?.start(&variables, from: environment, secrets: secrets, invocation: invocation)
        defer { mounted?.close() }
        if !arguments.keepVaultEnv { try startChildOutsideLoginKeyring() }
        if !arguments.allowTrace { try guardChildTracing() }
        guard !arguments.noMasking else {
            let child = try ChildProcess.spawn(arguments.command, environment: &variables, streams: ChildStreams())
            var relay = OutputRelay(child: child, signals: signals, forwardTerminalSignals: false, terminal: nil, keyboard: nil)
            try exit(with: relay.run(), skipped: groupVariables?.skippedFailure)
            return
        }
        let patterns = MaskPatterns(secrets: Array(secrets.values) + environment.groupSecrets + sealedFields)
        terminal.noteUnmaskedSecrets(patterns)
        let status =
            terminal.stdoutIsTTY
            ? try runOnPseudoTerminal(arguments.command, &variables, patterns, signals, terminal)
            : try runOnPipes(arguments.command, &variables, patterns, signals)
        try exit(with: status, skipped: groupVariables?.skippedFailure)
    }

    /// The child writes to pipes and stays in vault's process group, so a
    /// terminal's ^C reaches it directly (vault does not send it again).
    private static func runOnPipes(
        _ argv: [String], _ variables: inout [(name: String, value: [UInt8])], _ patterns: MaskPatterns,
        _ signals: SignalRelay
    ) throws -> Int32 {
        let stdout = try PipeEnds()
        let stderr = try PipeEnds()
        let child: ChildProcess
        do {
            defer {
                close(stdout.writeEnd)
                close(stderr.writeEnd)
            }
            child = try ChildProcess.spawn(
                argv, environment: &variables,
                streams: ChildStreams(stdout: stdout.writeEnd, stderr: stderr.writeEnd))
        }
        var relay = OutputRelay(child: child, signals: signals, forwardTerminalSignals: false, terminal: nil, keyboard: nil)
        relay.relay(stdout.readEnd, to: STDOUT_FILENO, patterns: patterns)
        relay.relay(stderr.readEnd, to: STDERR_FILENO, patterns: patterns)
        return relay.run()
    }

    /// vault's stdout is a terminal: the child gets a pseudo-terminal of its
    /// own (and stdin from it when vault's stdin is a terminal, with vault's
    /// terminal in raw mode meanwhile), so it behaves as on a terminal while
    /// its output still passes the masker.
    private static func runOnPseudoTerminal(
        _ argv: [String], _ variables: inout [(name: String, value: [UInt8])], _ patterns: MaskPatterns,
        _ signals: SignalRelay, _ terminal: Terminal
    ) throws -> Int32 {
        let pty = try PseudoTerminal()
        let stderr = terminal.stderrIsTTY ? nil : try PipeEnds()
        let child: ChildProcess
        do {
            defer {
                pty.closeSlave()
                if let stderr { close(stderr.writeEnd) }
            }
            child = try ChildProcess.spawn(
                argv, environment: &variables,
                streams: ChildStreams(
                    terminalPath: pty.slavePath, stdinFromTerminal: terminal.stdinIsTTY, stderr: stderr?.writeEnd))
        }
        var rawMode = RawMode()
        if terminal.stdinIsTTY { rawMode.enter(STDIN_FILENO) }
        defer { rawMode.leave(STDIN_FILENO) }
        var relay = OutputRelay(
            child: child, signals: signals, forwardTerminalSignals: true, terminal: pty,
            keyboard: terminal.stdinIsTTY ? STDIN_FILENO : nil)
        relay.relay(pty.master, to: STDOUT_FILENO, patterns: patterns)
        if let stderr { relay.relay(stderr.readEnd, to: STDERR_FILENO, patterns: patterns) }
        return relay.run()
    }

    /// The child starts in a session keyring of its own (this thread joins a new one, and the child
    /// inherits it), so it cannot possess the session the login's keyring keeps: children get
    /// secrets, never what unlocks vault. vault itself needs the login's keyring no more.
    private static func startChildOutsideLoginKeyring() throws {
        do {
            try Vault.leaveLoginKeyring()
        } catch let problem as LoginKeyringProblem {
            throw CommandFailure(
                .failure, "cannot start the command outside the login's keyring: " + LoginKeyringText.reason(problem),
                hint: "nothing was run; free some of this user's keys (see /proc/keys) and run it again")
        }
    }

    /// Sets the trace guard the command inherits; nothing runs when it cannot be set.
    private static func guardChildTracing() throws {
        do {
            try TraceGuard.enter()
        } catch {
            throw CommandFailure(
                .failure,
                "cannot keep the command from tracing other processes: \(error.call) failed (\(String(cString: strerror(error.errno))))",
                hint: "nothing was run; pass --allow-trace to run it without the guard (docs/RUN.md)")
        }
    }

    /// Exits with the command's status; with 1 and the failure of skipped protected names when it succeeded.
    private static func exit(with status: Int32, skipped: CommandFailure?) throws {
        if status != 0 { throw ChildExitStatus(code: status) }
        if let skipped { throw skipped }
    }
}
