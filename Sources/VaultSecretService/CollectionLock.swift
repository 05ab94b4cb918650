import VaultCore

/// The lock that serializes vault's changes to one keyring collection: an
/// exclusive flock on `keyring-NAME.lock` in the user's runtime directory
/// (`$XDG_RUNTIME_DIR/vault`), NAME being the last part of the collection's
/// D-Bus object path, so `default` and the login keyring's own name share one
/// lock. A change searches the collection and then writes, and the keyring
/// daemon has no transaction around the two: without the lock, two vaults
/// adding the same item both find none and both create one, and two updates
/// of one item each write back attributes read before the other's change.
/// Other programs (secret-tool) do not take it.
struct CollectionLock {
    private let host: HostContext
    private let fileName: String

    /// - Parameter objectPath: the collection's D-Bus object path; its last
    ///   part is a D-Bus path element (`[A-Za-z0-9_]`), safe as a file name.
    init(host: HostContext, objectPath: String) {
        self.host = host
        fileName = "keyring-" + (objectPath.split(separator: "/").last.map(String.init) ?? "collection") + ".lock"
    }

    /// Runs `change` while holding the lock; waits for other vault writers of the collection.
    func holding<Result>(_ change: () throws -> Result) throws -> Result {
        let lock = try LockFile(path: try host.preparedRuntimeDirectory() + "/" + fileName)
        return try withExtendedLifetime(lock) { try change() }
    }
}
