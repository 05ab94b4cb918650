import FoundationEssentials

/// What `merge` did.
package struct MergeReport: Sendable {
    /// Changes of the other side taken in as they were.
    package var applied = 0
    /// Items this merge left in conflict (both versions kept: `vault conflicts`).
    package var conflicts: [ItemKey] = []
    /// Members the result has that ours did not.
    package var membersAdded: [String] = []
    /// Members ours had that the result does not (what they could open was re-keyed).
    package var membersRemoved: [String] = []
    /// Members two diverged team logs defined differently, left out of the join: add them again if wanted.
    package var membersLeftOut: [String] = []
    /// Whether the result is under keys ours did not have (a re-key on the other side, or made by this merge).
    package var rekeyed = false
    /// Groups whose key the result replaced since ours.
    package var groupsRevoked: [AccessGroup] = []
    /// Whether the owner joined two diverged team logs.
    package var joinedLogs = false
    /// The key epoch of the result.
    package var keyEpoch: UInt64 = 0
    /// Items in conflict whose other version lived in a group a team log deleted: it went with the group.
    package var droppedConflictVersions: [ItemKey] = []
}
