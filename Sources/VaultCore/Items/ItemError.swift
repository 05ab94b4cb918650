/// Why an operation failed in Items/: an item or group asked for that is not there, or is there twice; a value the vault does not take.
/// `VaultError.item` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Items.swift`).
public enum ItemError: Equatable, Sendable {
    /// No item matches the query.
    case itemNotFound(Query)
    /// An item with the same (group, service, account) exists.
    case duplicateItem(ItemKey)
    /// A query that must name one item matches several.
    case ambiguous([ItemAttributes])
    /// The item's expiry date has come; it stays until a wipe of expired items.
    case itemExpired(ItemAttributes)
    /// The items a wipe would remove changed between showing them and removing them.
    case changedSinceShown
    /// The item keeps fewer earlier secrets than the revision asked for (`kept` of them).
    case noRevision(ItemKey, requested: Int, kept: Int)
    /// The group does not exist. `known`: the groups the keys at hand open, for a did-you-mean
    /// (empty where the caller did not look).
    case noSuchGroup(AccessGroup, known: [AccessGroup] = [])
    /// `group create` of a group that exists.
    case groupExists(AccessGroup)
    /// A value is outside what the vault accepts (size, characters, empty, taken), and how.
    case invalidValue(InvalidValue)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .itemNotFound: return .itemNotFound
        case .duplicateItem: return .duplicateItem
        case .ambiguous: return .usage
        case .itemExpired: return .itemNotFound
        case .changedSinceShown: return .failure
        case .noRevision: return .itemNotFound
        case .noSuchGroup: return .itemNotFound
        case .groupExists: return .duplicateItem
        case .invalidValue: return .usage
        }
    }
}
