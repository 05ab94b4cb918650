import FoundationEssentials
import VaultCrypto

/// Which keys a re-key for a newcomer renews.
package enum RenewedKeys: Sendable, Equatable {
    /// Every key of the vault (a full member's arrival): every session and every scoped credential ends.
    case vault
    /// The keys of these groups: every credential granted for one of them ends.
    case groups([AccessGroup])
}

/// What a re-key for a newcomer did (`renewKeys`): the newcomer's keys open nothing sealed before it.
package struct KeyRenewal: Sendable, Equatable {
    /// What was re-keyed.
    package let renewed: RenewedKeys
    /// Earlier secrets (revisions) dropped from the items re-keyed (fresh history only).
    package let droppedRevisions: Int
    /// Trash entries of the groups re-keyed purged, each leaving a purge record (fresh history only).
    package let purgedTrash: Int
    /// The key epoch the vault is at now.
    package let keyEpoch: UInt64
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
