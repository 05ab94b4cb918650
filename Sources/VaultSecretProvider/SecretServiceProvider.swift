import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// `vault secret-service serve`: org.freedesktop.secrets on the session bus, its `login` collection
/// one vault group. One thread; each call is answered before the next is read.
public final class SecretServiceProvider {
    /// What the command line decides once.
    public struct Settings {
        /// The vault group served as the `login` collection.
        public var group: AccessGroup
        /// Seconds without a client (no session, no connection) before the provider exits.
        public var idleSeconds: Int
        /// Opens the vault as any command would, from the provider's environment; never prompts.
        public var openStore: () throws -> ItemStore
        /// For tests only: seconds to wait, once idle, before the name is released (calls that come
        /// meanwhile are queued, and answered after the release).
        public var shutdownPause: Double = 0
        /// Asks the passphrase through the configured prompt program and unlocks the vault; true when
        /// it did. Nil when none is configured: then Unlock's prompt completes at once as dismissed.
        public var askToUnlock: (() -> Bool)?

        public init(group: AccessGroup, idleSeconds: Int, openStore: @escaping () throws -> ItemStore) {
            self.group = group
            self.idleSeconds = idleSeconds
            self.openStore = openStore
        }
    }

    /// The bus name of the Secret Service.
    public static let busName = "org.freedesktop.secrets"

    let settings: Settings
    let bus: BusConnection
    let collection: DesktopCollection
    /// The `session` collection, kept in the login's kernel keyring.
    let sessionCollection = SessionCollection()
    var sessions: [String: TransferSession] = [:]
    /// Connections that called and are still on the bus.
    var clients: Set<String> = []
    /// Unlock prompts not yet run, by path, with the objects each would unlock.
    var prompts: [String: [String]] = [:]
    var counter = 0

    /// Connects to the session bus; throws `libraryMissing` or `noSessionBus`.
    public init(settings: Settings) throws {
        self.settings = settings
        bus = try BusConnection(library: try DBusLibrary.load())
        collection = DesktopCollection(group: settings.group, openStore: settings.openStore)
    }

    /// Takes the name and answers calls until idle; throws `nameTaken` when another provider holds it.
    public func serve() throws {
        let name = SecretServiceProvider.busName
        bus.watchNameOwners()
        guard bus.requestName(name) else { throw nameTakenError() }
        // Started by activation, the call that started it is on its way: wait a second for it at least.
        var limit = Double(max(settings.idleSeconds, 1))
        while serveUntilIdle(limit: limit) {
            // The name goes first, so a call from now on starts a new provider; then what was queued is
            // answered. A client that came meanwhile is served on, if the name is still free to take back.
            if settings.shutdownPause > 0 { usleep(UInt32(settings.shutdownPause * 1_000_000)) }
            bus.releaseName(name)
            guard answerQueued() > 0, bus.requestName(name) else { break }
            limit = Double(settings.idleSeconds)
        }
        bus.flush()
    }

    /// Answers calls until no client has been there for `limit` seconds; false when the bus went away.
    private func serveUntilIdle(limit: Double) -> Bool {
        var limit = limit
        var idleSince = monotonicSeconds()
        while true {
            let remaining = limit - (monotonicSeconds() - idleSince)
            if clients.isEmpty, sessions.isEmpty, remaining <= 0 { return true }
            let timeout: Int32 = clients.isEmpty && sessions.isEmpty ? Int32(max(1, remaining * 1000)) : 1000
            switch bus.next(timeoutMilliseconds: timeout) {
            case .call(let call):
                limit = Double(settings.idleSeconds)
                answer(call)
            case .clientGone(let name):
                forget(name)
                if clients.isEmpty { idleSince = monotonicSeconds() }
            case .idle:
                continue
            case .disconnected:
                return false
            }
        }
    }

    /// Answers every call already queued; returns how many there were.
    private func answerQueued() -> Int {
        var answered = 0
        while true {
            switch bus.next(timeoutMilliseconds: 0) {
            case .call(let call):
                answer(call)
                answered += 1
            case .clientGone(let name):
                forget(name)
            case .idle, .disconnected:
                return answered
            }
        }
    }

    private func answer(_ call: IncomingCall) {
        clients.insert(call.sender)
        bus.answer(call, with: handle(call))
    }

    /// A client left the bus: its sessions close with it.
    private func forget(_ client: String) {
        clients.remove(client)
        sessions = sessions.filter { $0.value.owner != client }
    }

    private func nameTakenError() -> ProviderError {
        let owner = SecretServiceOwner.lookUp(on: bus)
        return .nameTaken(owner: owner?.uniqueName ?? "", processID: owner?.processID, command: owner?.command)
    }

    func nextPath(_ prefix: String) -> String {
        counter += 1
        return prefix + String(counter)
    }

    private func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// The command name of a process, from /proc (for saying who holds the bus name).
public enum ProcessName {
    /// The first word of /proc/PID/cmdline, or /proc/PID/comm; nil when neither reads.
    public static func of(_ processID: UInt32) -> String? {
        for (file, separator) in [("cmdline", UInt8(0)), ("comm", UInt8(ascii: "\n"))] {
            guard let handle = fopen("/proc/\(processID)/\(file)", "r") else { continue }
            defer { fclose(handle) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = fread(&buffer, 1, buffer.count, handle)
            let first = buffer.prefix(count).split(separator: separator, omittingEmptySubsequences: true).first
            if let first, !first.isEmpty { return String(decoding: first, as: UTF8.self) }
        }
        return nil
    }
}

/// Who holds org.freedesktop.secrets on the session bus now (for `vault secret-service status`).
public struct SecretServiceOwner: Equatable, Sendable {
    /// The owner's unique bus name.
    public let uniqueName: String
    public let processID: UInt32?
    /// The owner's command (the first word of its command line).
    public let command: String?

    /// An owner with these names.
    public init(uniqueName: String, processID: UInt32?, command: String?) {
        self.uniqueName = uniqueName
        self.processID = processID
        self.command = command
    }

    /// The owner, nil when no program holds the name; throws `libraryMissing` or `noSessionBus`.
    public static func current() throws -> SecretServiceOwner? {
        try lookUp(on: BusConnection(library: try DBusLibrary.load()))
    }

    static func lookUp(on bus: BusConnection) -> SecretServiceOwner? {
        guard let owner = bus.callBus("GetNameOwner", [.string(SecretServiceProvider.busName)])?.first?.text else { return nil }
        var processID: UInt32?
        if case .uint32(let pid)? = bus.callBus("GetConnectionUnixProcessID", [.string(owner)])?.first { processID = pid }
        return SecretServiceOwner(uniqueName: owner, processID: processID, command: processID.flatMap { ProcessName.of($0) })
    }
}
