import FoundationEssentials

// The earlier secrets of an item: kept by `update` in the item's record, sealed like its secret.
extension Vault {
    /// The attributes of the one item that matches `query` and its earlier secrets, newest first
    /// (revision 1 is the secret it held just before the current one). An expired item's history
    /// is listed; reading one of its secrets (`get --revision`) is refused as for the current one.
    public func history(matching query: Query) throws -> (attributes: ItemAttributes, revisions: [SecretRevision]) {
        try checkScope(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
            let opened = try vault.openWholeRecord(at: position)
            return (opened.item.attributes, opened.history)
        }
    }

    /// Makes revision 1 of the one item that matches `query` its secret again; the secret it
    /// replaces becomes revision 1, so a second undo goes back. Throws `noRevision` when the item keeps none.
    @discardableResult
    public func undo(matching query: Query) throws -> ItemAttributes {
        try checkScope(query.group, writing: true)
        return try transaction { vault in
            let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
            let opened = try vault.openWholeRecord(at: position)
            let (item, history) = (opened.item, opened.history)
            if item.attributes.hasExpired(at: host.now()) { throw VaultError.itemExpired(item.attributes) }
            guard let previous = history.first else {
                throw VaultError.noRevision(ItemKey(group: item.attributes.group, service: item.attributes.service,
                                                    account: item.attributes.account), requested: 1, kept: 0)
            }
            var attributes = item.attributes
            attributes.modified = host.now()
            let swapped = [SecretRevision(secret: item.secret, setAt: item.attributes.modified, replacedAt: attributes.modified)]
                + history.dropFirst()
            try vault.store(Item(attributes: attributes, secret: previous.secret, fields: item.fields), history: swapped,
                            conflicts: opened.conflicts, replacing: position)
            return attributes
        }
    }
}
