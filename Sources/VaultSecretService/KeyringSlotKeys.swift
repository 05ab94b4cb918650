import CLibSecret
import VaultCrypto

/// The keys of vault files' keyring keyslots (`vault passwd --add-keyring-slot`),
/// kept in the desktop keyring's default collection under the schema
/// `io.github.vault.KeyringSlot`, one item per vault id.
public final class KeyringSlotKeys {
    static let schemaName = "io.github.vault.KeyringSlot"
    static let vaultIDAttribute = "vault-id"
    static let pathAttribute = "vault-path"

    private let library: LibSecret
    private let keyring: KeyringConnection
    private let collection: OpaquePointer
    private let schema: OpaquePointer

    /// Connects to the default collection (the login keyring).
    public init(environment: [String: String], reasonPromptsAreOff: String?) throws {
        library = try LibSecret.load(environment: environment)
        keyring = try KeyringConnection(library, reasonPromptsAreOff: reasonPromptsAreOff)
        collection = try keyring.collection(named: SecretServiceStore.defaultCollection)
        let api = library.api
        schema = library.withStringTable([KeyringSlotKeys.vaultIDAttribute: nil, KeyringSlotKeys.pathAttribute: nil]) {
            api.secret_schema_newv(KeyringSlotKeys.schemaName, UInt32(VAULT_SECRET_SCHEMA_NONE), $0)!
        }
    }

    deinit {
        library.api.secret_schema_unref(schema)
        library.api.g_object_unref(UnsafeMutableRawPointer(collection))
    }

    /// Stores `key` for the vault `vaultID` (hex), replacing any key stored for it before.
    public func store(_ key: SecretBytes, vaultID: String, path: String) throws {
        try keyring.ensureUnlocked(collection, name: SecretServiceStore.defaultCollection)
        _ = try remove(vaultID: vaultID)
        let value = key.withUnsafeBytes { bytes in
            library.api.secret_value_new(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count, "text/plain")!
        }
        defer { library.api.secret_value_unref(UnsafeMutableRawPointer(value)) }
        let attributes: [String: String?] = [KeyringSlotKeys.vaultIDAttribute: vaultID, KeyringSlotKeys.pathAttribute: path]
        let item = try library.withStringTable(attributes) { table in
            try library.call(.storeKeyslotKey) {
                library.api.secret_item_create_sync(
                    collection, schema, table, "vault keyslot key for \(path)", value,
                    UInt32(VAULT_SECRET_ITEM_CREATE_NONE), nil, $0)
            }
        }
        if let item { library.api.g_object_unref(UnsafeMutableRawPointer(item)) }
    }

    /// The key stored for the vault `vaultID`, or nil when there is none.
    public func key(vaultID: String) throws -> SecretBytes? {
        let items = try search(vaultID: vaultID)
        defer { items.forEach { library.api.g_object_unref(UnsafeMutableRawPointer($0)) } }
        guard let item = items.first else { return nil }
        try keyring.ensureUnlocked(collection, name: SecretServiceStore.defaultCollection)
        _ = try library.call(.readKeyslotKey) { library.api.secret_item_load_secret_sync(item, nil, $0) }
        guard let value = library.api.secret_item_get_secret(item) else { return nil }
        defer { library.api.secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length = 0
        guard let bytes = library.api.secret_value_get(value, &length) else { return nil }
        return SecretBytes(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// Removes the keys stored for the vault `vaultID`; returns how many there were.
    @discardableResult
    public func remove(vaultID: String) throws -> Int {
        let items = try search(vaultID: vaultID)
        defer { items.forEach { library.api.g_object_unref(UnsafeMutableRawPointer($0)) } }
        if !items.isEmpty { try keyring.ensureUnlocked(collection, name: SecretServiceStore.defaultCollection) }
        for item in items {
            _ = try library.call(.deleteKeyslotKey) { library.api.secret_item_delete_sync(item, nil, $0) }
        }
        return items.count
    }

    private func search(vaultID: String) throws -> [OpaquePointer] {
        let list = try library.withStringTable([KeyringSlotKeys.vaultIDAttribute: vaultID]) { table in
            try library.call(.searchKeyring) {
                library.api.secret_collection_search_sync(collection, schema, table, UInt32(VAULT_SECRET_SEARCH_ALL), nil, $0)
            }
        }
        return library.elements(of: list).map(OpaquePointer.init)
    }
}
