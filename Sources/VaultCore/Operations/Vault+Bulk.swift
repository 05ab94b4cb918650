import FoundationEssentials

extension Vault {
    /// Adds many items in one transaction: one read, one write and one fsync
    /// for the lot, so filling a vault of 100 000 items for `make bench` takes
    /// seconds, through the same sealing code as `add`. All or nothing: throws
    /// `duplicateItem` (adding none) when an item exists already or appears
    /// twice in `items`.
    public func addAll(_ items: [NewItem]) throws {
        for item in items { try Vault.validate(item) }
        try transaction { vault in
            // One pass over the index, not one per item: a lookup tag names (group, service, account).
            var taken = Set(vault.file.index.map { TakenLookupTag(groupID: $0.groupID, tag: $0.tag) })
            let now = host.now()
            for new in items {
                let attributes = ItemAttributes(service: new.service, account: new.account, group: new.group,
                                                accessibility: new.accessibility, details: new.details, created: now, modified: now)
                try vault.store(Item(attributes: attributes, secret: new.secret, fields: new.fields))
                let entry = vault.file.index[vault.file.index.count - 1]
                guard taken.insert(TakenLookupTag(groupID: entry.groupID, tag: entry.tag)).inserted else {
                    throw VaultError.duplicateItem(new.key)
                }
            }
        }
    }
}

// Reads of many items from one reading of the file: one pass over the records in scope, one open
// of each, so `env`, `run`, `inject`, `redact` and `scan` cost what `export` does, not a lookup per item.
extension Vault {
    /// Every item matching `query`, with its secret, in index order, telling `progress` of each.
    /// Throws `noSuchGroup` for a group the file lacks and `itemExpired` for an expired item, as
    /// `item(matching:)` does.
    public func items(matching query: Query) throws -> [Item] {
        try checkScope(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            try vault.requireExisting(query.group)
            let positions = try vault.positionsToOpen(matching: query)
            return try positions.enumerated().map { done, position in
                configuration.progress?(done + 1, positions.count)
                return try openItem(at: position, in: vault)
            }
        }
    }

    /// For each query, in order, the one item it names, or the error `item(matching:)` would throw
    /// for it alone when that error concerns the query (`itemNotFound`, `ambiguous`, `noSuchGroup`).
    /// Every other error (locked, corrupted, expired, out of scope) is thrown for the lot.
    public func items(for queries: [Query]) throws -> [Result<Item, VaultError>] {
        for query in queries { try checkScope(query.group) }
        let lookupsOnly = queries.allSatisfy { $0.indexCheck == .lookupsOnly }
        return try withKeys {
            let vault = try readSnapshot(checking: lookupsOnly ? .lookupsOnly : .everyBucket)
            return try queries.map { query in try VaultError.result { try openItem(matching: query, in: vault) } }
        }
    }
}

/// A group and lookup tag an entry of the file holds.
private struct TakenLookupTag: Hashable {
    let groupID: GroupID
    let tag: Bytes16
}
