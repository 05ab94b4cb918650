import FoundationEssentials

/// The grant ledger a write changes, sealed into its groups' blocks before the next write.
struct GrantLedgerChanges {
    /// Groups whose ledger was read before their key was replaced (a revoke, a re-key): sealed again
    /// under the new key, every grant in it marked ended.
    var carried: [GroupID: [GrantRecord]] = [:]
    /// Grants recorded since the file was read (and, in a merge, the other side's records).
    var added: [GroupID: [GrantRecord]] = [:]

    var groups: Set<GroupID> { Set(carried.keys).union(added.keys) }
}

// The grant ledger's writing: a grant recorded in each of its groups' blocks, the blocks carried
// through a re-key of their group (which ends the group's credentials), sealed under the group key.
extension WorkingCopy {
    /// Records `credential` in the ledger block of every group it opens.
    mutating func recordGrant(_ credential: ScopedCredential) {
        let record = GrantRecord(credential)
        for group in record.groups { pending.grantLedger.added[group.groupID, default: []].append(record) }
    }

    /// Reads the ledger of `groupIDs` before their keys are replaced, to seal it again under the new
    /// ones, and marks each grant it holds ended now: a credential holds the old keys, which open
    /// nothing of the group from then on.
    mutating func carryGrantLedger(of groupIDs: [GroupID]) throws {
        let now = UInt64(max(0, Date().timeIntervalSince1970.rounded(.down)))
        for groupID in groupIDs where pending.grantLedger.carried[groupID] == nil {
            pending.grantLedger.carried[groupID] = try grantLedger(of: groupID).map { record in
                var ended = record
                if ended.revoked == 0 { ended.revoked = now }
                return ended
            }
        }
    }

    /// Seals the ledger block of every group whose ledger changed: the records as read (or carried)
    /// merged with those added (`GrantRecord.merged`), the newest `GrantRecord.maxPerGroup`. Blocks
    /// of groups that left the header go. A group's ledger block comes before its trash block.
    mutating func sealGrantLedger() throws {
        let headerGroups = Set(file.groups.map(\.groupID))
        let changed = pending.grantLedger.groups.intersection(headerGroups).filter { keys.groups[$0]?.groupKey != nil }
        let orphaned = file.listings.contains { $0.classID == GrantRecord.blockClassID && !headerGroups.contains($0.groupID) }
        defer { pending.grantLedger = GrantLedgerChanges() }
        guard !changed.isEmpty || orphaned else { return }
        var remade: [GroupID: ListingBlock?] = [:]
        for groupID in changed {
            let kept = try pending.grantLedger.carried[groupID] ?? grantLedger(of: groupID)
            let list = GrantRecord.merged([kept, pending.grantLedger.added[groupID] ?? []]).suffix(GrantRecord.maxPerGroup)
            guard !list.isEmpty else {
                remade[groupID] = .some(nil)
                continue
            }
            remade[groupID] = try SealedGroupBlock.seal(
                Array(list), key: keys.grantLedgerKey(groupID: groupID),
                vaultID: file.vaultID, groupID: groupID)
        }
        var byGroup: [GroupID: [ListingBlock]] = [:]
        for block in file.listings { byGroup[block.groupID, default: []].append(block) }
        file.listings = file.groups.flatMap { group -> [ListingBlock] in
            let blocks = byGroup[group.groupID] ?? []
            guard let replacement = remade[group.groupID] else { return blocks }
            let rest = blocks.filter { $0.classID != GrantRecord.blockClassID }
            let trash = rest.filter { $0.classID == TrashEntry.blockClassID }
            return rest.filter { $0.classID != TrashEntry.blockClassID } + (replacement.map { [$0] } ?? []) + trash
        }
    }
}

extension GrantRecord {
    /// The record of a credential just granted, not revoked.
    init(_ credential: ScopedCredential) {
        self.init(
            id: credential.ledgerID, readOnly: credential.readOnly,
            issued: UInt64(max(0, credential.issued.timeIntervalSince1970.rounded(.down))),
            expires: credential.expires.map { UInt64(max(0, $0.timeIntervalSince1970.rounded(.down))) } ?? 0,
            revoked: 0,
            groups: credential.grants.map { Group(groupID: $0.groupID, name: $0.group.name, keyCheck: $0.keyCheck) })
    }
}
