/// --clip and --clip-timeout, as the typed arguments of `get` and `otp` hold them.
struct ClipboardOptions: Sendable {
    /// --clip: the secret goes to the clipboard instead of stdout.
    var clip: Bool
    /// --clip-timeout: seconds from 1 to a day; nil when not given (`defaultTimeout`).
    var timeout: Converted<Int>?

    /// Seconds the clipboard holds the secret without --clip-timeout.
    static let defaultTimeout = 45

    init(_ options: OptionReader) {
        clip = options.flag(Self.clip)
        timeout = options.value(Self.clipTimeout).map { text in
            Converted(text) { text in
                let seconds = try DurationText.option(Self.clipTimeout.long, text)
                guard seconds <= 86_400 else {
                    throw UsageError("invalid --clip-timeout \(quoted(text))", hint: "give a duration from 1s to 1d")
                }
                return seconds
            }
        }
    }

    /// Checks --clip-timeout against --clip, and --clip against `others`,
    /// the options given that send the secret somewhere else.
    func validate(others: [OptionSpec]) throws {
        guard clip else {
            if timeout != nil {
                throw UsageError("--clip-timeout goes with --clip", hint: "add --clip, or drop --clip-timeout")
            }
            return
        }
        for other in others {
            throw UsageError("--clip and --\(other.long) both choose where the secret goes", hint: "give one of them")
        }
    }
}

// --clip and --clip-timeout, declared once.
extension ClipboardOptions {
    static let clip = OptionSpec(
        "clip",
        help: "copy the secret to the clipboard (wl-copy, xclip, xsel or the terminal's OSC 52) instead of printing it, and clear it later")
    static let clipTimeout = OptionSpec(
        "clip-timeout", value: "DURATION", help: "clear the clipboard after this long, e.g. 45s, 2m", default: "45s")
}
