/// What stops the Secret Service provider, as facts: the command line words them.
public enum ProviderError: Error, Equatable, Sendable {
    /// libdbus-1 could not be loaded (dlopen's reason as given).
    case libraryMissing(path: String, reason: String)
    /// No session bus to connect to (libdbus's error name and message as given).
    case noSessionBus(name: String, message: String)
    /// Another program owns org.freedesktop.secrets: its unique name, process id and command when the bus tells them.
    case nameTaken(owner: String, processID: UInt32?, command: String?)
}
