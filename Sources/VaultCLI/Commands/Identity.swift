import VaultCore

/// `vault identity`'s arguments, with the global --identity that `show` reads.
struct IdentityArguments: CommandArguments {

    static let options: [OptionSpec] = [
        OptionSpec(
            GrantArguments.out.name, short: "o", value: "FILE", help: "new: the new file to write the identity to; - writes it to stdout",
            completion: .file),
        JSONArguments.json
    ]

    /// new or show (the table allows no other).
    var action: String
    /// --out: where `new` writes the identity.
    var out: String?
    /// show FILE: the identity file named after the action.
    var file: String?
    /// --identity as given.
    var identity: String?
    var json: Bool

    init(_ options: OptionReader) {
        action = options.positionals.first ?? ""
        file = options.positionals.dropFirst().first
        out = options.value(GrantArguments.out)
        identity = options.value(GlobalOptions.identity.name)
        json = options.flag(JSONArguments.json)
    }

    func validate() throws {
        if action == "new", identity != nil {
            throw UsageError(
                "identity new makes an identity; --identity names one for show", hint: "leave --identity out, or run 'vault identity show'")
        }
        if action == "new", let file {
            throw UsageError(
                "identity new takes no file name; it writes to --out FILE", hint: "run 'vault identity new --out \(shellQuoted(file))'")
        }
        if file != nil, identity != nil {
            throw UsageError(
                "the identity is named twice, as a file and with --identity",
                hint: "give either 'vault identity show FILE' or --identity FILE, not both")
        }
        if action == "show", out != nil {
            throw UsageError(
                "identity show prints a recipient; --out is for new", hint: "leave --out out, or run 'vault identity new --out FILE'")
        }
    }
}

/// `vault identity new|show`: age X25519 identities and their recipients.
enum IdentityCommand {
    static func run(_ arguments: IdentityArguments, _ invocation: Invocation) throws {
        switch arguments.action {
        case "new": try makeNew(arguments, invocation)
        case "show": try show(arguments, invocation)
        default: preconditionFailure("the command table allows only new and show")
        }
    }

    private static func makeNew(_ arguments: IdentityArguments, _ invocation: Invocation) throws {
        let out = arguments.out ?? IdentityFile.defaultPath(environment: invocation.environment)
        if out == "-", arguments.json {
            throw UsageError("--json and --out - would both write to stdout", hint: "give --out FILE with --json")
        }
        let identity = try AgeIdentity.generate()
        if out == "-" {
            IdentityFile.contents(of: identity, created: DateText.iso(invocation.now)).withUnsafeBytes { invocation.terminal.writeOut($0) }
            invocation.terminal.diagnostics.notice("recipient: \(identity.recipient)")
            return
        }
        try IdentityFile.write(identity, to: out, created: DateText.iso(invocation.now))
        if arguments.json {
            invocation.terminal.writeOut(
                JSONValue.object([("file", .string(out)), ("recipient", .string(identity.recipient.description))]).text + "\n")
            return
        }
        invocation.terminal.writeOut("\(identity.recipient)\n")
        invocation.terminal.say("wrote a new identity to \(quoted(out)); the line above is its recipient, to give to a vault's owner")
    }

    private static func show(_ arguments: IdentityArguments, _ invocation: Invocation) throws {
        let identities: [AgeIdentity]
        if let file = arguments.file {
            identities = try IdentityFile.load(file, source: quoted(file))
        } else if case let (value, source)? = try Settings(invocation).sourcedValue(GlobalOptions.identity.name, given: arguments.identity)
        {
            try IdentitySetting.refuseTextOutsideItsVariable(value, source: source)
            identities = try IdentityFile.load(value, source: source.described)
        } else {
            let path = IdentityFile.defaultPath(environment: invocation.environment)
            identities = try IdentityFile.load(path, source: quoted(path))
        }
        let recipients = identities.map(\.recipient.description)
        if arguments.json {
            invocation.terminal.writeOut(JSONValue.object([("recipients", .array(recipients.map { .string($0) }))]).text + "\n")
        } else {
            invocation.terminal.writeOut(recipients.map { $0 + "\n" }.joined())
        }
    }
}
