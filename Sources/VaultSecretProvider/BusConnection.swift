#if canImport(Glibc)
import Glibc
#endif
internal import CDBus

/// One call the provider received: who sent it, to which object and method, with which arguments.
struct IncomingCall {
    let sender: String
    let path: String
    let interface: String
    let member: String
    let arguments: [DBusValue]
    /// The message, kept (a reference) until it is answered.
    let message: OpaquePointer
}

/// What a call is answered with: values, or a D-Bus error.
enum CallReply: Sendable {
    case values([DBusValue])
    case error(name: String, message: String)

    static let none = CallReply.values([])
}

/// The provider's private connection to the session bus.
final class BusConnection {
    private let library: DBusLibrary
    private let codec: DBusMessageCodec
    private let connection: OpaquePointer
    private var f: VaultDBus { library.functions }

    /// Connects to the session bus (DBUS_SESSION_BUS_ADDRESS); throws `noSessionBus`.
    init(library: DBusLibrary) throws {
        self.library = library
        codec = DBusMessageCodec(library: library)
        var error = DBusError()
        library.functions.dbus_error_init!(&error)
        guard let connection = library.functions.dbus_bus_get_private!(UInt32(VAULT_DBUS_BUS_SESSION), &error) else {
            let failure = ProviderError.noSessionBus(
                name: error.name.map { String(cString: $0) } ?? "",
                message: error.message.map { String(cString: $0) } ?? "")
            library.functions.dbus_error_free!(&error)
            throw failure
        }
        self.connection = connection
        library.functions.dbus_connection_set_exit_on_disconnect!(connection, 0)
    }

    deinit {
        f.dbus_connection_close!(connection)
        f.dbus_connection_unref!(connection)
    }

    /// Asks for `name` without queueing; true when this connection is now its primary owner.
    func requestName(_ name: String) -> Bool {
        var error = DBusError()
        f.dbus_error_init!(&error)
        defer { f.dbus_error_free!(&error) }
        return f.dbus_bus_request_name!(connection, name, UInt32(VAULT_DBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
            == Int32(VAULT_DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER)
    }

    /// Gives `name` back to the bus: calls from now on start another provider.
    func releaseName(_ name: String) {
        var error = DBusError()
        f.dbus_error_init!(&error)
        _ = f.dbus_bus_release_name!(connection, name, &error)
        f.dbus_error_free!(&error)
    }

    /// Subscribes to the bus's NameOwnerChanged, by which the provider sees clients go.
    func watchNameOwners() {
        var error = DBusError()
        f.dbus_error_init!(&error)
        f.dbus_bus_add_match!(
            connection, "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'", &error)
        f.dbus_error_free!(&error)
    }

    /// Calls a method of the bus itself (org.freedesktop.DBus) and returns its reply's arguments, or nil on error.
    func callBus(_ method: String, _ arguments: [DBusValue]) -> [DBusValue]? {
        guard let call = f.dbus_message_new_method_call!("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method)
        else { return nil }
        defer { f.dbus_message_unref!(call) }
        codec.append(arguments, to: call)
        var error = DBusError()
        f.dbus_error_init!(&error)
        defer { f.dbus_error_free!(&error) }
        guard let reply = f.dbus_connection_send_with_reply_and_block!(connection, call, 5000, &error) else { return nil }
        defer { f.dbus_message_unref!(reply) }
        return codec.arguments(of: reply)
    }

    /// What arrived: a method call to answer, a client gone from the bus, or nothing within the timeout.
    enum Event {
        case call(IncomingCall)
        case clientGone(String)
        case idle
        case disconnected
    }

    /// The next event, waiting up to `timeoutMilliseconds` for one (-1: forever, 0: only what is queued).
    func next(timeoutMilliseconds: Int32) -> Event {
        while true {
            if let message = f.dbus_connection_pop_message!(connection) {
                if let event = event(for: message) { return event }
                continue
            }
            guard f.dbus_connection_read_write!(connection, timeoutMilliseconds) != 0 else { return .disconnected }
            guard let message = f.dbus_connection_pop_message!(connection) else { return .idle }
            if let event = event(for: message) { return event }
        }
    }

    private func event(for message: OpaquePointer) -> Event? {
        let type = f.dbus_message_get_type!(message)
        if type == Int32(VAULT_DBUS_MESSAGE_TYPE_METHOD_CALL) {
            return .call(
                IncomingCall(
                    sender: string(f.dbus_message_get_sender!(message)), path: string(f.dbus_message_get_path!(message)),
                    interface: string(f.dbus_message_get_interface!(message)), member: string(f.dbus_message_get_member!(message)),
                    arguments: codec.arguments(of: message), message: message))
        }
        defer { f.dbus_message_unref!(message) }
        if type == Int32(VAULT_DBUS_MESSAGE_TYPE_SIGNAL), string(f.dbus_message_get_member!(message)) == "NameOwnerChanged" {
            let arguments = codec.arguments(of: message)
            if arguments.count == 3, let name = arguments[0].text, name.hasPrefix(":"), arguments[2].text == "" {
                return .clientGone(name)
            }
        }
        if type == Int32(VAULT_DBUS_MESSAGE_TYPE_SIGNAL), string(f.dbus_message_get_member!(message)) == "Disconnected" {
            return .disconnected
        }
        return nil
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

    /// Answers `call` (unless it asked for no reply) and lets go of its message.
    func answer(_ call: IncomingCall, with reply: CallReply) {
        defer { f.dbus_message_unref!(call.message) }
        guard f.dbus_message_get_no_reply!(call.message) == 0 else { return }
        let message: OpaquePointer?
        switch reply {
        case .values(let values):
            message = f.dbus_message_new_method_return!(call.message)
            if let message, !codec.append(values, to: message) {
                f.dbus_message_unref!(message)
                send(f.dbus_message_new_error!(call.message, "org.freedesktop.DBus.Error.NoMemory", "the reply could not be built"))
                return
            }
        case .error(let name, let text):
            message = f.dbus_message_new_error!(call.message, name, text)
        }
        send(message)
    }

    /// Emits a signal from `path`.
    func emit(path: String, interface: String, member: String, _ values: [DBusValue]) {
        guard let message = f.dbus_message_new_signal!(path, interface, member) else { return }
        codec.append(values, to: message)
        send(message)
    }

    private func send(_ message: OpaquePointer?) {
        guard let message else { return }
        _ = f.dbus_connection_send!(connection, message, nil)
        f.dbus_message_unref!(message)
    }

    /// Writes out every message sent so far.
    func flush() { f.dbus_connection_flush!(connection) }
}
