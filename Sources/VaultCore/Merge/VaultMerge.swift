import FoundationEssentials
import VaultCrypto

/// A three-way merge of one vault's files, record by record against their merge base
/// (docs/TEAMS.md, "Merging"). Items are matched by item id, which survives every change and
/// every re-key; versions are compared by what they hold (attributes, dates, secret, history,
/// conflicts), not by their ciphertext, so a side re-sealed under new keys changed nothing.
struct VaultMerge {
    /// One side's items, opened: by item id.
    struct Snapshot {
        var records: [Bytes16: Version] = [:]
        /// The item ids in file order.
        var order: [Bytes16] = []

        /// Opens every record of `vault` (a full ring): a record that does not open stops the merge.
        init(_ vault: OpenVault) throws {
            for position in vault.file.index.indices {
                let id = vault.file.index.itemID(at: position)
                records[id] = Version(record: try vault.openWholeRecord(at: position))
                order.append(id)
            }
        }

        init() {}
    }

    /// One version of an item and a digest of everything it holds.
    struct Version {
        let record: OpenedRecord
        let digest: [UInt8]

        init(record: OpenedRecord) {
            self.record = record
            let attributes = record.item.attributes
            let plaintext = RecordCodec.encodePlaintext(attributes, secret: record.item.secret, history: record.history,
                                                        conflicts: record.conflicts)
            let placed = Array(attributes.group.name.utf8) + [0, attributes.accessibility.fileID.rawValue]
            digest = plaintext.withUnsafeBytes { SHA256.hash(Array($0) + placed) }
        }

        static func same(_ a: Version?, _ b: Version?) -> Bool {
            switch (a, b) {
            case (nil, nil): return true
            case (let a?, let b?): return a.digest == b.digest
            default: return false
            }
        }
    }

    let base: Snapshot
    let target: Snapshot
    let other: Snapshot
    /// Which side the vault written to (the target: the side at the higher key epoch) is.
    let targetSide: MergeSide
    /// Where each side's versions came from, for the conflicts that keep them.
    let origins: [MergeSide: String]
    /// Groups whose changes from the other side are not applied but kept as conflicts: the other
    /// side was cut before a member who could write them was removed (nil: every group; empty: none).
    let supersededGroups: Set<AccessGroup>?

    /// What the merge did to the target, for the report.
    struct Changes {
        var applied = 0
        var conflicts: [ItemKey] = []
    }

    /// Applies the other side's changes to `vault` (the target, opened with a full ring).
    func apply(to vault: inout OpenVault) throws -> Changes {
        var changes = Changes()
        // Items stored from the other side as new here, and whether this merge gave each a conflict.
        var fromOther: [(id: Bytes16, conflicted: Bool)] = []
        // The target's items in file order, then the other side's, then those only the base had.
        var seen = Set<Bytes16>()
        let ids = (target.order + other.order + base.order).filter { seen.insert($0).inserted }
        for id in ids {
            let b = base.records[id], t = target.records[id], o = other.records[id]
            let otherChanged = !Version.same(o, b)
            let targetChanged = !Version.same(t, b)
            guard otherChanged, !Version.same(t, o) else { continue }
            let position = vault.file.index.position(ofItemID: id)
            if !targetChanged && !isSuperseded(o ?? b!) {
                if let o {
                    try vault.store(o.record, replacing: position, itemID: id)
                    if position == nil { fromOther.append((id, false)) }
                } else if let position {
                    vault.remove(at: [position])
                }
                changes.applied += 1
                continue
            }
            // Changed on both sides, or by a side whose keys were superseded: keep both versions.
            let current = t ?? o!
            let currentSide = t != nil ? targetSide : targetSide.other
            let otherVersion = t != nil ? o : nil
            // The newest conflict first: the one `resolve` settles.
            var record = current.record
            record.conflicts = [ItemConflict(currentSide: currentSide, other: otherVersion?.record.item, origin: origins[currentSide.other] ?? "")]
                + record.conflicts + (otherVersion?.record.conflicts ?? [])
            try vault.store(record, replacing: position, itemID: id)
            if position == nil { fromOther.append((id, true)) }
            changes.conflicts.append(current.record.item.attributes.key)
        }
        try foldRepeatedNames(in: &vault, added: fromOther, changes: &changes)
        return changes
    }

    /// Whether a change of the other side to this item is kept as a conflict rather than applied.
    private func isSuperseded(_ version: Version) -> Bool {
        guard let supersededGroups else { return true }
        return supersededGroups.contains(version.record.item.attributes.group)
    }

    /// Two sides that each added an item of one group, service and account (different item ids):
    /// the target's stays, holding the other's as a conflict.
    /// When this merge had just made the incoming item a conflict against the target's deletion, the
    /// target's item of the same name (deleted and added again) is that side's version: the deletion goes.
    private func foldRepeatedNames(in vault: inout OpenVault, added: [(id: Bytes16, conflicted: Bool)], changes: inout Changes) throws {
        for (id, conflicted) in added {
            guard let position = vault.file.index.position(ofItemID: id) else { continue }
            var incoming = try vault.openWholeRecord(at: position)
            let key = incoming.item.attributes.key
            let same = try vault.positions(matching: Query(service: key.service, account: key.account, group: key.group))
            guard let kept = same.first(where: { $0 != position }) else { continue }
            if conflicted, incoming.conflicts.first?.other == nil { incoming.conflicts.removeFirst() }
            var record = try vault.openWholeRecord(at: kept)
            record.conflicts = [ItemConflict(currentSide: targetSide, other: incoming.item, origin: origins[targetSide.other] ?? "")]
                + record.conflicts + incoming.conflicts
            try vault.store(record, replacing: kept)
            vault.remove(at: [position])
            if !changes.conflicts.contains(key) { changes.conflicts.append(key) }
        }
    }
}
