import CLibSecret

/// The connection to the Secret Service: finding a collection by name and
/// unlocking it, with libsecret's own prompt where vault may prompt.
struct KeyringConnection {
    private let library: LibSecret
    private let service: OpaquePointer
    private let reasonPromptsAreOff: String?

    init(_ library: LibSecret, reasonPromptsAreOff: String?) throws {
        self.library = library
        self.reasonPromptsAreOff = reasonPromptsAreOff
        // No VAULT_SECRET_SERVICE_LOAD_COLLECTIONS: it loads every item with its
        // attributes now, and libsecret's searches return those cached items,
        // whose attributes would predate the collection lock (CollectionLock).
        let flags = UInt32(VAULT_SECRET_SERVICE_OPEN_SESSION)
        // Checked before the first call (the owner may be this process) and after it (it may have started vault's provider).
        if let provider = KeyringOwner.vaultProvider(library) { throw SecretServiceError.providedByVault(processID: provider) }
        do {
            guard let service = try library.call(.connect, { library.api.secret_service_get_sync(flags, nil, $0) }) else {
                throw SecretServiceError.serviceUnavailable(.noService)
            }
            self.service = service
        } catch SecretServiceError.failed(_, let cause) {
            throw SecretServiceError.serviceUnavailable(cause)
        }
        if let provider = KeyringOwner.vaultProvider(library) {
            library.api.g_object_unref(UnsafeMutableRawPointer(service))
            throw SecretServiceError.providedByVault(processID: provider)
        }
    }

    /// The collection with alias `name` (`default`, `session`, …), else the one
    /// whose label or object-path name is `name`; the caller owns the reference.
    /// The collection comes with no items loaded, so every search asks the daemon.
    func collection(named name: String) throws -> OpaquePointer {
        let byAlias = try library.call(.findCollection(name)) {
            library.api.secret_collection_for_alias_sync(service, name, 0, nil, $0)
        }
        if let byAlias { return byAlias }
        try loadCollections()
        var matchingPath: String?
        for pointer in library.elements(of: library.api.secret_service_get_collections(service)) {
            defer { library.api.g_object_unref(pointer) }
            let collection = OpaquePointer(pointer)
            let path = library.api.g_dbus_proxy_get_object_path(collection).map { String(cString: $0) } ?? ""
            let label = library.api.secret_collection_get_label(collection).map { pointer -> String in
                defer { library.api.g_free(pointer) }
                return String(cString: pointer)
            }
            if matchingPath == nil, label == name || path.split(separator: "/").last.map(String.init) == name { matchingPath = path }
        }
        // The listed collections hold their items as loaded now: open a new proxy without them.
        guard let path = matchingPath,
            let collection = try library.call(
                .openCollection(name),
                {
                    library.api.secret_collection_new_for_dbus_path_sync(service, path, 0, nil, $0)
                })
        else { throw SecretServiceError.noSuchCollection(name) }
        return collection
    }

    /// Loads the service's collections. libsecret loads each one's items with it, so an item that
    /// another client deletes between the keyring listing it and libsecret loading it fails the
    /// whole load (`noObjectAtPath`): that is tried again, a few times, before it is an error.
    private func loadCollections() throws {
        for attempt in 1...3 {
            do {
                _ = try library.call(.listCollections) { library.api.secret_service_load_collections_sync(service, nil, $0) }
                return
            } catch SecretServiceError.failed(_, .reported(.noObjectAtPath, _)) where attempt < 3 {
                continue
            }
        }
    }

    /// Unlocks a locked collection through the keyring's own prompt; where vault
    /// may not prompt, throws `locked` (exit 36) instead.
    func ensureUnlocked(_ collection: OpaquePointer, name: String) throws {
        guard library.api.secret_collection_get_locked(collection) != 0 else { return }
        if let reason = reasonPromptsAreOff { throw SecretServiceError.locked(collection: name, reason: reason) }
        var objects = GList(data: UnsafeMutableRawPointer(collection), next: nil, prev: nil)
        var unlocked: UnsafeMutablePointer<GList>?
        let count: Int32
        do {
            count = try library.call(.unlockCollection) {
                library.api.secret_service_unlock_sync(service, &objects, nil, &unlocked, $0)
            }
        } catch SecretServiceError.failed(_, let cause) {
            throw SecretServiceError.unlockFailed(collection: name, cause)
        }
        for object in library.elements(of: unlocked) { library.api.g_object_unref(object) }
        guard count > 0 else { throw SecretServiceError.unlockFailed(collection: name, .promptDismissed) }
    }
}
