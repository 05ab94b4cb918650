internal import CDBus

/// libdbus-1, loaded with dlopen when `vault secret-service` first needs it (never by other commands).
struct DBusLibrary: @unchecked Sendable {
    let functions: VaultDBus

    /// The soname Debian's libdbus-1-3 installs.
    static let soname = "libdbus-1.so.3"

    /// Loads the library; throws `ProviderError.libraryMissing` with dlopen's reason.
    static func load(path: String = soname) throws -> DBusLibrary {
        var reason = [CChar](repeating: 0, count: 512)
        guard let table = vault_dbus_load(path, &reason, reason.count) else {
            throw ProviderError.libraryMissing(
                path: path, reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return DBusLibrary(functions: table.pointee)
    }
}
