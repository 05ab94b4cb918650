#if canImport(Glibc)
import Glibc
#endif

/// Everything one run of a command may look at: its parsed arguments, the
/// environment and the terminal. Commands read only from here, so tests can
/// run them in-process with a fake environment.
public struct Invocation: Sendable {
    public var arguments: ParsedArguments
    public var environment: [String: String]
    public var terminal: Terminal

    public init(arguments: ParsedArguments, environment: [String: String], terminal: Terminal) {
        self.arguments = arguments
        self.environment = environment
        self.terminal = terminal
    }
}
