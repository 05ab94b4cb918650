import FoundationEssentials

/// An item in the trash: what `list` shows of it, and when it was deleted.
public struct TrashedItem: Sendable {
    /// The item's attributes as they were when it was deleted.
    public let attributes: ItemAttributes
    /// When `delete` moved it to the trash.
    public let deletedAt: Date
}

// The trash: `delete` keeps each item, with its history, for `trashDays` (docs/FORMAT.md, "Trash").
extension Vault {
    /// How many days `delete` keeps an item in the trash when none is said (config `trash-days`).
    public static let defaultTrashDays = 30

    /// Milliseconds since 1970 before which the next write purges a trashed item: `trashDays` before now.
    var trashPurgeBefore: UInt64 {
        let now = host.now().timeIntervalSince1970 * 1000
        return UInt64(max(0, now - Double(configuration.trashDays) * 86_400_000))
    }

    /// The trashed items that match `query` (oldest deletion last), of the groups the keys at hand
    /// open, and how many trashed items those keys cannot open (locked or bound to another device).
    public func trash(matching query: Query) throws -> (items: [TrashedItem], locked: Int) {
        try checkScope(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            try vault.requireExisting(query.group)
            let (records, unopened) = try vault.openTrash()
            let items = records.filter { query.matches($0.record.item.attributes) }.map {
                TrashedItem(attributes: $0.record.item.attributes, deletedAt: Date(timeIntervalSince1970: Double($0.deletedAt) / 1000))
            }
            return (items, unopened)
        }
    }

    /// The trashed items the keys at hand open, with their secrets: what a leak scan searches too
    /// (a deleted secret that leaked is still a leak).
    public func trashedSecrets() throws -> [Item] {
        try withKeys { try readSnapshot().openTrash().records.map(\.record.item) }
    }

    /// Brings back the one trashed item that matches `query`, with its history, as a new revision
    /// (modified now, after the revision deleted, so a merge never takes it for that one). Throws
    /// `itemNotFound` when the trash holds none, `ambiguous` for several, `duplicateItem` when an
    /// item of its name was added since.
    @discardableResult
    public func undelete(matching query: Query) throws -> ItemAttributes {
        try checkScope(query.group, writing: true)
        return try transaction { vault in
            let found = try vault.openTrash().records.filter { query.matches($0.record.item.attributes) }
            guard let trashed = found.first else {
                try vault.requireExisting(query.group)
                throw VaultError.itemNotFound(query)
            }
            guard found.count == 1 else { throw VaultError.ambiguous(found.map(\.record.item.attributes)) }
            var record = trashed.record
            let key = record.item.attributes.key
            guard try vault.positions(matching: Query(service: key.service, account: key.account, group: key.group)).isEmpty else {
                throw VaultError.duplicateItem(key)
            }
            let deleted = record.item.attributes.modified
            record.item.attributes.modified = max(host.now(), deleted.addingTimeInterval(0.001))
            try vault.store(record, itemID: trashed.itemID)
            // Its tombstones go with it (the index holds the item again): an empty change seals each
            // group's tombstones again, so none is left naming an item of another group.
            for group in vault.file.groups where vault.keys.groups[group.groupID] != nil {
                vault.pending.tombstones.added[group.groupID, default: []] += []
            }
            return record.item.attributes
        }
    }

    /// Empties the trash of `group` (nil: every group the keys at hand may write); returns how many items went.
    @discardableResult
    public func emptyTrash(group: AccessGroup?) throws -> Int {
        try checkScope(group, writing: true)
        return try transaction { vault in
            try vault.requireExisting(group)
            var count = 0
            for entry in vault.file.groups where vault.keys.groups[entry.groupID] != nil {
                guard group == nil || vault.keys.groups[entry.groupID]?.group == group else { continue }
                let trashed = try vault.trash(of: entry.groupID)
                guard !trashed.isEmpty else { continue }
                count += trashed.count
                vault.pending.trash.replaced[entry.groupID] = []
                // Purge records, so a merge with a copy that still holds these entries does not bring them back.
                vault.pending.tombstones.added[entry.groupID, default: []] += trashed.map { Tombstone.purge(of: $0.deletion) }
            }
            return count
        }
    }
}
