import FoundationEssentials
import VaultCrypto

/// How `resolve` settled an item's conflict.
package enum Resolution: Sendable {
    /// The item now holds the chosen side's version.
    case kept(ItemAttributes)
    /// The chosen side had deleted the item: it is gone.
    case deleted(ItemAttributes)
}

/// The conflicts a merge leaves, read from an opened vault and settled in a working copy.
enum Conflicts {
    /// Every item `vault` opens that a merge left in conflict, by its newest conflict.
    static func summaries(in vault: some OpenVault) throws -> [ConflictSummary] {
        var found: [ConflictSummary] = []
        for position in try vault.positions(matching: Query(), skipLocked: true) {
            let record = try vault.openWholeRecord(at: position)
            guard let newest = record.conflicts.first else { continue }
            found.append(
                ConflictSummary(
                    attributes: record.item.attributes, currentSide: newest.currentSide,
                    other: newest.other?.attributes, origin: newest.origin, olderVersions: record.conflicts.count - 1,
                    otherIsSealedElsewhere: newest.otherIsSealedElsewhere))
        }
        return found
    }

    /// The other version of the one item that matches `query`: that of its conflict number
    /// `conflict` (1 is the newest), or when none is given of its newest conflict that holds one (a
    /// newer conflict may record a deletion). Throws `noConflict` when it has none (or fewer than
    /// `conflict`), and `otherSideDeleted` when the conflict asked for, or each, records a deletion.
    static func otherVersion(matching query: Query, conflict number: Int?, in vault: some OpenVault) throws -> (
        item: Item, conflict: ItemConflict
    ) {
        let position = try vault.single(try vault.positions(matching: query), query: query)
        let record = try vault.openWholeRecord(at: position)
        let key = record.item.attributes.key
        guard let newest = record.conflicts.first else { throw VaultError.noConflict(key) }
        if let number {
            guard number <= record.conflicts.count else {
                throw VaultError.noConflictNumber(key, requested: number, count: record.conflicts.count)
            }
            let conflict = record.conflicts[number - 1]
            if conflict.otherIsSealedElsewhere { throw VaultError.otherVersionSealedElsewhere(key) }
            guard let other = conflict.other else { throw VaultError.otherSideDeleted(key, current: conflict.currentSide) }
            return (other, conflict)
        }
        guard let conflict = record.conflicts.first(where: { $0.other != nil || $0.otherIsSealedElsewhere }) else {
            throw VaultError.otherSideDeleted(key, current: newest.currentSide)
        }
        guard let other = conflict.other else { throw VaultError.otherVersionSealedElsewhere(key) }
        return (other, conflict)
    }

    /// Settles the newest conflict of the one item that matches `query` with `side`'s version:
    /// its current one (the conflicts go), the other side's (which replaces it), or, when the
    /// chosen side had deleted the item, none. Throws `noConflict` when it has none.
    /// `checkWritable` refuses a group the keys at hand may not write (the other version's, when it moves the item).
    static func resolve(
        matching query: Query, keeping side: MergeSide, in vault: inout WorkingCopy,
        checkWritable: (AccessGroup) throws -> Void
    ) throws -> Resolution {
        let position = try vault.single(try vault.positions(matching: query), query: query)
        var record = try vault.openWholeRecord(at: position)
        guard let conflict = record.conflicts.first else { throw VaultError.noConflict(record.item.attributes.key) }
        record.conflicts = []
        if side == conflict.currentSide {
            try vault.store(record, replacing: position)
            return .kept(record.item.attributes)
        }
        if conflict.otherIsSealedElsewhere { throw VaultError.otherVersionSealedElsewhere(record.item.attributes.key) }
        guard let chosen = conflict.other else {
            vault.remove(at: [position])
            return .deleted(record.item.attributes)
        }
        if chosen.attributes.group != record.item.attributes.group {
            if conflict.isUnsealedFromAnotherGroup {
                throw VaultError.unsealedVersionOfAnotherGroup(record.item.attributes.key, names: chosen.attributes.group)
            }
            try checkWritable(chosen.attributes.group)
        }
        if chosen.attributes.key != record.item.attributes.key,
            try vault.positions(
                matching: Query(
                    service: chosen.attributes.service, account: chosen.attributes.account,
                    group: chosen.attributes.group)
            ).contains(where: { $0 != position })
        {
            throw VaultError.duplicateItem(chosen.attributes.key)
        }
        record.item = chosen
        try vault.store(record, replacing: position)
        return .kept(chosen.attributes)
    }
}
