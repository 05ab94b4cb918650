import FoundationEssentials

/// A group and how many items it holds.
package struct GroupSummary: Equatable, Sendable {
    /// The group.
    package let group: AccessGroup
    /// How many items of the group the vault holds.
    package let itemCount: Int
}

/// What deleting a group removed.
package struct GroupDeletion: Sendable, Equatable {
    /// How many items of the group went.
    package let items: Int
    /// Items of other groups in conflict whose other version lived in the deleted group: that version went with it.
    package let droppedConflictVersions: [ItemKey]
}
