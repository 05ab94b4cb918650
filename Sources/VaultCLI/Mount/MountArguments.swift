/// --mount, --mount-format and --mount-max-reads as `vault run`'s typed arguments hold them;
/// `MountOption` makes the pipe's settings of them.
struct MountArguments: Sendable {
    /// --mount: PATH, or PATH=TEMPLATE.
    var mount: String?
    /// --mount-format as given.
    var format: String?
    /// --mount-max-reads: how many times the pipe may be read (0: until the command exits).
    var maxReads: Converted<Int>?

    init(_ options: OptionReader) {
        mount = options.value(RunArguments.mount)
        format = options.value(RunArguments.mountFormat)
        maxReads = options.value(RunArguments.mountMaxReads).map { text in
            Converted(
                text, { Int($0).flatMap { $0 >= 0 ? $0 : nil } },
                else: UsageError(
                    "--mount-max-reads \(quoted(text)) is not a whole number",
                    hint: "give how many times the pipe may be read, e.g. --mount-max-reads 1 (0: until the command exits)"))
        }
    }

    /// The options that shape the pipe need the pipe.
    func validate() throws {
        guard mount == nil else { return }
        for (dependent, given) in [(RunArguments.mountFormat.name, format != nil), (RunArguments.mountMaxReads.name, maxReads != nil)]
        where given {
            throw UsageError("--\(dependent.long) needs --mount", hint: "add --mount PATH, or drop --\(dependent.long)")
        }
    }
}
