import FoundationEssentials

/// A group and how many items it holds.
public struct GroupSummary: Equatable, Sendable {
    /// The group.
    public let group: AccessGroup
    /// How many items of the group the vault holds.
    public let itemCount: Int
}

/// What deleting a group removed.
public struct GroupDeletion: Sendable, Equatable {
    /// How many items of the group went.
    public let items: Int
    /// Items of other groups in conflict whose other version lived in the deleted group: that version went with it.
    public let droppedConflictVersions: [ItemKey]
}
