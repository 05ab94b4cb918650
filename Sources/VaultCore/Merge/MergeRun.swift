import FoundationEssentials
import VaultCrypto

/// A merge of two opened versions of the vault file, record by record against their merge base, in
/// memory (docs/TEAMS.md, "How a merge works"): the team logs decide the members and keys of the
/// result — the descendant's, or the owner's join of diverged logs, re-keying what a removal on
/// either branch needs — then the items are merged and the counters carried over. `Vault.merge`
/// opens the sides under the writer lock, runs this and writes the result.
struct MergeRun {
    /// How the merge names each side for the conflicts it leaves.
    let origins: (ours: String, theirs: String)
    let kdf: Scrypt.Parameters
    let configuration: Vault.Configuration
    let host: HostContext
    /// The vault file's path, named by refusals.
    let path: String
    /// Whether ours was read with a device key from a git work tree (`Rekey.readWithExposedDeviceKey`).
    let readWithExposedDeviceKey: Bool
    /// The passphrase or key file at hand, for a re-key the join needs (asked for when it is not).
    let unlockSecret: () throws -> UnlockSecret

    /// The merged working copy to write, what the merge did, and whether a new device key was made pending.
    struct Outcome {
        var result: WorkingCopy
        var report: MergeReport
        var movedDeviceKey: Bool
    }

    /// Merges `theirs` into `ours` against `base` (nil when there is none). Needs the full keys of
    /// both sides. `confirm` is shown what a re-key the join needs drops, and may throw to change nothing.
    func run(ours: WorkingCopy, theirs: WorkingCopy, base: Snapshot?, confirm: (RekeyPlan) throws -> Void) throws -> Outcome {
        var ours = ours, theirs = theirs
        for version in [ours.file.version, theirs.file.version] + (base.map { [$0.file.version] } ?? []) where version < 2 {
            throw VaultError.upgradeNeeded(path: path, byOwner: true, inGitWorkTree: true)
        }
        // Key epochs only rise: a side below its own merge base (or below the pinned minimum) was rolled back.
        for (vault, side) in [(ours, MergeSide.ours), (theirs, .theirs)] {
            let floor = max(base?.file.keyEpoch ?? 0, configuration.minimumEpoch ?? 0)
            if vault.file.keyEpoch < floor {
                throw VaultError.mergeInput(
                    MergeInput(side, origins: origins),
                    refusal: .rolledBack(path: path, found: vault.file.keyEpoch, expected: floor))
            }
        }
        let isOwner = ours.keys.isOwners
        let plan = try MergePlan(ours: &ours, theirs: &theirs)
        if plan.needsJoin {
            guard isOwner else { throw VaultError.onlyOwnerJoins }
            try configuration.review(TeamLogReview(reason: .join, entries: try plan.entriesToReview()))
        }

        var result = plan.target == .ours ? ours : theirs
        var other = plan.target == .ours ? theirs : ours
        // Groups only the other side has keep their ids, which the team log's scopes name; a group
        // either log deleted does not come back.
        let deletedGroups = try plan.deletedGroups()
        for (id, keys) in other.keys.groups
        where result.keys.groupID(of: keys.group) == nil && result.keys.groups[id] == nil
            && !deletedGroups.contains(id)
        {
            try result.addGroup(keys.group, id: id, generation: 0)
        }
        let merge = VaultMerge(
            base: try base.map { try VaultMerge.SideItems($0, of: .base, leavingOut: deletedGroups) } ?? VaultMerge.SideItems(),
            target: try VaultMerge.SideItems(Snapshot(result), of: MergeInput(plan.target, origins: origins), leavingOut: deletedGroups),
            other: try VaultMerge.SideItems(
                Snapshot(other), of: MergeInput(plan.target.other, origins: origins), leavingOut: deletedGroups),
            targetSide: plan.target, origins: [.ours: origins.ours, .theirs: origins.theirs],
            supersededGroups: try plan.supersededGroups())
        var report = MergeReport()
        let changes = try merge.apply(to: &result)
        report.applied = changes.applied
        report.conflicts = changes.conflicts
        report.droppedConflictVersions = changes.droppedVersions

        // A result of the layout before the team log: the owner's merge converts it (its members shown first).
        if isOwner, let converted = try result.convertToTeamLog() {
            try configuration.review(
                .conversion(of: converted, unvouched: WrittenRoster.unvouched(converted, vaultID: result.file.vaultID, host: host)))
        }
        var movedDeviceKey = false
        if plan.needsJoin {
            movedDeviceKey = try join(plan, into: &result, other: &other, confirm: confirm, report: &report)
        }
        carryKeyslots(from: other, to: &result, base: base)
        // The larger counters of the two sides; writing raises them once more.
        result.file.writeGeneration = max(ours.file.writeGeneration, theirs.file.writeGeneration)
        for slot in result.file.groups.indices {
            let id = result.file.groups[slot].groupID
            if let otherSlot = other.file.groups.firstIndex(where: { $0.groupID == id }) {
                result.file.sections[slot].generation = max(
                    result.file.sections[slot].generation, other.file.sections[otherSlot].generation)
            }
        }
        try describe(result, against: &ours, in: &report)
        return Outcome(result: result, report: report, movedDeviceKey: movedDeviceKey)
    }

    /// The owner's join of two diverged logs, in `result` (the target): the join entry, then what
    /// the join's members and the other branch's key changes demand of the keys, in memory — a member
    /// gone that held the master key, or a re-key on the other branch, re-keys the whole vault
    /// (`confirm` shown what that drops; the passphrase or a key file needed); a scoped member gone,
    /// or a revoke on the other branch, gives those groups fresh keys. Returns whether a new device
    /// key was made pending.
    private func join(
        _ plan: MergePlan, into result: inout WorkingCopy, other: inout WorkingCopy, confirm: (RekeyPlan) throws -> Void,
        report: inout MergeReport
    ) throws -> Bool {
        let join = try plan.join()
        let before = try result.members()
        try result.adopt(join.log)
        report.joinedLogs = true
        report.membersLeftOut = join.leftOut
        let after = try result.members()
        let gone = before.filter { member in !after.contains { $0.recipient == member.recipient } }
        let otherBranch = try plan.otherBranchChanges()
        // A trust key replaced on the other branch only is the one kept: the old one may be what that re-key meant to retire.
        if otherBranch.contains(.rekeyed(trustKeyReplaced: true)), other.file.trustPublicKey != result.file.trustPublicKey {
            try other.unwrapTrustKey()
            if let otherTrustKey = other.trustKey {
                result.trustKey = otherTrustKey
                result.file.trustPublicKey = other.file.trustPublicKey
            }
        }
        let needsRekey =
            gone.contains { $0.scope == .full } || otherBranch.contains { if case .rekeyed = $0 { return true } else { return false } }
        if needsRekey {
            let rekey = Rekey(
                secret: try unlockSecret(), kdf: kdf, keepingTrustKey: true,
                readWithExposedDeviceKey: readWithExposedDeviceKey, host: host)
            let (_, moved) = try rekey.run(on: &result, confirm: confirm)
            report.rekeyed = true
            return moved
        }
        var groups = Set<GroupID>()
        for member in gone { if case .groups(let ids, _) = member.scope { groups.formUnion(ids) } }
        for change in otherBranch { if case .groupKeyReplaced(let id) = change { groups.insert(id) } }
        for id in groups.sorted(by: { $0.rawValue < $1.rawValue }) where result.keys.groups[id] != nil {
            _ = try result.rotateGroupKey(id, progress: configuration.progress)
        }
        return false
    }

    /// Keyslots the other side added under the same master key carry over as they are; one it dropped is
    /// kept (a full member can drop the owner's keyslots from a header, never make one: that takes the master key).
    private func carryKeyslots(from other: WorkingCopy, to result: inout WorkingCopy, base: Snapshot?) {
        guard let base, MergeRun.sameKey(other.keys.wrapKey, result.keys.wrapKey) else { return }
        for slot in other.file.keyslots
        where !base.file.keyslots.contains(slot) && !result.file.keyslots.contains(slot)
            && result.file.keyslots.count < VaultFile.maxKeyslots
        {
            result.file.keyslots.append(slot)
        }
    }

    /// The report's lines on members and keys: what the result changed against ours.
    private func describe(_ result: WorkingCopy, against ours: inout WorkingCopy, in report: inout MergeReport) throws {
        let before = try ours.members(), after = try result.readMembers()
        report.membersAdded = after.filter { member in !before.contains { $0.recipient == member.recipient } }.map(\.name)
        report.membersRemoved = before.filter { member in !after.contains { $0.recipient == member.recipient } }.map(\.name)
        if !MergeRun.sameKey(ours.keys.wrapKey, result.keys.wrapKey) { report.rekeyed = true }
        if !report.rekeyed {
            report.groupsRevoked = ours.file.groups.compactMap { entry in
                guard let now = result.file.groups.first(where: { $0.groupID == entry.groupID }), now.keyCheck != entry.keyCheck else {
                    return nil
                }
                return result.keys.groups[entry.groupID]?.group
            }
        }
    }

    /// Whether both sides hold a wrap key and it is the same (compared in constant time, uncopied).
    private static func sameKey(_ a: WrapKey?, _ b: WrapKey?) -> Bool {
        guard let a, let b else { return false }
        return a == b
    }
}
