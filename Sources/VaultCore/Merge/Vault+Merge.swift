import FoundationEssentials
import VaultCrypto

/// What `merge` did.
public struct MergeReport: Sendable {
    /// Changes of the other side taken in as they were.
    public var applied = 0
    /// Items this merge left in conflict (both versions kept: `vault conflicts`).
    public var conflicts: [ItemKey] = []
    /// Members the result has that ours did not.
    public var membersAdded: [String] = []
    /// Members ours had that the result does not (what they could open was re-keyed).
    public var membersRemoved: [String] = []
    /// Members two diverged team logs defined differently, left out of the join: add them again if wanted.
    public var membersLeftOut: [String] = []
    /// Whether the result is under keys ours did not have (a re-key on the other side, or made by this merge).
    public var rekeyed = false
    /// Groups whose key the result replaced since ours.
    public var groupsRevoked: [AccessGroup] = []
    /// Whether the owner joined two diverged team logs.
    public var joinedLogs = false
    /// The key epoch of the result.
    public var keyEpoch: UInt64 = 0
    /// Items in conflict whose other version lived in a group a team log deleted: it went with the group.
    public var droppedConflictVersions: [ItemKey] = []
}

/// Merging two versions of the vault file record by record against their merge base, in one
/// write (docs/TEAMS.md, "How a merge works").
extension Vault {
    /// Merges `theirs` into `ours` (nil: the vault file at this location), against `base` (their
    /// merge base; nil or empty when there is none, as git gives on add/add), and writes the result
    /// here in one write. Needs keys that open both sides whole: the owner's or a full member's.
    /// The team logs decide the members and keys of the result: when one descends from the other,
    /// the descendant's; when they diverged, only the owner joins them (`reviewTeamLog` shown the
    /// other branch's entries first), re-keying in the same write what a removal on either branch
    /// needs (`confirm` shown what that drops). `origins` name each side for the conflicts it leaves.
    /// Nothing of either side is recorded as seen: git may abort the merge and put the older file back.
    public func merge(base: [UInt8]?, ours: [UInt8]? = nil, theirs: [UInt8], origins: (ours: String, theirs: String),
                      kdf: Scrypt.Parameters = .interactive, confirm: (RekeyPlan) throws -> Void) throws -> MergeReport {
        try requireOwner(.mergeVault)
        var report = MergeReport()
        var movedDeviceKey = false
        var masterKey: MasterKey?
        try withWriterLock {
            try withKeys {
                (report, movedDeviceKey, masterKey) = try mergeInOneWrite(base: base, ours: ours, theirs: theirs, origins: origins, kdf: kdf,
                                                                          confirm: confirm)
            }
        }
        if report.rekeyed { _ = try finishRekey(movedDeviceKey: movedDeviceKey, masterKey: masterKey) }
        return report
    }

    private func mergeInOneWrite(base baseBytes: [UInt8]?, ours ourBytes: [UInt8]?, theirs theirBytes: [UInt8],
                                 origins: (ours: String, theirs: String), kdf: Scrypt.Parameters,
                                 confirm: (RekeyPlan) throws -> Void) throws -> (MergeReport, movedDeviceKey: Bool, masterKey: MasterKey?) {
        var ours = WorkingCopy(try openMergeInput(try ourBytes.map(FileBytes.init) ?? readFile(), knownKeys: [], as: MergeInput(.ours, origins: origins)))
        guard let ourKeys = ours.keys.fullKeys else { throw VaultError.ownerOnly(.mergeVault) }
        let theirBytes = FileBytes(theirBytes)
        guard VaultFile.peekVaultID(theirBytes) == ours.file.vaultID else { throw VaultError.mergeOfAnotherVault(path: location.path) }
        var theirs = WorkingCopy(try openMergeInput(theirBytes, knownKeys: [ourKeys], as: MergeInput(.theirs, origins: origins)))
        guard let theirKeys = theirs.keys.fullKeys else { throw VaultError.ownerOnly(.mergeVault) }
        // A base of another vault (or none: git's empty file on add/add) is no base: every difference is then a change.
        var base: Snapshot?
        if let baseBytes, !baseBytes.isEmpty, VaultFile.peekVaultID(FileBytes(baseBytes)) == ours.file.vaultID {
            base = try openMergeInput(FileBytes(baseBytes), knownKeys: [ourKeys, theirKeys], as: .base, preferringKnownKeys: true)
        }
        for version in [ours.file.version, theirs.file.version] + (base.map { [$0.file.version] } ?? []) where version < 2 {
            throw VaultError.upgradeNeeded(path: location.path, byOwner: true, inGitWorkTree: true)
        }
        // Key epochs only rise: a side below its own merge base (or below the pinned minimum) was rolled back.
        for (vault, side) in [(ours, MergeSide.ours), (theirs, .theirs)] {
            let floor = max(base?.file.keyEpoch ?? 0, configuration.minimumEpoch ?? 0)
            if vault.file.keyEpoch < floor {
                throw VaultError.mergeInput(MergeInput(side, origins: origins),
                                            refusal: .rolledBack(path: location.path, found: vault.file.keyEpoch, expected: floor))
            }
        }
        let isOwner = ours.keys.masterKey != nil
        let plan = try MergePlan(ours: &ours, theirs: &theirs)
        if plan.needsJoin {
            guard isOwner else { throw VaultError.onlyOwnerJoins }
            try review(TeamLogReview(reason: .join, entries: try plan.entriesToReview()))
        }

        var result = plan.target == .ours ? ours : theirs
        var other = plan.target == .ours ? theirs : ours
        // Groups only the other side has keep their ids, which the team log's scopes name; a group
        // either log deleted does not come back.
        let deletedGroups = try plan.deletedGroups()
        for (id, keys) in other.keys.groups where result.keys.groupID(of: keys.group) == nil && result.keys.groups[id] == nil
            && !deletedGroups.contains(id) {
            try result.addGroup(keys.group, id: id, generation: 0)
        }
        let merge = VaultMerge(base: try base.map { try VaultMerge.SideItems($0, of: .base, leavingOut: deletedGroups) } ?? VaultMerge.SideItems(),
                               target: try VaultMerge.SideItems(Snapshot(result), of: MergeInput(plan.target, origins: origins), leavingOut: deletedGroups),
                               other: try VaultMerge.SideItems(Snapshot(other), of: MergeInput(plan.target.other, origins: origins), leavingOut: deletedGroups),
                               targetSide: plan.target, origins: [.ours: origins.ours, .theirs: origins.theirs],
                               supersededGroups: try plan.supersededGroups())
        var report = MergeReport()
        let changes = try merge.apply(to: &result)
        report.applied = changes.applied
        report.conflicts = changes.conflicts
        report.droppedConflictVersions = changes.droppedVersions

        // A result of the layout before the team log: the owner's merge converts it (its members shown first).
        if isOwner, let converted = try result.convertToTeamLog() {
            try review(.conversion(of: converted, unvouched: WrittenRoster.unvouched(converted, vaultID: result.file.vaultID, host: host)))
        }
        var movedDeviceKey = false
        if plan.needsJoin {
            movedDeviceKey = try join(plan, into: &result, other: &other, kdf: kdf, confirm: confirm, report: &report)
        }
        carryKeyslots(from: other, to: &result, base: base)
        // The larger counters of the two sides; writing raises them once more.
        result.file.writeGeneration = max(ours.file.writeGeneration, theirs.file.writeGeneration)
        for slot in result.file.groups.indices {
            let id = result.file.groups[slot].groupID
            if let otherSlot = other.file.groups.firstIndex(where: { $0.groupID == id }) {
                result.file.sections[slot].generation = max(result.file.sections[slot].generation, other.file.sections[otherSlot].generation)
            }
        }
        try describe(result, against: &ours, in: &report)
        try commit(&result, as: .merge)
        report.keyEpoch = result.file.keyEpoch
        return (report, movedDeviceKey, result.keys.masterKey)
    }

    /// The owner's join of two diverged logs, in `result` (the target): the join entry, then what
    /// the join's members and the other branch's key changes demand of the keys, in memory — a member
    /// gone that held the master key, or a re-key on the other branch, re-keys the whole vault
    /// (`confirm` shown what that drops; the passphrase or a key file needed); a scoped member gone,
    /// or a revoke on the other branch, gives those groups fresh keys. Returns whether a new device
    /// key was made pending.
    private func join(_ plan: MergePlan, into result: inout WorkingCopy, other: inout WorkingCopy, kdf: Scrypt.Parameters,
                      confirm: (RekeyPlan) throws -> Void, report: inout MergeReport) throws -> Bool {
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
        let needsRekey = gone.contains { $0.scope == .full } || otherBranch.contains { if case .rekeyed = $0 { return true } else { return false } }
        if needsRekey {
            let secret = try unlockSecretAtHand()
            let (_, moved) = try rekey(&result, keeping: secret, kdf: kdf, confirm: confirm, keepingTrustKey: true)
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
        guard let base, Vault.sameKey(other.keys.wrapKey, result.keys.wrapKey) else { return }
        for slot in other.file.keyslots where !base.file.keyslots.contains(slot) && !result.file.keyslots.contains(slot)
            && result.file.keyslots.count < VaultFile.maxKeyslots {
            result.file.keyslots.append(slot)
        }
    }

    /// The report's lines on members and keys: what the result changed against ours.
    private func describe(_ result: WorkingCopy, against ours: inout WorkingCopy, in report: inout MergeReport) throws {
        let before = try ours.members(), after = try result.readMembers()
        report.membersAdded = after.filter { member in !before.contains { $0.recipient == member.recipient } }.map(\.name)
        report.membersRemoved = before.filter { member in !after.contains { $0.recipient == member.recipient } }.map(\.name)
        if !Vault.sameKey(ours.keys.wrapKey, result.keys.wrapKey) { report.rekeyed = true }
        if !report.rekeyed {
            report.groupsRevoked = ours.file.groups.compactMap { entry in
                guard let now = result.file.groups.first(where: { $0.groupID == entry.groupID }), now.keyCheck != entry.keyCheck else { return nil }
                return result.keys.groups[entry.groupID]?.group
            }
        }
    }

    /// Shows the owner what it is about to sign (`reviewTeamLog`), unless `acceptTeamLog` says it
    /// was accepted already — and, for a conversion, `acceptedMembers` names every member not as the
    /// owner last wrote it here (`unvouched`). Without either, refuses (`teamLogReviewNeeded`):
    /// nothing is signed unseen.
    func review(_ review: TeamLogReview) throws {
        guard !review.entries.isEmpty else { return }
        if configuration.acceptTeamLog, review.unvouched.allSatisfy(configuration.acceptedMembers.contains) { return }
        guard let reviewTeamLog = configuration.reviewTeamLog else { throw VaultError.teamLogReviewNeeded(review) }
        try reviewTeamLog(review)
    }

    /// Whether both sides hold a wrap key and it is the same (compared in constant time, uncopied).
    static func sameKey(_ a: WrapKey?, _ b: WrapKey?) -> Bool {
        guard let a, let b else { return false }
        return a == b
    }

    /// One side of a merge opened with the keys at hand, or with the full keys another side gave
    /// (unchanged keys are the same on both). What the keys at hand open is checked against the
    /// pinned trust fingerprint when they are an identity, as every read is; what the keys of a side
    /// already checked open is vouched for by their header MAC. The base tries those keys first
    /// (`preferringKnownKeys`): it is an older file, often under keys since replaced. Each side is
    /// a version of the vault file here, so it carries that path; a refusal of it names `input`.
    private func openMergeInput(_ bytes: FileBytes, knownKeys: [KeyRing.FullKeys], as input: MergeInput,
                                preferringKnownKeys: Bool = false) throws -> Snapshot {
        let path = location.path
        return try input.reading {
            let deviceKey = try deviceKeyForReading(bytes, vaultID: VaultFile.peekVaultID(bytes))
            func withKnownKey() -> Snapshot? {
                knownKeys.lazy.compactMap { try? Snapshot.open(bytes, fullKeys: $0, deviceKey: deviceKey, path: path) }.first
            }
            if preferringKnownKeys, let vault = withKnownKey() { return vault }
            do {
                let vault = try openWithKeysAtHand(bytes, deviceKey: deviceKey, path: path)
                try checkTrust(of: vault, path: path)
                return vault
            } catch let error as VaultError {
                guard !preferringKnownKeys, let vault = withKnownKey() else { throw error }
                return vault
            }
        }
    }

    /// A side opened with the keys at hand: a full member's or the owner's; the scoped ones and
    /// none at all ask for more (`withKeys`).
    private func openWithKeysAtHand(_ bytes: FileBytes, deviceKey: DeviceKey?, path: String) throws -> Snapshot {
        let vaultID = VaultFile.peekVaultID(bytes)
        let session = try keysForReading(vaultID: vaultID)
        switch source {
        case .scoped, .none: throw VaultError.locked(nil)
        case .credential, .session, .identity:
            return try openWithKeys(bytes, session: session, deviceKey: deviceKey, vaultID: vaultID, path: path, anyHeaderEndsSession: true)
        }
    }

    /// The bytes of a side of a merge that git gave as a file (`%O`, `%B`): a temporary file git
    /// made, so not held to the vault file's permission checks. Throws `noSuchFile` when missing.
    public static func readMergeSide(at path: String) throws -> [UInt8] {
        try FileSystem.read(path, kind: .mergeSide, requirePrivate: false)
    }
}
