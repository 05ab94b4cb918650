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
            var taken = Set(vault.file.index.map { LookupKey(groupID: $0.groupID, tag: $0.tag) })
            let now = host.now()
            for new in items {
                let attributes = ItemAttributes(service: new.service, account: new.account, group: new.group,
                                                accessibility: new.accessibility, details: new.details, created: now, modified: now)
                try vault.store(attributes, secret: new.secret)
                let entry = vault.file.index[vault.file.index.count - 1]
                guard taken.insert(LookupKey(groupID: entry.groupID, tag: entry.tag)).inserted else {
                    throw VaultError.duplicateItem(ItemKey(group: new.group, service: new.service, account: new.account))
                }
            }
        }
    }
}

private struct LookupKey: Hashable {
    let groupID: GroupID
    let tag: Bytes16
}
