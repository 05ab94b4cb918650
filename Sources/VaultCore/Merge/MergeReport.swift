import FoundationEssentials

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
