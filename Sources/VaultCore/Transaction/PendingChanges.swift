import VaultCrypto

/// What the next write of a working copy must seal again (`WorkingCopy.encode()`):
/// the changes a transaction made since the file was read, and the one repair
/// a read can find due (a trust key sealed the old way). Each part is emptied
/// once sealed; a `WorkingCopy` holds one, a `Snapshot` none.
struct PendingChanges {
    /// (group, class) pairs whose listing block must be sealed again.
    var listings = ListingChanges()
    /// Tombstones of items removed since the file was read, and those to seal again under new keys.
    var tombstones = TombstoneChanges()
    /// Items moved to the trash since the file was read, and trash to seal again under new keys.
    var trash = TrashChanges()
    /// Grants recorded since the file was read, and ledgers to seal again under new keys.
    var grantLedger = GrantLedgerChanges()
    /// Milliseconds since 1970 before which a trashed item is purged by this write; nil purges nothing.
    var trashPurgeBefore: UInt64? = nil
    /// The attributes of items stored since the file was read, by item id: what a changed
    /// listing block is rebuilt from without opening their records again.
    var storedAttributes: [Bytes16: ItemAttributes] = [:]
    /// Whether the members, the master key, a group key or a class key changed, so every member
    /// slot must be sealed again from the roster (`WorkingCopy.refreshMemberSlots`).
    var memberSlotsStale = false
    /// Whether the trust key was read sealed as vaults before 2026-11-25 sealed it (without TP in
    /// its AAD): the owner's next write seals it again with TP.
    var trustKeySealedWithoutTP = false
}

/// The listings a change left stale, sealed again before the next write: whole
/// pairs (a conversion, a class key replaced), or the buckets of given items.
struct ListingChanges {
    private(set) var wholePairs: Set<ListingPair> = []
    private(set) var items: [ListingPair: Set<Bytes16>] = [:]

    var isEmpty: Bool { wholePairs.isEmpty && items.isEmpty }
    var pairs: Set<ListingPair> { wholePairs.union(items.keys) }

    /// The item `itemID` of `pair` was stored, moved or removed.
    mutating func insert(_ pair: ListingPair, itemID: Bytes16) { items[pair, default: []].insert(itemID) }

    /// Every item of `pair` changed.
    mutating func insertWhole(_ pair: ListingPair) { wholePairs.insert(pair) }
}

/// The tombstones a write changes, sealed into their groups' blocks before the next write.
struct TombstoneChanges {
    /// Groups whose tombstones were read before their key was replaced (a revoke, a re-key): sealed
    /// again under the new key, since the old one no longer opens their block.
    var carried: [GroupID: [Tombstone]] = [:]
    /// Tombstones of items removed since the file was read (and, in a merge, those of the other side).
    var added: [GroupID: [Tombstone]] = [:]

    var groups: Set<GroupID> { Set(carried.keys).union(added.keys) }
}

/// The trash a write changes, sealed into the groups' trash blocks before the next write.
struct TrashChanges {
    /// Groups whose trash was opened before their key was replaced (a revoke, a re-key), or
    /// emptied: their block holds these records alone, sealed again under the keys at hand.
    var replaced: [GroupID: [TrashedRecord]] = [:]
    /// Records the other side of a merge trashed, sealed under the keys at hand and added.
    var brought: [TrashedRecord] = []
    /// Records `delete` moved to the trash since the file was read, as the file held them.
    var added: [GroupID: [TrashEntry]] = [:]
}
