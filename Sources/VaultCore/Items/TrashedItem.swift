import FoundationEssentials

/// An item in the trash: what `list` shows of it, and when it was deleted.
package struct TrashedItem: Sendable {
    /// The item's attributes as they were when it was deleted.
    package let attributes: ItemAttributes
    /// When `delete` moved it to the trash.
    package let deletedAt: Date
}
