/// The object paths the provider serves.
enum ObjectPaths {
    static let service = "/org/freedesktop/secrets"
    static let collection = "/org/freedesktop/secrets/collection/login"
    /// The `default` alias: secret-tool and python-secretstorage call it directly, never ReadAlias.
    static let defaultAlias = "/org/freedesktop/secrets/aliases/default"
    /// The `session` collection, kept in the login's kernel keyring (`SessionCollection`), and its alias.
    static let sessionCollection = "/org/freedesktop/secrets/collection/session"
    static let sessionAlias = "/org/freedesktop/secrets/aliases/session"
    static let sessionPrefix = "/org/freedesktop/secrets/session/"
    static let promptPrefix = "/org/freedesktop/secrets/prompt/"
    /// "no object" in the Secret Service API (no prompt needed, no such alias).
    static let none = "/"

    /// What a path names.
    enum Target: Equatable {
        case service
        case collection
        case item(String)
        case sessionCollection
        case sessionItem(String)
        case session(String)
        case prompt(String)
        case unknown
    }

    static func target(of path: String) -> Target {
        if path == service { return .service }
        if path == collection || path == defaultAlias { return .collection }
        if path == sessionCollection || path == sessionAlias { return .sessionCollection }
        for prefix in [collection + "/", defaultAlias + "/"] where path.hasPrefix(prefix) {
            let element = String(path.dropFirst(prefix.count))
            return element.contains("/") || element.isEmpty ? .unknown : .item(element)
        }
        for prefix in [sessionCollection + "/", sessionAlias + "/"] where path.hasPrefix(prefix) {
            let element = String(path.dropFirst(prefix.count))
            return element.contains("/") || element.isEmpty ? .unknown : .sessionItem(element)
        }
        if path.hasPrefix(sessionPrefix) { return .session(path) }
        if path.hasPrefix(promptPrefix) { return .prompt(path) }
        return .unknown
    }

    /// The path of the item whose path element is `element`.
    static func item(_ element: String) -> String { collection + "/" + element }

    /// The path of the `session` collection's item `id`.
    static func sessionItem(_ id: String) -> String { sessionCollection + "/" + id }

    /// The names of the aliases the provider answers, and the collection each names.
    static func alias(_ name: String) -> String? {
        switch name {
        case "default", "login": return collection
        case "session": return sessionCollection
        default: return nil
        }
    }
}

/// The D-Bus error names the provider answers with.
enum SecretErrors {
    static let isLocked = "org.freedesktop.Secret.Error.IsLocked"
    static let noSession = "org.freedesktop.Secret.Error.NoSession"
    static let noSuchObject = "org.freedesktop.Secret.Error.NoSuchObject"
    static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
    static let failed = "org.freedesktop.DBus.Error.Failed"
    static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"

    static func reply(_ name: String, _ message: String) -> CallReply { .error(name: name, message: message) }
}
