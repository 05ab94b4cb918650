import FoundationEssentials
import VaultCrypto

/// The item changes of a write, each on the working copy it is given under the writer lock
/// (`Vault.transaction`): what `add`, `update`, `move`, `replaceSecret`, `delete`, `undo`, `addAll`,
/// `undelete` and `emptyTrash` do once the file is read. The scope and the item's limits are
/// checked by the façade before.
struct ItemChanges {
    /// The time of the change (created, modified, replaced and deletion dates).
    let now: Date
    /// How many earlier secrets an item keeps (`VaultConfiguration.revisionsKept`; nil: as many as it has,
    /// or `Vault.defaultRevisionsKept` once a secret is replaced).
    let revisionsKept: Int?

    /// Adds `new`; throws `duplicateItem` when its (group, service, account) exists, unless
    /// `replaceExisting`, which replaces it and keeps its created date.
    func add(_ new: NewItem, replaceExisting: Bool, in vault: inout WorkingCopy) throws -> AddOutcome {
        let key = Query(service: new.service, account: new.account, group: new.group)
        let existing = try vault.positions(matching: key).first
        if existing != nil, !replaceExisting {
            throw VaultError.duplicateItem(new.key)
        }
        let replaced = try existing.map { try vault.openWholeRecord(at: $0) }
        let created = replaced?.item.attributes.created ?? now
        let attributes = ItemAttributes(
            service: new.service, account: new.account, group: new.group,
            accessibility: new.accessibility, details: new.details, created: created, modified: now)
        try vault.store(
            Item(attributes: attributes, secret: new.secret, fields: new.fields),
            history: replaced.map { history(after: $0, newSecret: new.secret) } ?? [],
            conflicts: replaced?.conflicts ?? [], replacing: existing)
        return existing == nil ? .added : .replaced
    }

    /// Changes the one item that matches `query`: its secret and/or attributes.
    func update(matching query: Query, with change: ItemChange, in vault: inout WorkingCopy) throws -> ItemAttributes {
        let position = try vault.single(try vault.positions(matching: query), query: query)
        let opened = try vault.openWholeRecord(at: position)
        var attributes = opened.item.attributes
        attributes.accessibility = change.accessibility ?? attributes.accessibility
        attributes.details = attributes.details.applying(change.details)
        if change.removesExpiry { attributes.details.expires = nil }
        attributes.modified = now
        var fields = opened.item.fields
        for (field, value) in change.fields { fields[field] = value }
        let secret = change.secret ?? opened.item.secret
        if !change.fields.isEmpty { try Vault.validateSecretSize(secret.count + fields.byteCount) }
        try vault.store(
            Item(attributes: attributes, secret: secret, fields: fields),
            history: history(after: opened, newSecret: change.secret),
            conflicts: opened.conflicts, replacing: position)
        return attributes
    }

    /// Renames the one item that matches `query` (`Vault.move`).
    func move(
        matching query: Query, toService: String?, toAccount: String?, toGroup: AccessGroup?, keepingHistory: Bool,
        in vault: inout WorkingCopy
    ) throws -> (from: ItemAttributes, to: ItemAttributes, droppedRevisions: Int) {
        let position = try vault.single(try vault.positions(matching: query), query: query)
        let opened = try vault.openWholeRecord(at: position)
        var attributes = opened.item.attributes
        attributes.group = toGroup ?? attributes.group
        attributes.service = toService ?? attributes.service
        attributes.account = toAccount ?? attributes.account
        let target = Query(service: attributes.service, account: attributes.account, group: attributes.group)
        guard try vault.positions(matching: target).isEmpty else {
            throw VaultError.duplicateItem(ItemKey(group: attributes.group, service: attributes.service, account: attributes.account))
        }
        attributes.modified = now
        let from = opened.item.attributes
        var moved = opened
        moved.item.attributes = attributes
        let dropped = attributes.group != from.group && !keepingHistory ? opened.history.count : 0
        if dropped > 0 { moved.history = [] }
        try vault.store(moved, replacing: position)
        return (from, attributes, dropped)
    }

    /// The secret (`field` nil) or one sealed field of the one item matching `query` replaced by
    /// what `newValue` makes of the item (`Vault.replaceSecret`, `replaceField`); returns the item as it was read.
    func replace(
        _ field: SealedField?, matching query: Query, keepingPrevious: Bool, by newValue: (Item) throws -> SecretBytes?,
        in vault: inout WorkingCopy
    ) throws -> Item {
        let position = try vault.single(try vault.positions(matching: query), query: query)
        let opened = try vault.openWholeRecord(at: position)
        let item = opened.item
        if item.attributes.hasExpired(at: now) { throw VaultError.itemExpired(item.attributes) }
        guard let value = try newValue(item) else { return item }
        var changed = item
        if let field { changed.fields[field] = value } else { changed.secret = value }
        try Vault.validateSecretSize(changed.secret.count + changed.fields.byteCount)
        changed.attributes.modified = now
        let secret = field == nil ? value : nil
        try vault.store(
            changed, history: keepingPrevious ? history(after: opened, newSecret: secret) : opened.history,
            conflicts: opened.conflicts, replacing: position)
        return item
    }

    /// The history an item has after its secret is replaced by `newSecret` (nil or the same
    /// bytes: not replaced): the secret it had joins the front, and `revisionsKept` are kept.
    private func history(after opened: OpenedRecord, newSecret: SecretBytes?) -> [SecretRevision] {
        var history = opened.history
        var limit = revisionsKept
        if let newSecret, !newSecret.constantTimeEquals(opened.item.secret) {
            history.insert(SecretRevision(secret: opened.item.secret, setAt: opened.item.attributes.modified, replacedAt: now), at: 0)
            limit = limit ?? Vault.defaultRevisionsKept
        }
        return limit.map { Array(history.prefix(max($0, 0))) } ?? history
    }

    /// Moves the item that matches `query` (every one, with `allMatching`) to the trash; returns what was deleted.
    func delete(matching query: Query, allMatching: Bool, in vault: inout WorkingCopy) throws -> [ItemAttributes] {
        let matches = try vault.matches(query, skipLocked: false)
        if !allMatching { _ = try vault.single(matches.positions, query: query) }
        guard !matches.positions.isEmpty else { throw VaultError.itemNotFound(query) }
        vault.moveToTrash(at: matches.positions, deletedAt: now)
        vault.remove(at: matches.positions)
        return matches.attributes
    }

    /// Makes revision 1 of the one item that matches `query` its secret again (`Vault.undo`).
    func undo(matching query: Query, in vault: inout WorkingCopy) throws -> ItemAttributes {
        let position = try vault.single(try vault.positions(matching: query), query: query)
        let opened = try vault.openWholeRecord(at: position)
        let (item, history) = (opened.item, opened.history)
        if item.attributes.hasExpired(at: now) { throw VaultError.itemExpired(item.attributes) }
        guard let previous = history.first else {
            throw VaultError.noRevision(
                ItemKey(
                    group: item.attributes.group, service: item.attributes.service,
                    account: item.attributes.account), requested: 1, kept: 0)
        }
        var attributes = item.attributes
        attributes.modified = now
        let swapped =
            [SecretRevision(secret: item.secret, setAt: item.attributes.modified, replacedAt: attributes.modified)]
            + history.dropFirst()
        try vault.store(
            Item(attributes: attributes, secret: previous.secret, fields: item.fields), history: swapped,
            conflicts: opened.conflicts, replacing: position)
        return attributes
    }

    /// Adds `items`, all or nothing: throws `duplicateItem` when one exists already or appears twice (`Vault.addAll`).
    func addAll(_ items: [NewItem], in vault: inout WorkingCopy) throws {
        // One pass over the index, not one per item: a lookup tag names (group, service, account).
        var taken = Set(vault.file.index.map { TakenLookupTag(groupID: $0.groupID, tag: $0.tag) })
        for new in items {
            let attributes = ItemAttributes(
                service: new.service, account: new.account, group: new.group,
                accessibility: new.accessibility, details: new.details, created: now, modified: now)
            try vault.store(Item(attributes: attributes, secret: new.secret, fields: new.fields))
            let entry = vault.file.index[vault.file.index.count - 1]
            guard taken.insert(TakenLookupTag(groupID: entry.groupID, tag: entry.tag)).inserted else {
                throw VaultError.duplicateItem(new.key)
            }
        }
    }

    /// Brings back the one trashed item that matches `query`, with its history, as a new revision (`Vault.undelete`).
    func undelete(matching query: Query, in vault: inout WorkingCopy) throws -> ItemAttributes {
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
        record.item.attributes.modified = max(now, deleted.addingTimeInterval(0.001))
        try vault.store(record, itemID: trashed.itemID)
        // Its tombstones go with it (the index holds the item again): an empty change seals each
        // group's tombstones again, so none is left naming an item of another group.
        for group in vault.file.groups where vault.keys.groups[group.groupID] != nil {
            vault.pending.tombstones.added[group.groupID, default: []] += []
        }
        return record.item.attributes
    }

    /// Empties the trash of `group` (nil: every group the keys open); returns how many items went.
    static func emptyTrash(group: AccessGroup?, in vault: inout WorkingCopy) throws -> Int {
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

/// A group and lookup tag an entry of the file holds (`addAll`'s check for duplicates).
private struct TakenLookupTag: Hashable {
    let groupID: GroupID
    let tag: Bytes16
}
