import FoundationEssentials
import VaultCrypto

/// A three-way merge of one vault's files, record by record against their merge base
/// (docs/TEAMS.md, "Merging"). Items are matched by item id, which survives every change and
/// every re-key; versions are compared by what they hold (attributes, dates, secret, history,
/// conflicts), so a side re-sealed under new keys changed nothing — by their sealed bytes first,
/// which are the same wherever the record was not written again.
struct VaultMerge {
    /// One side's items by item id, each record opened only when its sealed bytes differ from
    /// another side's: a record whose digest (and group and class) is the same on two sides holds
    /// the same item, so an unchanged item of a large vault costs a comparison, not a decryption.
    final class SideItems {
        private let vault: Snapshot?
        /// Which of the merge's files this is, for what refuses it.
        private let input: MergeInput?
        private var positions: [Bytes16: Int] = [:]
        private var opened: [Bytes16: Version] = [:]
        /// The item ids in file order.
        private(set) var order: [Bytes16] = []
        /// Groups a team log of the merge deleted: their items and the conflict versions sealed
        /// under their keys are none of the merge's.
        private let deletedGroups: Set<GroupID>
        /// Items whose conflict lost its other version because that version's group was deleted.
        private(set) var droppedVersions: [ItemKey] = []
        /// What this side removed (its tombstones and purge records), by group.
        let tombstonesByGroup: [GroupID: [Tombstone]]
        /// Each tombstone by the item id it names, with the group whose block holds it: it removes
        /// an item of that group only.
        private let tombstones: [Bytes16: [GroupTombstone]]

        /// A tombstone and the group whose block holds it.
        private struct GroupTombstone: Equatable {
            let groupID: GroupID
            let tombstone: Tombstone
        }

        /// `vault`'s items, opened with a full ring; `input` says which of the merge's files it is.
        /// Every record is checked against its index entry's digest here (the index MAC vouches for
        /// the digests), so a record compared by its digest alone is one the file really holds; a
        /// record that does not match, or later does not open, stops the merge, and so does a
        /// tombstone naming an item this side holds in another group than the tombstone's.
        init(_ vault: Snapshot, of input: MergeInput, leavingOut deletedGroups: Set<GroupID>) throws {
            self.vault = vault
            self.input = input
            self.deletedGroups = deletedGroups
            let byGroup = try input.reading {
                var byGroup: [GroupID: [Tombstone]] = [:]
                for group in vault.file.groups where vault.keys.groups[group.groupID] != nil {
                    byGroup[group.groupID] = try vault.tombstones(of: group.groupID)
                }
                return byGroup
            }
            tombstonesByGroup = byGroup
            for position in vault.file.index.indices {
                let entry = vault.file.index[position]
                guard vault.file.records.stored(at: position).bytes.withUnsafeBytes(entry.digestMatches) else {
                    throw VaultError.mergeInput(input, refusal: .corrupted(path: vault.path, detail: .violates(.recordDigestMismatch)))
                }
                let id = entry.itemID
                if deletedGroups.contains(entry.groupID) { continue }
                positions[id] = position
                order.append(id)
            }
            var tombstones: [Bytes16: [GroupTombstone]] = [:]
            for (groupID, list) in byGroup {
                for tombstone in list {
                    if let position = positions[tombstone.itemID], vault.file.index[position].groupID != groupID {
                        let group = vault.keys.groups[groupID]?.group.name ?? ""
                        throw VaultError.mergeInput(
                            input, refusal: .corrupted(path: vault.path, detail: .tombstoneOfAnotherGroup(group: group)))
                    }
                    if tombstone.purgedDeletion == nil {
                        tombstones[tombstone.itemID, default: []].append(GroupTombstone(groupID: groupID, tombstone: tombstone))
                    }
                }
            }
            self.tombstones = tombstones
        }

        /// No items: a merge without a base.
        init() {
            vault = nil
            input = nil
            deletedGroups = []
            tombstonesByGroup = [:]
            tombstones = [:]
        }

        func has(_ id: Bytes16) -> Bool { positions[id] != nil }

        /// The item `id` holds here, opened (once); nil when this side has none.
        func version(_ id: Bytes16) throws -> Version? {
            guard let vault, let input, let position = positions[id] else { return nil }
            if let known = opened[id] { return known }
            var record = try input.reading { try vault.openWholeRecord(at: position) }
            if record.conflicts.contains(where: { $0.sealedElsewhere.map { deletedGroups.contains($0.groupID) } ?? false }) {
                record.conflicts.removeAll { $0.sealedElsewhere.map { deletedGroups.contains($0.groupID) } ?? false }
                droppedVersions.append(record.item.attributes.key)
            }
            let version = Version(record: record)
            opened[id] = version
            return version
        }

        /// What identifies the sealed record of `id` without opening it: its digest, group id, group name and class.
        fileprivate func sealedIdentity(_ id: Bytes16) -> (digest: [UInt8], groupID: GroupID, group: String?, classID: ClassID)? {
            guard let vault, let position = positions[id] else { return nil }
            let entry = vault.file.index[position]
            return (entry.digest.0.bytes + entry.digest.1.bytes, entry.groupID, vault.keys.groups[entry.groupID]?.group.name, entry.classID)
        }

        /// Whether this side removed the very revision of `id` that `other` holds: the removal stands,
        /// whatever the merge base says, since that revision is no change made after it. Only a
        /// tombstone of the group `other` holds it in counts.
        func removed(_ id: Bytes16, asHeldBy other: SideItems) throws -> Bool {
            guard !has(id), let tombstones = tombstones[id], let held = other.sealedIdentity(id) else { return false }
            return try tombstones.contains {
                try $0.groupID == held.groupID && $0.tombstone.removed(recordDigest: held.digest) { try other.version(id)!.digest }
            }
        }

        /// Whether this side removed `id`, which `base` does not hold either and `holder` holds: a
        /// change against a base older than the item (none, or a criss-cross history's), where both
        /// lack it. A removal the base knew of is none (the item deleted there, then brought back on
        /// the other side), and so is a tombstone of another group than the one `holder` holds it in.
        func removed(_ id: Bytes16, since base: SideItems, heldBy holder: SideItems) -> Bool {
            guard !has(id), !base.has(id), let mine = tombstones[id], let held = holder.sealedIdentity(id) else { return false }
            let known = base.tombstones[id] ?? []
            return mine.contains { $0.groupID == held.groupID && !known.contains($0) }
        }

        /// What this side keeps in its trash, opened (with this side's keys: the target's may be another
        /// epoch's), none of a deleted group and without the conflict versions sealed under one's keys.
        func trashedRecords() throws -> [TrashedRecord] {
            guard let vault, let input else { return [] }
            return try input.reading { try vault.openTrash().records }.compactMap { trashed in
                guard let groupID = vault.keys.groupID(of: trashed.record.item.attributes.group), !deletedGroups.contains(groupID) else {
                    return nil
                }
                var kept = trashed
                kept.record.conflicts.removeAll { $0.sealedElsewhere.map { deletedGroups.contains($0.groupID) } ?? false }
                return kept
            }
        }

        /// The grant ledger of each group this side holds the group key of (`GrantRecord.merged` keeps both sides').
        func grantLedgers() throws -> [GroupID: [GrantRecord]] {
            guard let vault, let input else { return [:] }
            return try input.reading {
                var byGroup: [GroupID: [GrantRecord]] = [:]
                for group in vault.file.groups
                where vault.keys.groups[group.groupID]?.groupKey != nil && !deletedGroups.contains(group.groupID) {
                    byGroup[group.groupID] = try vault.grantLedger(of: group.groupID)
                }
                return byGroup
            }
        }

        /// Whether `id` holds the same item here and in `other` (both without it counts as the same).
        func holdsTheSame(_ id: Bytes16, as other: SideItems) throws -> Bool {
            switch (has(id), other.has(id)) {
            case (false, false): return true
            case (true, true): break
            default: return false
            }
            if let mine = sealedIdentity(id), let theirs = other.sealedIdentity(id), mine.group != nil,
                mine.digest == theirs.digest, mine.group == theirs.group, mine.classID == theirs.classID
            {
                return true
            }
            return try version(id)!.digest == other.version(id)!.digest
        }
    }

    /// One version of an item and a digest of everything it holds.
    struct Version {
        let record: OpenedRecord
        let digest: [UInt8]

        init(record: OpenedRecord) {
            self.record = record
            digest = record.contentDigest
        }
    }

    let base: SideItems
    let target: SideItems
    let other: SideItems
    /// Which side the vault written to (the target: the side at the higher key epoch) is.
    let targetSide: MergeSide
    /// Where each side's versions came from, for the conflicts that keep them.
    let origins: [MergeSide: String]
    /// Groups whose changes from each side are not applied but kept as conflicts: that side is from
    /// before a member's removal on the other side, or still holds a member (who could write those
    /// groups) whom the other side removed since the base, so its changes may be that member's
    /// (nil: every group; empty: none).
    let supersededGroups: [MergeSide: Set<AccessGroup>?]

    /// What the merge did to the target, for the report.
    struct Changes {
        var applied = 0
        var conflicts: [ItemKey] = []
        /// Items whose conflict lost its other version with the group it lived in.
        var droppedVersions: [ItemKey] = []
    }

    /// Applies the other side's changes to `vault` (the target, opened with a full ring).
    func apply(to vault: inout WorkingCopy) throws -> Changes {
        var changes = Changes()
        // Items this merge stored in the other side's version, and whether it gave each a conflict:
        // their names are checked against the target's items.
        var stored: [(id: Bytes16, conflicted: Bool)] = []
        // The target's items in file order, then the other side's, then those only the base had.
        var seen = Set<Bytes16>()
        let ids = (target.order + other.order + base.order).filter { seen.insert($0).inserted }
        for id in ids {
            guard try !target.holdsTheSame(id, as: other) else { continue }
            let otherChanged = try !other.holdsTheSame(id, as: base) || other.removed(id, since: base, heldBy: target)
            let targetChanged = try !target.holdsTheSame(id, as: base) || target.removed(id, since: base, heldBy: other)
            let o = try other.version(id), t = try target.version(id), b = try base.version(id)
            let group = (o ?? t ?? b)!.record.item.attributes.group
            let position = vault.file.index.position(ofItemID: id)
            // A side that removed the very revision the other holds keeps it removed, whatever the base.
            if try target.removed(id, asHeldBy: other), !isSuperseded(group, changedBy: targetSide) { continue }
            if try other.removed(id, asHeldBy: target), !isSuperseded(group, changedBy: targetSide.other), let position {
                vault.remove(at: [position])
                changes.applied += 1
                continue
            }
            // A change of one side only is taken, unless that side's changes may be a removed member's.
            if !targetChanged, !isSuperseded(group, changedBy: targetSide.other) {
                if let o {
                    try vault.store(o.record, replacing: position, itemID: id)
                    stored.append((id, false))
                } else if let position {
                    vault.remove(at: [position])
                }
                changes.applied += 1
                continue
            }
            if !otherChanged, !isSuperseded(group, changedBy: targetSide) { continue }
            // Changed on both sides, or by a side whose changes may be a removed member's: keep both
            // versions. The one shown is the target's when both changed, the side's that did not
            // change it when one did; where that side has none, the other's.
            var currentSide = otherChanged ? targetSide : targetSide.other
            if (currentSide == targetSide ? t : o) == nil { currentSide = currentSide.other }
            let current = (currentSide == targetSide ? t : o)!
            let otherVersion = currentSide == targetSide ? o : t
            // The newest conflict first: the one `resolve` settles.
            var record = current.record
            record.conflicts =
                [ItemConflict(currentSide: currentSide, other: otherVersion?.record.item, origin: origins[currentSide.other] ?? "")]
                + record.conflicts + (otherVersion?.record.conflicts ?? [])
            try vault.store(record, replacing: position, itemID: id)
            if currentSide != targetSide { stored.append((id, true)) }
            changes.conflicts.append(current.record.item.attributes.key)
        }
        try foldRepeatedNames(in: &vault, stored: stored, changes: &changes)
        // The result keeps what either side removed.
        for (groupID, tombstones) in other.tombstonesByGroup where vault.keys.groups[groupID] != nil {
            vault.pending.tombstones.added[groupID, default: []] += tombstones
        }
        // And every grant either side recorded, a revocation either side holds winning.
        for (groupID, records) in try other.grantLedgers() where vault.keys.groups[groupID]?.groupKey != nil {
            vault.pending.grantLedger.added[groupID, default: []] += records
        }
        // And what either side trashed: the other side's, sealed again under the target's keys, unless the target has it.
        var trashedHere = Set<TrashEntry.Deletion>()
        for group in vault.file.groups where vault.keys.groups[group.groupID] != nil {
            trashedHere.formUnion(try vault.trash(of: group.groupID).map(\.deletion))
        }
        vault.pending.trash.brought += try other.trashedRecords().filter { !trashedHere.contains($0.deletion) }
        changes.droppedVersions = Array(Set(target.droppedVersions + other.droppedVersions)).sorted { "\($0)" < "\($1)" }
        return changes
    }

    /// Whether `side`'s change to an item of `group` is kept as a conflict rather than applied.
    private func isSuperseded(_ group: AccessGroup, changedBy side: MergeSide) -> Bool {
        guard let groups = supersededGroups[side] else { return false }
        guard let groups else { return true }
        return groups.contains(group)
    }

    /// Two items under one group, service and account after the merge (added on both sides, or
    /// one renamed onto the other's name): the target's stays, holding the other side's as a
    /// conflict. When this merge had just made the stored item a conflict against the
    /// target's deletion, the target's item of the same name (deleted and added again) is that
    /// side's version: the deletion goes.
    private func foldRepeatedNames(in vault: inout WorkingCopy, stored: [(id: Bytes16, conflicted: Bool)], changes: inout Changes) throws {
        for (id, conflicted) in stored {
            guard let position = vault.file.index.position(ofItemID: id) else { continue }
            var incoming = try vault.openWholeRecord(at: position)
            let key = incoming.item.attributes.key
            let same = try vault.positions(matching: Query(service: key.service, account: key.account, group: key.group))
            guard let kept = same.first(where: { $0 != position }) else { continue }
            if conflicted, incoming.conflicts.first?.other == nil { incoming.conflicts.removeFirst() }
            var record = try vault.openWholeRecord(at: kept)
            record.conflicts =
                [ItemConflict(currentSide: targetSide, other: incoming.item, origin: origins[targetSide.other] ?? "")]
                + record.conflicts + incoming.conflicts
            try vault.store(record, replacing: kept)
            vault.remove(at: [position])
            if !changes.conflicts.contains(key) { changes.conflicts.append(key) }
        }
    }
}
