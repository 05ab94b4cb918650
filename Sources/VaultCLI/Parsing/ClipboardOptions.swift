/// --clip and --clip-timeout, as the typed arguments of `get` and `otp` hold them.
struct ClipboardOptions: Sendable {
    /// --clip: the secret goes to the clipboard instead of stdout.
    var clip: Bool
    /// --clip-timeout as given.
    var timeout: String?

    init(_ options: OptionReader) {
        clip = options.flag(.clip)
        timeout = options.value(.clipTimeout)
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
