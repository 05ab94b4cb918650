#if canImport(Glibc)
import Glibc
#endif
import CLibSecret

/// Whether the program that owns org.freedesktop.secrets is vault's own provider (`vault
/// secret-service serve`), asked of the bus daemon — never of the owner, which may be this very
/// process (the provider's unlock walk reaching the desktop keyring slot would call itself and hang).
enum KeyringOwner {
    /// The owner's process id when it is vault serving the Secret Service, else nil (no owner, or another program).
    static func vaultProvider(_ library: LibSecret) -> UInt32? {
        guard let processID = processID(library) else { return nil }
        if processID == UInt32(getpid()) { return processID }
        let arguments = commandLine(of: processID)
        guard let program = arguments.first, program == "vault" || program.hasSuffix("/vault") else { return nil }
        return arguments.dropFirst().contains("secret-service") && arguments.contains("serve") ? processID : nil
    }

    /// The process id of the name's owner, from the bus daemon; nil when no one owns it or the bus does not say.
    private static func processID(_ library: LibSecret) -> UInt32? {
        let api = library.api
        guard let bus = api.g_bus_get_sync(Int32(VAULT_G_BUS_TYPE_SESSION), nil, nil) else { return nil }
        defer { api.g_object_unref(UnsafeMutableRawPointer(bus)) }
        guard
            let owner = busCall(
                api, bus, "GetNameOwner", "org.freedesktop.secrets",
                { value in
                    api.g_variant_get_string(value, nil).map { String(cString: $0) }
                }) ?? nil
        else { return nil }
        return busCall(api, bus, "GetConnectionUnixProcessID", owner) { api.g_variant_get_uint32($0) }
    }

    /// Calls a method of org.freedesktop.DBus with one string and reads the reply's first value.
    private static func busCall<Value>(
        _ api: VaultLibSecret, _ bus: OpaquePointer, _ method: String, _ argument: String,
        _ read: (OpaquePointer) -> Value
    ) -> Value? {
        guard let string = api.g_variant_new_string(argument) else { return nil }
        var children: [OpaquePointer?] = [string]
        let parameters = api.g_variant_new_tuple(&children, 1)
        guard
            let reply = api.g_dbus_connection_call_sync(
                bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                method, parameters, nil, 0, 5000, nil, nil)
        else { return nil }
        defer { api.g_variant_unref(reply) }
        guard let first = api.g_variant_get_child_value(reply, 0) else { return nil }
        defer { api.g_variant_unref(first) }
        return read(first)
    }

    /// The arguments of a process's command line, from /proc.
    private static func commandLine(of processID: UInt32) -> [String] {
        guard let file = fopen("/proc/\(processID)/cmdline", "r") else { return [] }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = fread(&buffer, 1, buffer.count, file)
        return buffer.prefix(count).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}
