/// Why an operation failed in Team/: the team's members and log: a member that is not there or may not do this, a team log dropped or to be reviewed.
/// `VaultError.team` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Team.swift`).
public enum TeamError: Equatable, Sendable {
    /// No member of that name.
    case noSuchMember(String)
    /// A scoped member (by its identity) used for a group its slot does not hold.
    case outsideMember(name: String, group: AccessGroup, covered: [AccessGroup])
    /// A change by a scoped member whose slot holds no write keys (added read-only).
    case readOnlyMember(String)
    /// Owner-only work asked of a scoped member.
    case scopedMemberCannot(name: String, action: OwnerAction)
    /// What raises the key epoch (a re-key, a removal, a revoke) asked of an identity: the new epoch's
    /// trust statement needs the trust key, which is the owner's alone.
    case trustKeyNeeded(OwnerAction)
    /// A keyslot change (passwd) asked of an identity: keyslots are the owner's passphrase and key files.
    case identityCannot(OwnerAction)
    /// A vault file whose team log drops entries of a file it was merged from (a hand resolution of a
    /// merge, git's checkout of one side): it would undo a removal or another change of the team.
    /// `beforeChanging`: found by the first change after the merge commit, not by `sync` before pushing.
    case teamLogDropped(path: String, beforeChanging: Bool)
    /// A commit of the vault file's history whose team log drops entries of a commit before it.
    case historyDropsTeamLog(HistoryBreak)
    /// A merge of two team logs that diverged, by someone who is not the owner: only the owner's trust key signs a join.
    case onlyOwnerJoins
    /// The owner's write would sign team log entries (a join's, a conversion's) it was not shown:
    /// review them on a terminal, or accept them (`Vault.Configuration.acceptTeamLog`).
    case teamLogReviewNeeded(TeamLogReview)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .noSuchMember: return .itemNotFound
        case .outsideMember: return .missingEntitlement
        case .readOnlyMember: return .missingEntitlement
        case .scopedMemberCannot: return .missingEntitlement
        case .trustKeyNeeded: return .missingEntitlement
        case .identityCannot: return .missingEntitlement
        case .teamLogDropped: return .invalidKeychain
        case .historyDropsTeamLog: return .invalidKeychain
        case .onlyOwnerJoins: return .missingEntitlement
        case .teamLogReviewNeeded: return .usage
        }
    }
}
