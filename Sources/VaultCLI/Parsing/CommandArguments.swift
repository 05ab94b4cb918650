/// A command's options as one typed value, as swift-argument-parser's
/// `ParsableArguments`: `init` reads them from the parse in one place and
/// converts them (a flag to a `Bool`, a number, a choice), `validate()` holds
/// the checks between options and of their values that `run` would otherwise
/// make first, and the command's `run` reads only this value.
///
/// `init` reads every option it keeps, once and unconditionally, through
/// `OptionReader`: `TableCoverageTests` builds each command's value from a
/// bare parse and checks that it asked for exactly the options its table
/// entry declares (global options aside), so reading an option the command
/// does not declare, or declaring one it never reads, fails there.
protocol CommandArguments: Sendable {
    /// The command's options, declared on this type (or on the option groups it reads), in the
    /// order help, the man page and the completions list them: the table takes them from here.
    static var options: [OptionSpec] { get }
    /// Reads the options; throws only when a value given cannot be converted.
    init(_ options: OptionReader) throws
    /// Checks the options together before the command runs.
    ///
    /// - Throws: `UsageError` (exit 2) naming the conflict and what to do.
    func validate() throws
}

extension CommandArguments {
    func validate() throws {}

    /// A command that takes no option.
    static var options: [OptionSpec] { [] }
}
