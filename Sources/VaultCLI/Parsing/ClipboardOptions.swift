/// --clip and --clip-timeout, as the typed arguments of `get` and `otp` hold them.
struct ClipboardOptions: Sendable {
    /// --clip: the secret goes to the clipboard instead of stdout.
    var clip: Bool
    /// --clip-timeout: seconds from 1 to a day; nil when not given (`defaultTimeout`).
    var timeout: Converted<Int>?

    /// Seconds the clipboard holds the secret without --clip-timeout.
    static let defaultTimeout = 45

    init(_ options: OptionReader) {
        clip = options.flag(.clip)
        timeout = options.value(.clipTimeout).map { text in
            Converted(text) { text in
                let seconds = try DurationText.option(OptionName.clipTimeout.long, text)
                guard seconds <= 86_400 else {
                    throw UsageError("invalid --clip-timeout \(quoted(text))", hint: "give a duration from 1s to 1d")
                }
                return seconds
            }
        }
    }

    /// Checks --clip-timeout against --clip, and --clip against `others`,
    /// the options given that send the secret somewhere else.
    func validate(others: [OptionName]) throws {
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
