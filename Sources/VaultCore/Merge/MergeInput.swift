/// One of the three files a merge reads, as a refusal names it (`VaultError.mergeInput`); the
/// command line writes the words.
public enum MergeInput: Equatable, Sendable {
    /// The vault file here; `origin` is how the merge names where it came from (git's `HEAD`).
    case ours(origin: String)
    /// The other side, merged in; `origin` is how the merge names where it came from (git's `MERGE_HEAD`).
    case theirs(origin: String)
    /// The two sides' merge base.
    case base
}

extension MergeInput {
    /// `side` of a merge whose sides came from `origins`.
    init(_ side: MergeSide, origins: (ours: String, theirs: String)) {
        self = side == .ours ? .ours(origin: origins.ours) : .theirs(origin: origins.theirs)
    }

    /// `body`, which reads this input's file, its refusals of that file (damaged, not signed by the
    /// pinned key, rolled back) told as this input's (`VaultError.mergeInput`). What asks for other
    /// keys (`locked`, `sessionEnded`) passes as it is, for the unlockers to act on.
    func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as VaultError {
            switch error {
            case .snapshot(.corrupted), .snapshot(.damagedGroup), .snapshot(.untrustedVault), .snapshot(.trustNotPinned),
                .snapshot(.rolledBack):
                throw VaultError.mergeInput(self, refusal: error)
            default: throw error
            }
        }
    }
}
