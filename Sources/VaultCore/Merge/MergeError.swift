/// Why an operation failed in Merge/: a merge refused, or a conflict it left that is not there to read or resolve.
/// `VaultError.merge` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Merge.swift`).
public enum MergeError: Equatable, Sendable {
    /// The item is in no conflict (a resolve, or a read of the other version).
    case noConflict(ItemKey)
    /// A read of the other version of an item in conflict whose other side deleted it: `current` is the side whose version it holds.
    case otherSideDeleted(ItemKey, current: MergeSide)
    /// A read of conflict N of an item that keeps fewer than N conflicts (`count` of them).
    case noConflictNumber(ItemKey, requested: Int, count: Int)
    /// A merge of two files of different vaults (their vault ids differ): one is not this vault's.
    case mergeOfAnotherVault(path: String)
    /// One of a merge's files refused (`refusal`: damaged, not signed by the pinned key, rolled back):
    /// `input` says which; the path in `refusal` is the vault file the merge writes.
    indirect case mergeInput(MergeInput, refusal: VaultError)
    /// The other version of an item in conflict lives in a group or class the keys at hand do not open.
    case otherVersionSealedElsewhere(ItemKey)
    /// The other version of an item in conflict names group `names` but was kept unsealed in the
    /// item's own record (a file before format v3): no key of that group vouches for it, so
    /// `resolve` does not move it there.
    case unsealedVersionOfAnotherGroup(ItemKey, names: AccessGroup)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .noConflict: return .itemNotFound
        case .otherSideDeleted: return .itemNotFound
        case .noConflictNumber: return .itemNotFound
        case .mergeOfAnotherVault: return .decode
        case .mergeInput(_, let refusal): return refusal.status
        case .otherVersionSealedElsewhere: return .missingEntitlement
        case .unsealedVersionOfAnotherGroup: return .missingEntitlement
        }
    }
}
