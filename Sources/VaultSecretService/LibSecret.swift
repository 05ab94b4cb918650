import CLibSecret

#if canImport(Glibc)
import Glibc
#endif

/// libsecret, loaded with dlopen when the Secret Service backend is first
/// used: vault has no link-time dependency on libsecret or GLib.
struct LibSecret {
    /// The soname vault loads; in debug builds `VAULT_LIBSECRET_PATH` overrides it (for tests).
    static let soname = "libsecret-1.so.0"

    let api: VaultLibSecret

    /// Loads libsecret by its soname, or, in a debug build, from VAULT_LIBSECRET_PATH (tests point
    /// it at a missing file); throws `libraryMissing` when it cannot be loaded. A release build never
    /// hands a path from the environment to dlopen.
    static func load(environment: [String: String]) throws -> LibSecret {
        #if DEBUG
        let path = environment["VAULT_LIBSECRET_PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? soname
        #else
        let path = soname
        #endif
        var reason = [CChar](repeating: 0, count: 512)
        guard let table = vault_libsecret_load(path, &reason, reason.count) else {
            throw SecretServiceError.libraryMissing(path: path, reason: String(cString: reason))
        }
        return LibSecret(api: table.pointee)
    }

    /// Runs a call that reports failure through a GError; throws `failed` with its kind and message.
    func call<R>(_ operation: SecretServiceError.Operation, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> R) throws -> R
    {
        var error: UnsafeMutablePointer<GError>?
        let result = body(&error)
        if let error {
            let failure = describe(error, operation: operation)
            api.g_error_free(error)
            throw failure
        }
        return result
    }

    private func describe(_ error: UnsafeMutablePointer<GError>, operation: SecretServiceError.Operation) -> SecretServiceError {
        .failed(
            operation,
            error.pointee.message.map {
                .reported(LibSecretErrorKind(error.pointee, api: api), message: String(cString: $0))
            } ?? .reportedWithoutMessage)
    }

    /// The C strings of a GList of strings or objects, and frees the list (not its elements).
    func elements(of list: UnsafeMutablePointer<GList>?) -> [UnsafeMutableRawPointer] {
        var result: [UnsafeMutableRawPointer] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { result.append(data) }
            node = current.pointee.next
        }
        if let list { api.g_list_free(list) }
        return result
    }

    /// A GHashTable's string keys and values.
    func strings(of table: OpaquePointer) -> [String: String] {
        var result: [String: String] = [:]
        for key in elements(of: api.g_hash_table_get_keys(table)) {
            let name = String(cString: key.assumingMemoryBound(to: CChar.self))
            if let value = api.g_hash_table_lookup(table, key) {
                result[name] = String(cString: value.assumingMemoryBound(to: CChar.self))
            }
        }
        return result
    }

    /// Runs `body` with a GHashTable of copies of `pairs` (a nil value is a
    /// null pointer: schema attribute type 0, "string"), freed when it returns.
    func withStringTable<R>(_ pairs: [String: String?], _ body: (OpaquePointer) throws -> R) rethrows -> R {
        let table = api.g_hash_table_new(api.g_str_hash, api.g_str_equal)!
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer {
            api.g_hash_table_unref(table)
            for pointer in owned { free(pointer) }
        }
        for (key, value) in pairs {
            let keyCopy = strdup(key)!
            owned.append(keyCopy)
            let valueCopy = value.map { strdup($0)! }
            if let valueCopy { owned.append(valueCopy) }
            _ = api.g_hash_table_insert(table, keyCopy, valueCopy)
        }
        return try body(table)
    }
}
