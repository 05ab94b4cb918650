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
    /// Whether the result was re-keyed once more because both sides had re-keyed.
    public var rekeyed = false
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
        var report = MergeReport()
        var followUp: (removed: [String], rekey: Bool) = ([], false)
        try withWriterLock {
            try withKeys {
                (report, followUp) = try mergeInPlace(base: base, ours: ours, theirs: theirs, origins: origins)
            }
        }
        var rekeyedWhole = false
        for name in followUp.removed {
            let removal = try removeMember(named: name, kdf: kdf, confirm: confirm)
            report.membersRemoved.append(name)
            report.keyEpoch = removal.keyEpoch
            rekeyedWhole = rekeyedWhole || removal.rekey != nil
        }
        if followUp.rekey && !rekeyedWhole {
            report.keyEpoch = try rekey(kdf: kdf, confirm: confirm).keyEpoch
        }
        report.rekeyed = followUp.rekey
        return report
    }

    private func mergeInPlace(base baseBytes: [UInt8]?, ours ourBytes: [UInt8]?, theirs theirBytes: [UInt8],
                              origins: (ours: String, theirs: String)) throws -> (MergeReport, (removed: [String], rekey: Bool)) {
        let ours = try openMergeInput(try ourBytes.map(FileBytes.init) ?? readFile(), knownMasterKeys: [], trusted: true)
        guard let ourKey = ours.keys.masterKey else { throw VaultError.ownerOnly(action: "merge the vault") }
        let theirBytes = FileBytes(theirBytes)
        guard VaultFile.peekVaultID(theirBytes) == ours.file.vaultID else { throw VaultError.mergeOfAnotherVault(path: location.path) }
        let theirs = try openMergeInput(theirBytes, knownMasterKeys: [ourKey], trusted: true)
        guard let theirKey = theirs.keys.masterKey else { throw VaultError.ownerOnly(action: "merge the vault") }
        // A base of another vault (or none: git's empty file on add/add) is no base: every difference is then a change.
        var base: OpenVault?
        if let baseBytes, !baseBytes.isEmpty, VaultFile.peekVaultID(FileBytes(baseBytes)) == ours.file.vaultID {
            base = try openMergeInput(FileBytes(baseBytes), knownMasterKeys: [ourKey, theirKey], trusted: false)
        }
        for side in [ours, theirs] + (base.map { [$0] } ?? []) where side.file.version < VaultFile.version {
            throw VaultError.upgradeNeeded(path: location.path, byOwner: true, inGitWorkTree: true)
        }
        let targetSide: MergeSide = theirs.file.keyEpoch > ours.file.keyEpoch ? .theirs : .ours
        var result = targetSide == .ours ? ours : theirs
        var other = targetSide == .ours ? theirs : ours
        var baseMembers: [Member] = []
        if var opened = base { baseMembers = try opened.members() }
        let targetMembers = try result.members()
        let otherMembers = try other.members()

        let merge = VaultMerge(base: try base.map(VaultMerge.Snapshot.init) ?? VaultMerge.Snapshot(),
                               target: try VaultMerge.Snapshot(result), other: try VaultMerge.Snapshot(other),
                               targetSide: targetSide, origins: [.ours: origins.ours, .theirs: origins.theirs],
                               supersededGroups: supersededGroups(base: base, baseMembers: baseMembers, target: result,
                                                                  targetMembers: targetMembers, other: other))
        var report = MergeReport()
        let changes = try merge.apply(to: &result)
        report.applied = changes.applied
        report.conflicts = changes.conflicts

        let baseNames = Set(baseMembers.map(\.name))
        for member in otherMembers where !targetMembers.contains(where: { $0.name == member.name }) && !baseNames.contains(member.name) {
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
        let removedThere = targetMembers.filter { member in
            baseNames.contains(member.name) && !otherMembers.contains { $0.name == member.name }
        }.map(\.name)

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
        let bothRekeyed = base.map { base in
            !Vault.sameKey(base.keys.masterKey, ourKey) && !Vault.sameKey(base.keys.masterKey, theirKey) && !Vault.sameKey(ourKey, theirKey)
        } ?? false
        return (report, (removedThere, bothRekeyed))
    }

    /// The groups whose changes from the side at the lower key epoch are kept as conflicts: those a
    /// member removed on the other side since the base could write (every group for a full member).
    private func supersededGroups(base: OpenVault?, baseMembers: [Member], target: OpenVault, targetMembers: [Member],
                                  other: OpenVault) -> Set<AccessGroup>? {
        guard let base, other.file.keyEpoch < target.file.keyEpoch else { return [] }
        var groups = Set<AccessGroup>()
        for member in baseMembers where !targetMembers.contains(where: { $0.recipient == member.recipient }) {
            switch member.scope {
            case .full: return nil
            case .groups(let ids, let readOnly):
                if !readOnly { groups.formUnion(ids.compactMap { base.keys.groups[$0]?.group }) }
            }
        }
        return groups
    }

    private static func sameKey(_ a: SecretBytes?, _ b: SecretBytes?) -> Bool {
        guard let a, let b else { return false }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in constantTimeEquals(Array(x), Array(y)) } }
    }

    /// One side of a merge opened with the keys at hand, or with a master key another side gave
    /// (an unchanged master key is the same on both); `trusted` sides are checked against the
    /// pinned trust fingerprint when the keys are an identity, as every read is.
    private func openMergeInput(_ bytes: FileBytes, knownMasterKeys: [SecretBytes], trusted: Bool) throws -> OpenVault {
        let deviceKey = try deviceKeyForReading(bytes, vaultID: VaultFile.peekVaultID(bytes))
        let vault: OpenVault
        do {
            vault = try openWithKeysAtHand(bytes, deviceKey: deviceKey)
        } catch let error as VaultError {
            guard let opened = knownMasterKeys.lazy.compactMap({
                try? OpenVault.open(bytes, masterKey: $0, deviceKey: deviceKey, path: self.location.path)
            }).first else { throw error }
            vault = opened
        }
        if trusted { try checkTrust(of: vault) }
        return vault
    }

    private func openWithKeysAtHand(_ bytes: FileBytes, deviceKey: SecretBytes?) throws -> OpenVault {
        switch source {
        case .credential(let secret):
            return try OpenVault.unlock(bytes, secret: secret, deviceKey: deviceKey, path: location.path)
        case .session(let token):
            let session = try SessionCache.open(token: token, vaultID: VaultFile.peekVaultID(bytes), host: host)
            do {
                return try OpenVault.open(bytes, masterKey: session.masterKey, deviceKey: deviceKey, path: location.path)
            } catch VaultError.corrupted(_, let detail) where detail == OpenVault.headerMACMismatch {
                throw VaultError.sessionEnded(.rekeyed)
            }
        case .identity(let identities):
            return try OpenVault.open(bytes, identities: identities, deviceKey: deviceKey, path: location.path)
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

    /// The other side's version of the one item that matches `query`, from its newest conflict.
    /// Throws `noConflict` when it has none, or when the other side deleted it.
    public func otherVersion(matching query: Query) throws -> (item: Item, conflict: ItemConflict) {
        try checkScope(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
            let record = try vault.openWholeRecord(at: position)
            guard let conflict = record.conflicts.first else { throw VaultError.noConflict(record.item.attributes.key) }
            guard let other = conflict.other else { throw VaultError.otherSideDeleted(record.item.attributes.key, current: conflict.currentSide) }
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
