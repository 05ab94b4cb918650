/// What was asked of keys that may not do it (`VaultError.ownerOnly`, `scopedMemberCannot`,
/// `trustKeyNeeded`, `identityCannot`): the command line words each.
public enum OwnerAction: Equatable, Sendable {
    case listMembers
    case addMembers
    case removeMembers
    case printTrustFingerprint
    case mergeVault
    case wipeWholeGroups
    case wipeItems
    case exportItems
    case importItems
    case upgradeFormat
    case quarantineDamagedGroups
    case createGroups
    case deleteGroups
    case grantCredentials
    case revokeCredentials
    case copyVault
    case rekeyVault
    case changeKeyslots
    case raiseKeyEpoch
    case changeTeamLog
}
