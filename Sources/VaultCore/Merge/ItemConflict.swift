import FoundationEssentials
import VaultCrypto

/// A side of a merge: the file of the one who merges (`ours`, git's `%A`) or the one merged in (`theirs`, `%B`).
public enum MergeSide: UInt8, Sendable {
    /// The side that merges: its file is where the result goes.
    case ours = 0
    /// The side merged in.
    case theirs = 1

    /// The other side.
    package var other: MergeSide { self == .ours ? .theirs : .ours }
}

/// What a merge could not choose for an item: the version of the other side, kept in the item's own
/// record beside the version it shows (docs/TEAMS.md, "Conflicts"). `vault resolve` chooses.
public struct ItemConflict: Sendable {
    /// The side the item's current version came from; `other` is the other side's.
    package var currentSide: MergeSide
    /// The other side's version; nil when that side deleted the item (or never had it).
    package var other: Item?
    /// Where the other version came from: a branch, its author, a superseded key epoch.
    package var origin: String
    /// The other version as stored when it lives in another group or class than the item's current
    /// one: sealed under that pair's keys, so a reader of the current one alone cannot open it.
    var sealedElsewhere: SealedVersion? = nil

    /// Whether the other version names another group or class than its record's and was kept in the
    /// record's own plaintext, as files before format v3 kept it: no key of that group vouches for
    /// it, so it is shown but `resolve` never moves it into that group.
    var isUnsealedFromAnotherGroup = false

    /// Whether the other version lives in a group or class these keys do not open (so `other` is nil
    /// without the other side having deleted the item).
    package var otherIsSealedElsewhere: Bool { other == nil && sealedElsewhere != nil }

    /// A conflict whose current version came from `currentSide`, `other` being the other side's.
    package init(currentSide: MergeSide, other: Item?, origin: String) {
        self.currentSide = currentSide
        self.other = other
        self.origin = origin
    }
}

/// A conflict's other version sealed as a record of its own (group, class): docs/FORMAT.md, "Records".
struct SealedVersion: Equatable {
    let groupID: GroupID
    let classID: ClassID
    /// Fresh for every seal: the record key and AAD are derived from it as a record's are.
    let recordID: [UInt8]
    let sealed: [UInt8]
}

/// An item in conflict, as `vault conflicts` lists it: by its newest conflict.
package struct ConflictSummary: Sendable {
    /// The item as it reads now.
    package let attributes: ItemAttributes
    /// The side its current version came from.
    package let currentSide: MergeSide
    /// The other side's attributes; nil when that side deleted the item.
    package let other: ItemAttributes?
    /// Where the other version came from.
    package let origin: String
    /// How many other versions earlier merges left beside it (`resolve` drops them too).
    package let olderVersions: Int
    /// Whether the other version lives in a group or class these keys do not open.
    package let otherIsSealedElsewhere: Bool
}
