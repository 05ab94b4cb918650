import FoundationEssentials
import VaultCrypto

/// Which keys a re-key for a newcomer renews.
public enum RenewedKeys: Sendable, Equatable {
    /// Every key of the vault (a full member's arrival): every session and every scoped credential ends.
    case vault
    /// The keys of these groups: every credential granted for one of them ends.
    case groups([AccessGroup])
}

/// What a re-key for a newcomer did (`renewKeys`): the newcomer's keys open nothing sealed before it.
public struct KeyRenewal: Sendable, Equatable {
    /// What was re-keyed.
    public let renewed: RenewedKeys
    /// Earlier secrets (revisions) dropped from the items re-keyed (fresh history only).
    public let droppedRevisions: Int
    /// Trash entries of the groups re-keyed purged, each leaving a purge record (fresh history only).
    public let purgedTrash: Int
    /// The key epoch the vault is at now.
    public let keyEpoch: UInt64
}

/// Fresh keys on the way in (docs/TEAMS.md, "Adding a member back" and "Fresh history"): the one
/// path by which `member add` of a member removed earlier, `member add --fresh-history` and
/// `grant --fresh-history` make sure a newcomer opens nothing sealed before it arrived — not in the
/// current file, not in an older copy git keeps, whose keys the re-key retired.
extension Vault {
    /// Re-keys `renewed` — the whole vault (as `rekey`, keeping the trust key, with `confirm` shown
    /// what it drops, needing the passphrase or key file) or the groups given (as `revoke`) — and,
    /// with `freshHistory`, drops their items' revisions and purges their trash (purge records left,
    /// so a merge does not bring it back), in one write. The owner's only. Throws `noSuchGroup`.
    @discardableResult
    public func renewKeys(_ renewed: RenewedKeys, freshHistory: Bool, kdf: Scrypt.Parameters = .interactive,
                          confirm: (RekeyPlan) throws -> Void) throws -> KeyRenewal {
        try renewKeys(renewed, freshHistory: freshHistory, kdf: kdf, confirm: confirm) { _ in }.renewal
    }

    /// `renewKeys`, with `then` applied to the vault in the same write (adding the newcomer: its slot
    /// is sealed at the write, with the new keys).
    func renewKeys<T>(_ renewed: RenewedKeys, freshHistory: Bool, kdf: Scrypt.Parameters, confirm: (RekeyPlan) throws -> Void,
                      then: (inout WorkingCopy) throws -> T) throws -> (result: T, renewal: KeyRenewal) {
        var result: T?
        var dropped = (revisions: 0, trash: 0)
        switch renewed {
        case .vault:
            let outcome = try rekey(kdf: kdf, confirm: confirm, keepingTrustKey: true) { vault in
                if freshHistory { dropped = try vault.dropHistory(of: vault.file.groups.map(\.groupID)) }
                result = try then(&vault)
            }
            return (try unwrap(result), KeyRenewal(renewed: renewed, droppedRevisions: dropped.revisions, purgedTrash: dropped.trash,
                                                  keyEpoch: outcome.keyEpoch))
        case .groups(let groups):
            try requireTrustKey(.revokeCredentials)
            let epoch = try transaction { vault -> UInt64 in
                var ids: [GroupID] = []
                for group in groups {
                    guard let id = try vault.groupID(for: group, creating: false) else { throw vault.missingGroup(group) }
                    if !ids.contains(id) { ids.append(id) }
                }
                if freshHistory { dropped = try vault.dropHistory(of: ids) }
                for id in ids { _ = try vault.rotateGroupKey(id, progress: configuration.progress) }
                result = try then(&vault)
                return vault.file.keyEpoch
            }
            return (try unwrap(result), KeyRenewal(renewed: renewed, droppedRevisions: dropped.revisions, purgedTrash: dropped.trash, keyEpoch: epoch))
        }
    }

    private func unwrap<T>(_ result: T?) throws -> T {
        guard let result else { throw VaultError.changedSinceShown }
        return result
    }

    /// Whether the team log says a member of this name or recipient was removed earlier. The owner's
    /// read (the log is sealed under the wrap key); a file without a team log (v2) says no.
    func wasRemovedEarlier(name: String, recipient: AgeRecipient) throws -> Bool {
        try withKeys {
            let vault = try readSnapshot()
            guard vault.file.hasTeamLog else { return false }
            return try vault.openedTeamLog().changes().contains { change in
                guard case .memberRemoved(let removedName, let removedRecipient) = change else { return false }
                return removedName == name || removedRecipient == recipient
            }
        }
    }
}

extension WorkingCopy {
    /// Fresh history for `groupIDs`: every item's revisions dropped and the trash emptied, each entry
    /// leaving a purge record (so a merge with a copy that still holds it does not bring it back).
    /// Returns how many revisions and trash entries went.
    mutating func dropHistory(of groupIDs: [GroupID]) throws -> (revisions: Int, trash: Int) {
        var revisions = 0, trashed = 0
        for position in file.index.indices where groupIDs.contains(file.index[position].groupID) {
            var record = try openWholeRecord(at: position)
            guard !record.history.isEmpty else { continue }
            revisions += record.history.count
            record.history = []
            try store(record, replacing: position)
        }
        for groupID in groupIDs {
            let entries = try trash(of: groupID)
            guard !entries.isEmpty else { continue }
            trashed += entries.count
            pending.trash.replaced[groupID] = []
            pending.tombstones.added[groupID, default: []] += entries.map { Tombstone.purge(of: $0.deletion) }
        }
        return (revisions, trashed)
    }
}
