import VaultCore

/// `vault unlock`'s options.
struct UnlockArguments: CommandArguments {
    static let timeout = OptionSpec(
        "timeout", value: "DURATION",
        help: "end the session after this long without use, e.g. 90s, 15m, 2h",
        default: "15m", configKey: .sessionTimeout)
    static let raw = OptionSpec("raw", help: "print only the token")
    static let export = OptionSpec("export", help: "print 'export VAULT_SESSION=…' for eval")

    static let options: [OptionSpec] = [
        timeout,
        raw,
        export,
        OptionSpec(
            JSONArguments.json.name,
            help: "print the token, whether an existing session was extended, the timeout, and whether the kernel keyring keeps it, as JSON"
        )
    ]

    /// --timeout as given; the environment or the config may set it too.
    var timeout: String?
    /// --raw: print the token alone.
    var raw: Bool
    /// --export: print it as a shell's export line.
    var export: Bool
    var json: Bool

    init(_ options: OptionReader) {
        timeout = options.value(UnlockArguments.timeout)
        raw = options.flag(UnlockArguments.raw)
        export = options.flag(UnlockArguments.export)
        json = options.flag(JSONArguments.json)
    }

    func validate() throws {
        let ways = [(UnlockArguments.raw.name, raw), (UnlockArguments.export.name, export), (JSONArguments.json.name, json)].filter(\.1)
            .map(\.0)
        if ways.count > 1 {
            throw UsageError("--\(ways[0].long) and --\(ways[1].long) cannot be combined", hint: "choose one way to print the token")
        }
    }
}

/// `vault unlock`: extends the live session in VAULT_SESSION or the login's
/// kernel keyring, or asks once and starts a new one, kept in the login's
/// keyring where it can be; prints its token when asked, or when only the token holds it.
enum UnlockCommand {
    static func run(_ arguments: UnlockArguments, _ invocation: Invocation) throws {
        let timeout =
            try Settings(invocation).duration(UnlockArguments.timeout.name, given: arguments.timeout) ?? Vault.defaultSessionTimeout
        let access = VaultAccess(invocation)
        let terminal = invocation.terminal
        let printsToken = arguments.raw || arguments.export || arguments.json
        if terminal.stdoutIsTTY, !printsToken, access.sessionToken == nil,
            let reason = LoginKeyringText.noSessionPlace(
                keyringOff: !access.usesLoginKeyring,
                problem: access.usesLoginKeyring ? Vault.loginKeyringProblem() : nil)
        {
            throw LoginKeyringText.tokenNotShown(reason)
        }
        let session = try UnlockedSession.extendOrStart(access, timeout: timeout)
        let token = session.token
        let place = session.inLoginKeyring ? "this login's session" : "the session in VAULT_SESSION"
        if let problem = session.keyringProblem { terminal.diagnostics.notice(LoginKeyringText.unavailable(problem)) }
        if arguments.raw {
            terminal.writeOut(token + "\n")
        } else if arguments.export {
            terminal.writeOut("export VAULT_SESSION=\(token)\n")
        } else if arguments.json {
            // The token is what unlock hands over, as --raw prints it; it opens nothing without this user's runtime directory.
            terminal.writeOut(
                JSONValue.object([
                    ("session", .string(token)), ("extended", .bool(session.extended)),
                    ("timeout_seconds", .number(timeout)),
                    ("kernel_keyring", .bool(session.inLoginKeyring))
                ]).text + "\n")
        } else if session.inLoginKeyring {
            terminal.say(
                session.extended
                    ? "extended \(place); it ends after \(DurationText.describe(timeout)) without use"
                    : LoginKeyringText.unlocked(timeout: timeout))
            return
        } else if terminal.stdoutIsTTY {
            // The token would stay in the terminal's scrollback: a shell takes it through eval instead.
            terminal.say(
                session.extended
                    ? "extended \(place); it ends after \(DurationText.describe(timeout)) without use"
                    : "unlocked, but the session lives only in its token; carry one into this shell with: \(LoginKeyringText.carry)")
            return
        } else {
            terminal.say(
                "\(session.extended ? "extended \(place)" : "unlocked"); the session ends after \(DurationText.describe(timeout)) without use. Set it in this shell with:"
            )
            terminal.writeOut("export VAULT_SESSION=\(token)\n")
        }
        if session.extended, arguments.raw || arguments.export {
            terminal.say("extended \(place); it ends after \(DurationText.describe(timeout)) without use")
        }
    }
}

/// The session `vault unlock` leaves: extended or new, and where it lives.
struct UnlockedSession {
    var token: String
    var extended: Bool
    var inLoginKeyring: Bool
    /// Why the login's keyring could not keep a new session, to say once.
    var keyringProblem: LoginKeyringProblem?

    /// The live session in VAULT_SESSION, else the one the login's keyring keeps, extended by
    /// `timeout` asking for nothing; else a new one from a credential, kept in the login's keyring where it can be.
    static func extendOrStart(_ access: VaultAccess, timeout: Int) throws -> UnlockedSession {
        let keyring = access.usesLoginKeyring
        if let current = access.sessionToken {
            let vault = try access.vault()
            if try vault.extendSession(token: current, timeout: timeout) {
                let kept = keyring && vault.loginKeyringToken() == current
                if kept { try? vault.keepInLoginKeyring(sessionToken: current, timeout: timeout) }
                return UnlockedSession(token: current, extended: true, inLoginKeyring: kept)
            }
        } else if keyring {
            let vault = try access.vault()
            if let kept = vault.loginKeyringToken(), try vault.extendSession(token: kept, timeout: timeout),
                (try? vault.keepInLoginKeyring(sessionToken: kept, timeout: timeout)) != nil
            {
                return UnlockedSession(token: kept, extended: true, inLoginKeyring: true)
            }
        }
        let vault = try access.vaultWithCredential()
        var session = UnlockedSession(token: try vault.startSession(timeout: timeout), extended: false, inLoginKeyring: false)
        guard keyring else { return session }
        do {
            try vault.keepInLoginKeyring(sessionToken: session.token, timeout: timeout)
            session.inLoginKeyring = true
        } catch let problem as LoginKeyringProblem {
            session.keyringProblem = problem
        }
        return session
    }
}
