#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// Everything one run of a command may look at: its parsed arguments, the
/// environment and the terminal. Commands read only from here, so tests can
/// run them in-process with a fake environment.
public struct Invocation: Sendable {
    public var arguments: ParsedArguments
    public var environment: [String: String]
    public var terminal: Terminal
    private let loadedConfig = LoadedConfig()

    public init(arguments: ParsedArguments, environment: [String: String], terminal: Terminal) {
        self.arguments = arguments
        self.environment = environment
        self.terminal = terminal
    }

    /// The config file, read once per run however many settings ask for it.
    func config() throws -> Config {
        try loadedConfig.get { try Config.load(environment: environment) }
    }
}

/// The config as first loaded in this run, or the error loading it gave; shared by copies of an
/// `Invocation`, so that it is read once.
private final class LoadedConfig: @unchecked Sendable {
    private var result: Result<Config, Error>?

    func get(_ load: () throws -> Config) throws -> Config {
        if result == nil { result = Result(catching: load) }
        return try result!.get()
    }
}
