import CLibSecret
import FoundationEssentials
import VaultCore
import VaultCrypto

/// Items in a collection of the desktop keyring (GNOME Keyring, KWallet,
/// KeePassXC) through libsecret: the same Keychain-style operations as the
/// vault file, with what the keyring can and cannot enforce written in
/// docs/SECRET-SERVICE.md.
public final class SecretServiceStore: ItemStore {
    /// The collection name that `--collection` takes when none is given.
    public static let defaultCollection = "default"

    private let library: LibSecret
    private let keyring: KeyringConnection
    private let collection: OpaquePointer
    /// The collection as the caller named it, for messages.
    public let collectionName: String
    /// Schema that items are stored with: libsecret adds `xdg:schema`.
    private let storingSchema: OpaquePointer
    /// The same attributes with SECRET_SCHEMA_DONT_MATCH_NAME: searches also
    /// find items other tools (`secret-tool store`) wrote without our schema.
    private let searchingSchema: OpaquePointer
    private let device: String?
    private let host: HostContext
    private let lock: CollectionLock

    /// Connects to the Secret Service and opens a collection: `default` (the
    /// login keyring), `session` (in memory until logout), or any other alias,
    /// label or object-path name.
    /// - Parameters:
    ///   - environment: the D-Bus session address, and VAULT_LIBSECRET_PATH in debug builds (tests).
    ///   - reasonPromptsAreOff: why vault may not show the keyring's unlock prompt, or nil when it may.
    ///   - host: the clock (created, modified, expiry) and the runtime directory that holds the collection's lock.
    public init(collection name: String, environment: [String: String], reasonPromptsAreOff: String?, host: HostContext) throws {
        library = try LibSecret.load(environment: environment)
        keyring = try KeyringConnection(library, reasonPromptsAreOff: reasonPromptsAreOff)
        collection = try keyring.collection(named: name)
        collectionName = name
        let api = library.api
        storingSchema = library.withStringTable(ItemSchema.schemaTable) {
            api.secret_schema_newv(ItemSchema.name, UInt32(VAULT_SECRET_SCHEMA_NONE), $0)!
        }
        searchingSchema = library.withStringTable(ItemSchema.schemaTable) {
            api.secret_schema_newv(ItemSchema.name, UInt32(VAULT_SECRET_SCHEMA_DONT_MATCH_NAME), $0)!
        }
        device = MachineIdentity.digest()
        self.host = host
        lock = CollectionLock(
            host: host, objectPath: library.api.g_dbus_proxy_get_object_path(collection).map { String(cString: $0) } ?? name)
    }

    deinit {
        library.api.secret_schema_unref(storingSchema)
        library.api.secret_schema_unref(searchingSchema)
        library.api.g_object_unref(UnsafeMutableRawPointer(collection))
    }

    // MARK: ItemStore

    public func add(_ new: NewItem, replaceExisting: Bool) throws -> AddOutcome {
        try Vault.validate(new)
        if let field = new.fields.present.first?.field { throw SecretServiceStore.noSealedFields(field) }
        try keyring.ensureUnlocked(collection, name: collectionName)
        return try lock.holding {
            let existing = try search(Query(service: new.service, account: new.account, group: new.group)).first
            if existing != nil, !replaceExisting {
                throw VaultError.duplicateItem(new.key)
            }
            let now = host.now()
            let attributes = ItemAttributes(
                service: new.service, account: new.account, group: new.group, accessibility: new.accessibility,
                details: new.details, created: now, modified: now)
            if let existing {
                try write(attributes, secret: new.secret, to: existing.item)
                return .replaced
            }
            let value = makeValue(new.secret)
            defer { library.api.secret_value_unref(UnsafeMutableRawPointer(value)) }
            let item = try library.withStringTable(ItemSchema.attributes(of: attributes, device: device)) { table in
                try library.call(.storeItem) {
                    library.api.secret_item_create_sync(
                        collection, storingSchema, table, label(of: attributes), value,
                        UInt32(VAULT_SECRET_ITEM_CREATE_NONE), nil, $0)
                }
            }
            if let item { library.api.g_object_unref(UnsafeMutableRawPointer(item)) }
            return .added
        }
    }

    public func attributes(matching query: Query) throws -> [ItemAttributes] {
        try search(query).map(\.attributes)
    }

    public func item(matching query: Query) throws -> Item {
        let found = try single(try search(query), query: query)
        try keyring.ensureUnlocked(collection, name: collectionName)
        try checkDevice(found)
        if found.attributes.hasExpired(at: host.now()) { throw VaultError.itemExpired(found.attributes) }
        return Item(attributes: found.attributes, secret: try readSecret(of: found.item))
    }

    public func update(matching query: Query, with change: ItemChange) throws -> ItemAttributes {
        if let field = change.fields.keys.first { throw SecretServiceStore.noSealedFields(field) }
        if let secret = change.secret { try Vault.validateSecret(secret) }
        try Vault.validate(change.details)
        return try lock.holding {
            let found = try single(try search(query), query: query)
            try keyring.ensureUnlocked(collection, name: collectionName)
            try checkDevice(found)
            var attributes = found.attributes
            attributes.accessibility = change.accessibility ?? attributes.accessibility
            attributes.details = attributes.details.applying(change.details)
            if change.removesExpiry { attributes.details.expires = nil }
            attributes.modified = host.now()
            try write(attributes, secret: change.secret, to: found.item)
            return attributes
        }
    }

    /// The keyring keeps no history: `keepingPrevious` changes nothing here.
    public func replaceSecret(matching query: Query, keepingPrevious: Bool, by newSecret: (Item) throws -> SecretBytes?) throws -> Item {
        try lock.holding {
            let found = try single(try search(query), query: query)
            try keyring.ensureUnlocked(collection, name: collectionName)
            try checkDevice(found)
            if found.attributes.hasExpired(at: host.now()) { throw VaultError.itemExpired(found.attributes) }
            let item = Item(attributes: found.attributes, secret: try readSecret(of: found.item))
            guard let secret = try newSecret(item) else { return item }
            try Vault.validateSecret(secret)
            var attributes = found.attributes
            attributes.modified = host.now()
            try write(attributes, secret: secret, to: found.item)
            return item
        }
    }

    /// The keyring keeps no sealed fields, so none can be replaced.
    public func replaceField(_ field: SealedField, matching query: Query, by newValue: (Item) throws -> SecretBytes?) throws -> Item {
        throw SecretServiceStore.noSealedFields(field)
    }

    private static func noSealedFields(_ field: SealedField) -> VaultError {
        .invalidValue(.sealedFieldUnsupported(field))
    }

    public func delete(matching query: Query, allMatching: Bool) throws -> [ItemAttributes] {
        try lock.holding {
            let found = try search(query)
            if !allMatching { _ = try single(found, query: query) }
            guard !found.isEmpty else { throw VaultError.itemNotFound(query) }
            try keyring.ensureUnlocked(collection, name: collectionName)
            for entry in found {
                _ = try library.call(.deleteItem) { library.api.secret_item_delete_sync(entry.item, nil, $0) }
            }
            return found.map(\.attributes)
        }
    }

    /// None: the desktop keyring has none of what only the vault file offers (`FileVaultFeatures`).
    public var fileVault: (any FileVaultFeatures)? { nil }

    // MARK: plumbing

    /// One item of the collection, with its attributes as vault reads them.
    private final class Found {
        let item: OpaquePointer
        let attributes: ItemAttributes
        let values: [String: String]
        private let library: LibSecret

        init(item: OpaquePointer, attributes: ItemAttributes, values: [String: String], library: LibSecret) {
            self.item = item
            self.attributes = attributes
            self.values = values
            self.library = library
        }

        deinit { library.api.g_object_unref(UnsafeMutableRawPointer(item)) }
    }

    /// The collection's items that match `query`, ordered by group, service and account.
    /// Only service and account go to the Secret Service: items other tools
    /// wrote carry no group or class, so those fields are matched here.
    private func search(_ query: Query) throws -> [Found] {
        var filter: [String: String?] = [:]
        if let service = query.service { filter[ItemSchema.service] = service }
        if let account = query.account { filter[ItemSchema.account] = account }
        let list: UnsafeMutablePointer<GList>?
        if filter.isEmpty {
            // The Secret Service searches need one attribute at least: list the whole collection instead.
            _ = try library.call(.loadCollection) { library.api.secret_collection_load_items_sync(collection, nil, $0) }
            list = library.api.secret_collection_get_items(collection)
        } else {
            list = try library.withStringTable(filter) { table in
                try library.call(.searchCollection) {
                    library.api.secret_collection_search_sync(collection, searchingSchema, table, UInt32(VAULT_SECRET_SEARCH_ALL), nil, $0)
                }
            }
        }
        var found: [Found] = []
        for pointer in library.elements(of: list) {
            let item = OpaquePointer(pointer)
            let values = readAttributes(of: item)
            let label = library.api.secret_item_get_label(item).map { pointer -> String in
                defer { library.api.g_free(pointer) }
                return String(cString: pointer)
            }
            guard
                let attributes = ItemSchema.item(
                    from: values, label: label, created: library.api.secret_item_get_created(item),
                    modified: library.api.secret_item_get_modified(item)),
                query.matches(attributes)
            else {
                library.api.g_object_unref(pointer)
                continue
            }
            found.append(Found(item: item, attributes: attributes, values: values, library: library))
        }
        return found.sorted {
            ($0.attributes.group.name, $0.attributes.service, $0.attributes.account)
                < ($1.attributes.group.name, $1.attributes.service, $1.attributes.account)
        }
    }

    private func readAttributes(of item: OpaquePointer) -> [String: String] {
        guard let table = library.api.secret_item_get_attributes(item) else { return [:] }
        defer { library.api.g_hash_table_unref(table) }
        return library.strings(of: table)
    }

    private func single(_ found: [Found], query: Query) throws -> Found {
        guard let first = found.first else { throw VaultError.itemNotFound(query) }
        guard found.count == 1 else { throw VaultError.ambiguous(found.map(\.attributes)) }
        return first
    }

    /// A this-device-only item opens only on the machine it was added on: a check of
    /// the machine id, not a key (the keyring has no device key to bind it to).
    private func checkDevice(_ found: Found) throws {
        let attributes = found.attributes
        guard attributes.accessibility.isDeviceBound, let stored = found.values[ItemSchema.device], stored != device else { return }
        throw VaultError.boundToAnotherDevice(group: attributes.group, accessibility: attributes.accessibility)
    }

    private func write(_ attributes: ItemAttributes, secret: SecretBytes?, to item: OpaquePointer) throws {
        _ = try library.withStringTable(ItemSchema.attributes(of: attributes, device: device)) { table in
            try library.call(.changeItemAttributes) {
                library.api.secret_item_set_attributes_sync(item, storingSchema, table, nil, $0)
            }
        }
        _ = try library.call(.changeItemLabel) {
            library.api.secret_item_set_label_sync(item, label(of: attributes), nil, $0)
        }
        if let secret {
            let value = makeValue(secret)
            defer { library.api.secret_value_unref(UnsafeMutableRawPointer(value)) }
            _ = try library.call(.changeItemSecret) { library.api.secret_item_set_secret_sync(item, value, nil, $0) }
        }
    }

    private func label(of attributes: ItemAttributes) -> String {
        attributes.details.label ?? ItemSchema.defaultLabel(service: attributes.service, account: attributes.account)
    }

    private func readSecret(of item: OpaquePointer) throws -> SecretBytes {
        _ = try library.call(.readItemSecret) { library.api.secret_item_load_secret_sync(item, nil, $0) }
        guard let value = library.api.secret_item_get_secret(item) else {
            throw SecretServiceError.failed(.readItemSecret, .noSecret)
        }
        defer { library.api.secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length = 0
        guard let bytes = library.api.secret_value_get(value, &length) else { return SecretBytes(count: 0) }
        return SecretBytes(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// A SecretValue holding a copy of `secret`: text/plain when it is UTF-8
    /// text (as `secret-tool store` writes), application/octet-stream otherwise.
    private func makeValue(_ secret: SecretBytes) -> OpaquePointer {
        secret.withUnsafeBytes { bytes in
            let isText = !bytes.contains(0) && String(validating: bytes, as: UTF8.self) != nil
            let contentType = isText ? "text/plain" : "application/octet-stream"
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else {
                return library.api.secret_value_new("", 0, contentType)!
            }
            return library.api.secret_value_new(base, bytes.count, contentType)!
        }
    }
}

extension ItemSchema {
    /// `secret_schema_newv`'s table: every attribute, of type string (0, a null value).
    static var schemaTable: [String: String?] {
        Dictionary(uniqueKeysWithValues: attributeNames.map { ($0, nil) })
    }
}
