/// The Keychain-style item operations every backend offers: the encrypted
/// vault file (`Vault`) and the desktop keyring. Commands work through this,
/// so `--backend` changes where items live, not what the commands do.
public protocol ItemStore {
    /// Adds an item; throws `duplicateItem` unless `replaceExisting` is set.
    func add(_ new: NewItem, replaceExisting: Bool) throws -> AddOutcome
    /// The attributes (no secrets) of every item matching `query`.
    func attributes(matching query: Query) throws -> [ItemAttributes]
    /// The one item matching `query`, with its secret; `itemNotFound` or `ambiguous` otherwise.
    func item(matching query: Query) throws -> Item
    /// Changes the one item matching `query`.
    func update(matching query: Query, with change: ItemChange) throws -> ItemAttributes
    /// Reads the one item matching `query` and replaces its secret with what
    /// `newSecret` makes of it (nil: no change), in one transaction where the
    /// backend has them, so two callers never both use the same old secret.
    /// `keepingPrevious`: the replaced secret joins the item's history, where the backend keeps one.
    /// Returns the item as it was read.
    func replaceSecret(matching query: Query, keepingPrevious: Bool, by newSecret: (Item) throws -> SecretBytes?) throws -> Item
    /// `replaceSecret` for one sealed field of the item, the secret left as it is.
    func replaceField(_ field: SealedField, matching query: Query, by newValue: (Item) throws -> SecretBytes?) throws -> Item
    /// Deletes the one item matching `query`, or all of them with `allMatching`.
    func delete(matching query: Query, allMatching: Bool) throws -> [ItemAttributes]
    /// What `list` shows: the attributes of the items matching `query` that can
    /// be read without asking for an unlock, how many were left out as locked,
    /// and the groups left out because they are damaged (their items unreadable, the others intact).
    func listing(matching query: Query) throws -> (items: [ItemAttributes], locked: Int, damagedGroups: [AccessGroup])
    /// Every item matching `query`, with its secret; where the backend can, in one pass.
    func items(matching query: Query) throws -> [Item]
    /// For each query, the one item it names or the error that concerns that query alone
    /// (`itemNotFound`, `ambiguous`, `noSuchGroup`); where the backend can, in one pass.
    func items(for queries: [Query]) throws -> [Result<Item, VaultError>]
    /// What only the vault file offers (history, trash, merge conflicts, group names, a scoped
    /// credential's groups), or nil for a backend without them: the caller then says what it cannot do.
    var fileVault: (any FileVaultFeatures)? { get }
}

extension ItemStore {
    /// A backend without a bulk read looks each item up.
    public func items(matching query: Query) throws -> [Item] {
        try attributes(matching: query).map { try item(matching: Query(service: $0.service, account: $0.account, group: $0.group)) }
    }

    /// A backend without a bulk read looks each query up.
    public func items(for queries: [Query]) throws -> [Result<Item, VaultError>] {
        try queries.map { query in try VaultError.result { try item(matching: query) } }
    }

    /// A store whose attributes are readable while it is locked leaves nothing out.
    public func listing(matching query: Query) throws -> (items: [ItemAttributes], locked: Int, damagedGroups: [AccessGroup]) {
        (try attributes(matching: query), 0, [])
    }
}

/// The outcome of `add`.
public enum AddOutcome: Equatable, Sendable {
    /// No item had the key: the item was added.
    case added
    /// An item with the key existed: it was replaced (its created date kept).
    case replaced
}

extension VaultError {
    /// One lookup among many: its value, or the error that concerns this lookup alone
    /// (`itemNotFound`, `ambiguous`, `noSuchGroup`); any other error is thrown for the lot.
    package static func result<Value>(of lookup: () throws -> Value) throws -> Result<Value, VaultError> {
        do {
            return .success(try lookup())
        } catch let error as VaultError {
            switch error {
            case .item(.itemNotFound), .item(.ambiguous), .item(.noSuchGroup): return .failure(error)
            default: throw error
            }
        }
    }
}
