/// What a `Vault` is told once, when it is made, and keeps for its life: whom it tells of its
/// progress and notices, what the caller accepts (a rollback, a team log unseen), what it pins
/// (a trust fingerprint, a lowest key epoch), what it checks before a change, and how long it
/// keeps deleted items and earlier secrets. The defaults accept nothing unusual and tell no one.
public struct VaultConfiguration {
    /// Told as verify, export, import, wipe and revoke work through the items.
    public var progress: ProgressHandler?
    /// Told of what vault did on its own that the user should know (see `VaultNotice`).
    public var onNotice: ((VaultNotice) -> Void)?
    /// Whether a file older than this machine has seen is opened anyway (the user accepted the rollback):
    /// the restore is then recorded as intended.
    public var acceptRollback: Bool
    /// The lowest key epoch accepted whatever this machine remembers (`VAULT_MIN_EPOCH`): a fresh CI runner remembers nothing.
    public var minimumEpoch: UInt64?
    /// Whether the owner accepted, unseen, the team log entries a write would sign that it did not
    /// write here (a join of diverged logs, a conversion's members).
    public var acceptTeamLog: Bool
    /// Shown those entries before the owner's write signs them (a prompt); may throw to change nothing.
    /// Without it (and without `acceptTeamLog`) such a write is refused.
    public var reviewTeamLog: ((TeamLogReview) throws -> Void)?
    /// The members of a conversion the owner accepts although the roster it last wrote here does
    /// not hold them as they are (`TeamLogReview.unvouched`): `acceptTeamLog` alone does not sign those.
    package var acceptedMembers: Set<String> = []
    /// The trust fingerprint the caller pinned (`VAULT_TRUST`): with an identity, a vault whose header
    /// is not signed by that key is refused, and one is needed (docs/TEAMS.md, "Trust").
    public var trustedFingerprint: String?
    /// Run with the vault before every change is written (not a merge's write), and before a file
    /// older than this machine saw is refused: may throw to change nothing, or to refuse it for a
    /// better reason. The command line checks here that no commit since the one it last checked
    /// dropped team log entries of a commit before it.
    public var checkBeforeChanging: ((Vault) throws -> Void)?
    /// How many days a deleted item stays in the trash: the first write after that purges it.
    public var trashDays: Int
    /// How many earlier secrets a change keeps for its item (0: none, and the ones kept go); nil
    /// keeps `Vault.defaultRevisionsKept` when a secret is replaced and leaves the history alone otherwise.
    public var revisionsKept: Int?
    /// The sessions the caller's shell holds, carried on by a re-key that removes a member (the
    /// owner's own sessions are not what is revoked): the token in `VAULT_SESSION`, and with
    /// `holdsLoginKeyringSession` the one this login's kernel keyring keeps. Every other ends.
    package var heldSessionToken: String?
    /// Whether the caller's shell holds this login's kernel-keyring session, carried on like `heldSessionToken`.
    package var holdsLoginKeyringSession = false

    /// A configuration with the given fields; each left out has its default.
    public init(
        progress: ProgressHandler? = nil, onNotice: ((VaultNotice) -> Void)? = nil,
        acceptRollback: Bool = false, minimumEpoch: UInt64? = nil,
        acceptTeamLog: Bool = false, reviewTeamLog: ((TeamLogReview) throws -> Void)? = nil,
        trustedFingerprint: String? = nil, checkBeforeChanging: ((Vault) throws -> Void)? = nil,
        trashDays: Int = Vault.defaultTrashDays, revisionsKept: Int? = nil
    ) {
        self.progress = progress
        self.onNotice = onNotice
        self.acceptRollback = acceptRollback
        self.minimumEpoch = minimumEpoch
        self.acceptTeamLog = acceptTeamLog
        self.reviewTeamLog = reviewTeamLog
        self.trustedFingerprint = trustedFingerprint
        self.checkBeforeChanging = checkBeforeChanging
        self.trashDays = trashDays
        self.revisionsKept = revisionsKept
    }
}

extension VaultConfiguration {
    /// Shows the owner what it is about to sign (`reviewTeamLog`), unless `acceptTeamLog` says it
    /// was accepted already — and, for a conversion, `acceptedMembers` names every member not as the
    /// owner last wrote it here (`unvouched`). Without either, refuses (`teamLogReviewNeeded`):
    /// nothing is signed unseen.
    func review(_ review: TeamLogReview) throws {
        guard !review.entries.isEmpty else { return }
        if acceptTeamLog, review.unvouched.allSatisfy(acceptedMembers.contains) { return }
        guard let reviewTeamLog else { throw VaultError.teamLogReviewNeeded(review) }
        try reviewTeamLog(review)
    }
}
