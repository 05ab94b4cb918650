import FoundationEssentials
import VaultCore
import VaultCrypto

/// `vault otp`'s options.
struct OneTimeCodeArguments: CommandArguments {
    static let at = OptionSpec("at", value: "UNIX_TIME", help: "the TOTP code at this time, in seconds since 1970, instead of now")
    static let remaining = OptionSpec(
        "remaining",
        help:
            "print the seconds the TOTP code of now (or --at) stays valid instead of the code; gives no code, so an HOTP counter never moves"
    )

    static let options = [
        ItemSelection.service, ItemSelection.account, ItemSelection.group, at, remaining,
        JSONArguments.json.with(help: "print the code, its kind, and a TOTP code's period and seconds left as one JSON object"),
        ClipboardOptions.clip.with(help: "copy the code to the clipboard instead of printing it, and clear it later, as get --clip does"),
        ClipboardOptions.clipTimeout
    ]

    var item: ItemSelection
    /// --at: a time in seconds since 1970.
    var at: Converted<Int64>?
    /// --remaining: the seconds the code stays valid instead of the code.
    var remaining: Bool
    var json: Bool
    var clipboard: ClipboardOptions

    init(_ options: OptionReader) {
        item = ItemSelection(options)
        at = options.value(Self.at).map { text in
            Converted(
                text, { Int64($0).flatMap { $0 >= 0 ? $0 : nil } },
                else: UsageError("invalid --at \(quoted(text))", hint: "give a time in whole seconds since 1970, e.g. --at \"$(date +%s)\"")
            )
        }
        remaining = options.flag(Self.remaining)
        json = options.flag(JSONArguments.json)
        clipboard = ClipboardOptions(options)
    }

    func validate() throws {
        try clipboard.validate(others: json ? [JSONArguments.json] : [])
        if remaining, json || clipboard.clip {
            throw UsageError("--remaining prints the seconds left alone", hint: "drop --json or --clip; --json shows them beside the code")
        }
    }
}

/// `vault otp`: prints the current one-time code of an item that holds an
/// otpauth:// URI or a Base32 seed; an HOTP item's counter moves on.
enum OneTimeCodeCommand {
    static func run(_ arguments: OneTimeCodeArguments, _ invocation: Invocation) throws {
        let options = ItemArguments(arguments.item, invocation)
        // -a may be left out when one item of the service holds a code, as get allows.
        let query = Query(
            service: try options.service(), account: try options.reference()?.account ?? arguments.item.account,
            group: try options.group())
        let time = try arguments.at?.get() ?? Int64(invocation.now.timeIntervalSince1970)
        let clipboard = try ClipboardCopy.requested(arguments.clipboard, invocation)
        let store = try VaultAccess(invocation).store()
        if arguments.remaining {
            guard
                let seconds = try OneTimeCodeInput.reading(
                    query, { try store.oneTimeCodeSecondsRemaining(matching: query, atUnixTime: time) })
            else {
                throw CommandFailure(
                    .usage, "the item holds an HOTP secret: its code stays valid until it is used, and has no seconds left",
                    hint: "drop --remaining; 'vault otp' gives the code")
            }
            invocation.terminal.writeOut("\(seconds)\n")
            return
        }
        let result = try OneTimeCodeInput.reading(query) { try store.oneTimeCodeDetails(matching: query, atUnixTime: time) }
        if let clipboard {
            try clipboard.copy(SecretBytes(Array(result.code.utf8)), of: result.attributes, what: "one-time code", invocation: invocation)
        } else if arguments.json {
            var fields: [(String, JSONValue)] = [("code", .string(result.code)), ("kind", .string(result.period == nil ? "hotp" : "totp"))]
            if let period = result.period, let left = result.secondsRemaining {
                fields += [("period", .number(period)), ("remaining", .number(left))]
            }
            invocation.terminal.writeOut(JSONValue.object(fields).text + "\n")
        } else {
            invocation.terminal.writeOut(result.code + "\n")
        }
    }

}

/// The words for a secret that is not a one-time code secret, where it is
/// stored (`add --otp`) and where it is used (`otp`, `?otp` references).
enum OneTimeCodeInput {
    static let formHint = "give an otpauth://totp/… or otpauth://hotp/… URI, or a Base32 seed, on stdin"

    /// Refuses `--otp` with `--generate` (a one-time code secret comes from
    /// the site) or `--keep-secret` (there is no new secret to check).
    /// Refuses --otp (`otp`) with --generate or --keep-secret, which give no such secret.
    static func checkSource(otp: Bool, generate: Bool, keepSecret: Bool) throws {
        guard otp else { return }
        for (other, given) in [(SecretSourceOptions.generate, generate), (UpdateArguments.keepSecret, keepSecret)] where given {
            throw UsageError("--otp and --\(other.long) both given", hint: "a one-time code secret comes from the site: " + formHint)
        }
    }

    /// Refuses a new secret that `add --otp` could not turn into codes.
    static func validate(_ secret: SecretBytes) throws {
        do {
            _ = try OneTimeCodeSecret(parsing: secret)
        } catch {
            throw CommandFailure(.usage, "the secret is not a one-time code secret: \(error.problem)", hint: formHint)
        }
    }

    /// The item's name as a command takes it, for a hint.
    static func shortName(_ query: Query) -> String {
        shellQuoted(SecretReference(group: query.group, service: query.service ?? "", account: query.account ?? "").shortName)
    }

    /// Runs `body`, naming the item when its secret holds no one-time code.
    static func reading<T>(_ query: Query, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as OneTimeCodeError {
            throw CommandFailure(
                .failure,
                "the item for service \(quoted(query.service ?? "")), account \(quoted(query.account ?? "")) holds no one-time code secret: \(error.problem)",
                hint:
                    "keep one beside the secret with 'vault update \(OneTimeCodeInput.shortName(query)) --otp-file FILE' (the otpauth:// URI or Base32 seed in FILE)"
            )
        }
    }
}
