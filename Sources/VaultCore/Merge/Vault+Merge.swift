import FoundationEssentials
import VaultCrypto

/// What `merge` did.
public struct MergeReport: Sendable {
    /// Changes of the other side taken in as they were.
    public var applied = 0
    /// Items this merge left in conflict (both versions kept: `vault conflicts`).
    public var conflicts: [ItemKey] = []
    /// Members the other side added, added here too.
    public var membersAdded: [String] = []
    /// Members the other side removed, removed here too (re-keying what they could open).
    public var membersRemoved: [String] = []
    /// Members the other side added that could not be added here, with why.
    public var membersNotAdded: [(name: String, reason: String)] = []
    /// Whether the result was re-keyed because the other side had re-keyed.
    public var rekeyed = false
    /// Groups the other side revoked (replaced the key of), revoked here too.
    public var groupsRevoked: [AccessGroup] = []
    /// The key epoch of the result.
    public var keyEpoch: UInt64 = 0
}

/// How `resolve` settled an item's conflict.
public enum Resolution: Sendable {
    /// The item now holds the chosen side's version.
    case kept(ItemAttributes)
    /// The chosen side had deleted the item: it is gone.
    case deleted(ItemAttributes)
}

/// Merging two versions of the vault file record by record (docs/TEAMS.md, "Merging"), and the
/// conflicts a merge leaves.
extension Vault {
    /// Merges `theirs` into `ours` (nil: the vault file at this location), against `base` (their
    /// merge base; nil or empty when there is none, as git gives on add/add), and writes the result here.
    /// Needs keys that open both sides whole: the owner's or a full member's. `origins` name each
    /// side for the conflicts it leaves. Members the other side removed are removed here too, and
    /// when both sides re-keyed the result is re-keyed once more; both re-key as `removeMember` and
    /// `rekey` do, with `confirm` shown what that would drop. Neither side is judged against the
    /// counters this machine has seen (a branch behind is no rollback): the result's counters are
    /// the larger of the two sides', raised.
    public func merge(base: [UInt8]?, ours: [UInt8]? = nil, theirs: [UInt8], origins: (ours: String, theirs: String),
                      kdf: Scrypt.Parameters = .interactive, confirm: (RekeyPlan) throws -> Void) throws -> MergeReport {
        try requireOwner("merge the vault")
        remembersSeenCounters = false
        defer { remembersSeenCounters = true }
        var report = MergeReport()
        var followUp = FollowUp()
        var before: [UInt8] = []
        try withWriterLock {
            try withKeys {
                before = try readFile().allBytes
                (report, followUp) = try mergeInPlace(base: base, ours: ours, theirs: theirs, origins: origins)
            }
        }
        // What the other side did to keys is done again to the result. A failure puts the file back
        // as it was: a merged file still sealed under keys a removed member holds is never left behind.
        do {
            var rekeyedWhole = false
            for name in followUp.removedMembers {
                let removal = try removeMember(named: name, kdf: kdf, confirm: confirm)
                report.membersRemoved.append(name)
                report.keyEpoch = removal.keyEpoch
                rekeyedWhole = rekeyedWhole || removal.rekey != nil
            }
            if followUp.rekey && !rekeyedWhole {
                report.keyEpoch = try rekey(kdf: kdf, confirm: confirm, keepingTrustKey: true, first: { _ in }).keyEpoch
                report.rekeyed = true
            }
            for group in followUp.revokedGroups where !followUp.rekey && !rekeyedWhole {
                _ = try revoke(group: group)
                report.groupsRevoked.append(group)
            }
        } catch {
            try? withWriterLock { try FileSystem.writeAtomically(before, to: location.path, directory: location.directory) }
            throw error
        }
        return report
    }

    /// Key changes of the other side that the merged file must make again: it is written under the
    /// target's keys, which the other side's removals and re-keys did not touch.
    private struct FollowUp {
        /// Members the other side removed: removed here too, re-keying what they could open.
        var removedMembers: [String] = []
        /// The other side re-keyed (its master key is neither the base's nor the target's): re-key.
        var rekey = false
        /// Groups whose key the other side replaced (`revoke`) and the target did not: revoked here too.
        var revokedGroups: [AccessGroup] = []
    }

    private func mergeInPlace(base baseBytes: [UInt8]?, ours ourBytes: [UInt8]?, theirs theirBytes: [UInt8],
                              origins: (ours: String, theirs: String)) throws -> (MergeReport, FollowUp) {
        let ourLabel = "\(location.path) (ours: \(origins.ours))", theirLabel = "their side of the merge (\(origins.theirs))"
        var ours = try openMergeInput(try ourBytes.map(FileBytes.init) ?? readFile(), knownKeys: [], label: ourLabel)
        guard let ourKeys = ours.keys.fullKeys else { throw VaultError.ownerOnly(action: "merge the vault") }
        let theirBytes = FileBytes(theirBytes)
        guard VaultFile.peekVaultID(theirBytes) == ours.file.vaultID else { throw VaultError.mergeOfAnotherVault(path: location.path) }
        var theirs = try openMergeInput(theirBytes, knownKeys: [ourKeys], label: theirLabel)
        guard let theirKeys = theirs.keys.fullKeys else { throw VaultError.ownerOnly(action: "merge the vault") }
        // A base of another vault (or none: git's empty file on add/add) is no base: every difference is then a change.
        var base: OpenVault?
        if let baseBytes, !baseBytes.isEmpty, VaultFile.peekVaultID(FileBytes(baseBytes)) == ours.file.vaultID {
            base = try openMergeInput(FileBytes(baseBytes), knownKeys: [ourKeys, theirKeys], label: "the merge base", preferringKnownKeys: true)
        }
        for side in [ours, theirs] + (base.map { [$0] } ?? []) where side.file.version < VaultFile.version {
            throw VaultError.upgradeNeeded(path: location.path, byOwner: true, inGitWorkTree: true)
        }
        // Key epochs only rise: a side below its own merge base (or below the pinned minimum) was rolled back.
        for (side, label) in [(ours, ourLabel), (theirs, theirLabel)] {
            let floor = max(base?.file.keyEpoch ?? 0, minimumEpoch ?? 0)
            if side.file.keyEpoch < floor { throw VaultError.rolledBack(path: label, found: side.file.keyEpoch, expected: floor) }
        }
        // The side at the higher key epoch; at one epoch (two clones each raised it once), theirs when its
        // removal record already holds ours (so the result needs no new one, which only the owner can vouch for).
        let ourRemovals = try ours.removalRecord(), theirRemovals = try theirs.removalRecord()
        let theirsHoldsOurs = theirRemovals.merged(with: ourRemovals) == theirRemovals && ourRemovals.merged(with: theirRemovals) != ourRemovals
        let targetSide: MergeSide = theirs.file.keyEpoch != ours.file.keyEpoch
            ? (theirs.file.keyEpoch > ours.file.keyEpoch ? .theirs : .ours)
            : (theirsHoldsOurs ? .theirs : .ours)
        var result = targetSide == .ours ? ours : theirs
        var other = targetSide == .ours ? theirs : ours
        var baseMembers: [Member] = []
        if var opened = base { baseMembers = try opened.members() }
        let targetMembers = try result.members()
        let otherMembers = try other.members()

        // Removals are taken from each side's removal record, which the trust key vouches for (a roster a
        // member shrank in its own build, or one from an old copy, removes nobody), whichever base git chose.
        let (targetRemovals, otherRemovals) = targetSide == .ours ? (ourRemovals, theirRemovals) : (theirRemovals, ourRemovals)
        let removals = targetRemovals.merged(with: otherRemovals)
        var superseded: [MergeSide: Set<AccessGroup>?] = [targetSide: [], targetSide.other: []]
        for (side, vault, members, othersRemovals) in [(targetSide, result, targetMembers, otherRemovals),
                                                       (targetSide.other, other, otherMembers, targetRemovals)] {
            // A side from before a removal on the other side may hold the removed member's changes, whatever
            // its roster now says: all of it is kept as conflicts. So is what a side still holding a member the
            // other side removed changed in the groups that member could write (every group, for a full member).
            if vault.file.keyEpoch < othersRemovals.lastRemovalEpoch {
                superseded[side] = .some(nil)
                continue
            }
            for member in members where othersRemovals.isRemoved(member.recipient) && removals.isRemoved(member.recipient) {
                switch member.scope {
                case .full: superseded[side] = .some(nil)
                case .groups(let ids, let readOnly):
                    if !readOnly, let groups = superseded[side] ?? nil {
                        superseded[side] = .some(groups.union(ids.compactMap { vault.keys.groups[$0]?.group }))
                    }
                }
            }
        }
        let merge = VaultMerge(base: try base.map(VaultMerge.Snapshot.init) ?? VaultMerge.Snapshot(),
                               target: try VaultMerge.Snapshot(result), other: try VaultMerge.Snapshot(other),
                               targetSide: targetSide, origins: [.ours: origins.ours, .theirs: origins.theirs],
                               supersededGroups: superseded)
        var report = MergeReport()
        let changes = try merge.apply(to: &result)
        report.applied = changes.applied
        report.conflicts = changes.conflicts
        // A side whose every change is kept as a conflict (from before a removal here, or still holding a full
        // member removed here) adds no member either: the removed member could be one of them, or have added them.
        if case .some(.none) = superseded[targetSide.other] {
            for member in otherMembers where !baseMembers.contains(where: { $0.name == member.name })
                && !targetMembers.contains(where: { $0.name == member.name }) {
                report.membersNotAdded.append((member.name, "added on a side a removed member could have written; add it again if it is wanted"))
            }
        } else {
            try addMembers(otherMembers.filter { !removals.isRemoved($0.recipient) }, of: other, notIn: targetMembers,
                           orBase: baseMembers, to: &result, report: &report)
        }
        if case .some(.none) = superseded[targetSide] {
            // The side written on is one a removed member could have written: members it dropped without a
            // removal the trust key vouched for come back from the other side.
            let dropped = otherMembers.filter { member in
                baseMembers.contains { $0.recipient == member.recipient } && !targetMembers.contains { $0.recipient == member.recipient }
                    && !removals.isRemoved(member.recipient)
            }
            try addMembers(dropped, of: other, notIn: targetMembers, orBase: [], to: &result, report: &report)
        }
        if removals != targetRemovals {
            // A changed record is vouched for at a new key epoch, as a removal or an adding back is: no two
            // files at one epoch hold different records (the owner's trust key signs it; a member's merge cannot).
            result.removals = removals
            result.removalsStale = true
            result.file.keyEpoch += 1
        }

        var followUp = FollowUp()
        followUp.removedMembers = targetMembers.filter { removals.isRemoved($0.recipient) }.map(\.name)
        // When the side written on is the one whose every change is kept as a conflict, the members it added
        // (by recipient: in neither the base nor the other side, whatever their names) go too: the removed
        // member could have added them.
        if case .some(.none) = superseded[targetSide] {
            followUp.removedMembers += targetMembers.filter { member in
                !followUp.removedMembers.contains(member.name) && !baseMembers.contains { $0.recipient == member.recipient }
                    && !otherMembers.contains { $0.recipient == member.recipient }
            }.map(\.name)
        }
        // A trust key replaced on the other side only (`vault rekey`, a rotating `passwd`) is the one
        // kept: the old one may be what that re-key meant to retire.
        if let base, other.file.trustPublicKey != result.file.trustPublicKey, result.file.trustPublicKey == base.file.trustPublicKey {
            try other.unwrapTrustKey()
            if let otherTrustKey = other.trustKey {
                result.trustKey = otherTrustKey
                result.file.trustPublicKey = other.file.trustPublicKey
            }
        }
        // A side re-keyed when its wrap key is not the base's (the wrap key changes with the master key); its
        // re-key and revokes are made again only when its key epoch rose since the base, which the trust key vouches for.
        if let base, let baseKey = base.keys.wrapKey, other.file.keyEpoch > base.file.keyEpoch {
            let otherKey = other.keys.wrapKey, targetKey = result.keys.wrapKey
            followUp.rekey = !Vault.sameKey(otherKey, baseKey) && !Vault.sameKey(otherKey, targetKey)
            if Vault.sameKey(otherKey, baseKey) && Vault.sameKey(targetKey, baseKey) {
                followUp.revokedGroups = Self.groupsRevoked(by: other, notBy: result, since: base)
            }
        }
        // Keyslots the other side added under the same master key carry over as they are; one it dropped is
        // kept (a full member can drop the owner's keyslots from a header, never make one: that takes the master key).
        if let base, Vault.sameKey(other.keys.wrapKey, result.keys.wrapKey) {
            for slot in other.file.keyslots where !base.file.keyslots.contains(slot) && !result.file.keyslots.contains(slot)
                && result.file.keyslots.count < VaultFile.maxKeyslots {
                result.file.keyslots.append(slot)
            }
        }

        // The larger counters of the two sides; writing raises them once more.
        result.file.writeGeneration = max(ours.file.writeGeneration, theirs.file.writeGeneration)
        for slot in result.file.groups.indices {
            let id = result.file.groups[slot].groupID
            if let otherSlot = other.file.groups.firstIndex(where: { $0.groupID == id }) {
                result.file.sections[slot].generation = max(result.file.sections[slot].generation, other.file.sections[otherSlot].generation)
            }
        }
        try commit(&result)
        report.keyEpoch = result.file.keyEpoch
        return (report, followUp)
    }

    /// Members the other side added (in neither the target nor the base), sealed to the result's keys.
    private func addMembers(_ otherMembers: [Member], of other: OpenVault, notIn targetMembers: [Member], orBase baseMembers: [Member],
                            to result: inout OpenVault, report: inout MergeReport) throws {
        for member in otherMembers where !baseMembers.contains(where: { $0.name == member.name }) {
            if let here = targetMembers.first(where: { $0.name == member.name }) {
                if here.recipient != member.recipient {
                    report.membersNotAdded.append((member.name, "a member of that name with another recipient was added on this side"))
                }
                continue
            }
            do {
                var groups: [AccessGroup] = []
                var readOnly = false
                if case .groups(let ids, let flag) = member.scope {
                    groups = ids.compactMap { other.keys.groups[$0]?.group }
                    readOnly = flag
                    for group in groups { _ = try result.groupID(for: group, creating: true) }
                }
                _ = try result.addMember(name: member.name, recipient: member.recipient, groups: groups, readOnly: readOnly,
                                         addedAt: Date(timeIntervalSince1970: Double(member.addedAt) / 1000))
                report.membersAdded.append(member.name)
            } catch let error as VaultError {
                guard case .invalidValue(_, let detail) = error else { throw error }
                report.membersNotAdded.append((member.name, detail))
            }
        }
    }

    /// Groups whose key `other` replaced since `base` (a revoke: the key check changed) and `result` did not.
    private static func groupsRevoked(by other: OpenVault, notBy result: OpenVault, since base: OpenVault) -> [AccessGroup] {
        base.file.groups.compactMap { entry in
            guard let theirs = other.file.groups.first(where: { $0.groupID == entry.groupID }),
                  let ours = result.file.groups.first(where: { $0.groupID == entry.groupID }),
                  theirs.keyCheck != entry.keyCheck, ours.keyCheck == entry.keyCheck else { return nil }
            return base.keys.groups[entry.groupID]?.group
        }
    }

    private static func sameKey(_ a: SecretBytes?, _ b: SecretBytes?) -> Bool {
        guard let a, let b else { return false }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in constantTimeEquals(Array(x), Array(y)) } }
    }

    /// One side of a merge opened with the keys at hand, or with the full keys another side gave
    /// (unchanged keys are the same on both). What the keys at hand open is checked against the
    /// pinned trust fingerprint when they are an identity, as every read is; what the keys of a side
    /// already checked open is vouched for by their header MAC. The base tries those keys first
    /// (`preferringKnownKeys`): it is an older file, often under keys since replaced.
    private func openMergeInput(_ bytes: FileBytes, knownKeys: [KeyRing.FullKeys], label: String,
                                preferringKnownKeys: Bool = false) throws -> OpenVault {
        let deviceKey = try deviceKeyForReading(bytes, vaultID: VaultFile.peekVaultID(bytes))
        func withKnownKey() -> OpenVault? {
            knownKeys.lazy.compactMap { try? OpenVault.open(bytes, fullKeys: $0, deviceKey: deviceKey, path: label) }.first
        }
        if preferringKnownKeys, let vault = withKnownKey() { return vault }
        do {
            let vault = try openWithKeysAtHand(bytes, deviceKey: deviceKey, label: label)
            try checkTrust(of: vault, path: label)
            return vault
        } catch let error as VaultError {
            guard !preferringKnownKeys, let vault = withKnownKey() else { throw error }
            return vault
        }
    }

    private func openWithKeysAtHand(_ bytes: FileBytes, deviceKey: SecretBytes?, label: String) throws -> OpenVault {
        switch source {
        case .credential(let secret):
            return try OpenVault.unlock(bytes, secret: secret, deviceKey: deviceKey, path: label)
        case .session(let token):
            let session = try SessionCache.open(token: token, vaultID: VaultFile.peekVaultID(bytes), host: host)
            do {
                return try OpenVault.open(bytes, masterKey: session.masterKey, deviceKey: deviceKey, path: label)
            } catch VaultError.corrupted(_, let detail) where detail == OpenVault.headerMACMismatch {
                throw VaultError.sessionEnded(.rekeyed)
            }
        case .identity(let identities):
            return try OpenVault.open(bytes, identities: identities, deviceKey: deviceKey, path: label)
        case .scoped, .none:
            throw VaultError.locked(nil)
        }
    }

    /// The bytes of a side of a merge that git gave as a file (`%O`, `%B`): a temporary file git
    /// made, so not held to the vault file's permission checks. Throws `noSuchFile` when missing.
    public static func readMergeSide(at path: String) throws -> [UInt8] {
        try FileSystem.read(path, kind: .mergeSide, requirePrivate: false)
    }

    // MARK: conflicts

    /// Every item the keys at hand can read that a merge left in conflict, by its newest conflict.
    public func conflicts() throws -> [ConflictSummary] {
        try withKeys {
            let vault = try readSnapshot()
            var found: [ConflictSummary] = []
            for position in try vault.positions(matching: Query(), skipLocked: true) {
                let record = try vault.openWholeRecord(at: position)
                guard let newest = record.conflicts.first else { continue }
                found.append(ConflictSummary(attributes: record.item.attributes, currentSide: newest.currentSide,
                                             other: newest.other?.attributes, origin: newest.origin, olderVersions: record.conflicts.count - 1))
            }
            return found
        }
    }

    /// The other version of the one item that matches `query`: that of its conflict number
    /// `conflict` (1 is the newest), or when none is given of its newest conflict that holds one (a
    /// newer conflict may record a deletion). Throws `noConflict` when it has none (or fewer than
    /// `conflict`), and `otherSideDeleted` when the conflict asked for, or each, records a deletion.
    public func otherVersion(matching query: Query, conflict number: Int? = nil) throws -> (item: Item, conflict: ItemConflict) {
        try checkScope(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
            let record = try vault.openWholeRecord(at: position)
            let key = record.item.attributes.key
            guard let newest = record.conflicts.first else { throw VaultError.noConflict(key) }
            if let number {
                guard number <= record.conflicts.count else { throw VaultError.noConflictNumber(key, requested: number, count: record.conflicts.count) }
                let conflict = record.conflicts[number - 1]
                guard let other = conflict.other else { throw VaultError.otherSideDeleted(key, current: conflict.currentSide) }
                return (other, conflict)
            }
            guard let conflict = record.conflicts.first(where: { $0.other != nil }), let other = conflict.other else {
                throw VaultError.otherSideDeleted(key, current: newest.currentSide)
            }
            return (other, conflict)
        }
    }

    /// Settles the newest conflict of the one item that matches `query` with `side`'s version:
    /// its current one (the conflicts go), the other side's (which replaces it), or, when the
    /// chosen side had deleted the item, none. Throws `noConflict` when it has none.
    @discardableResult
    public func resolve(matching query: Query, keeping side: MergeSide) throws -> Resolution {
        try checkScope(query.group, writing: true)
        return try transaction { vault in
            let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
            var record = try vault.openWholeRecord(at: position)
            guard let conflict = record.conflicts.first else { throw VaultError.noConflict(record.item.attributes.key) }
            record.conflicts = []
            if side == conflict.currentSide {
                try vault.store(record, replacing: position)
                return .kept(record.item.attributes)
            }
            guard let chosen = conflict.other else {
                vault.remove(at: [position])
                return .deleted(record.item.attributes)
            }
            if chosen.attributes.key != record.item.attributes.key,
               try vault.positions(matching: Query(service: chosen.attributes.service, account: chosen.attributes.account,
                                                   group: chosen.attributes.group)).contains(where: { $0 != position }) {
                throw VaultError.duplicateItem(chosen.attributes.key)
            }
            record.item = chosen
            try vault.store(record, replacing: position)
            return .kept(chosen.attributes)
        }
    }
}
