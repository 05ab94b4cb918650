/// What was asked of keys that may not do it (`VaultError.ownerOnly`, `scopedMemberCannot`,
/// `trustKeyNeeded`, `identityCannot`): the command line words each.
public enum OwnerAction: Equatable, Sendable {
    /// List the members.
    case listMembers
    /// Add members.
    case addMembers
    /// Remove members.
    case removeMembers
    /// Print the trust fingerprint.
    case printTrustFingerprint
    /// Merge two versions of the vault.
    case mergeVault
    /// Wipe whole groups.
    case wipeWholeGroups
    /// Wipe items.
    case wipeItems
    /// Export items.
    case exportItems
    /// Import items.
    case importItems
    /// Upgrade the vault's format.
    case upgradeFormat
    /// Quarantine damaged groups.
    case quarantineDamagedGroups
    /// Create groups.
    case createGroups
    /// Delete groups.
    case deleteGroups
    /// Set the variable names a group's items may set (`group allow-env`).
    case allowEnvNames
    /// Grant scoped credentials.
    case grantCredentials
    /// Revoke credentials.
    case revokeCredentials
    /// List the credentials granted (the grant ledger).
    case listGrants
    /// Copy the vault.
    case copyVault
    /// Re-key the vault.
    case rekeyVault
    /// Change the vault's keyslots.
    case changeKeyslots
    /// Raise the key epoch.
    case raiseKeyEpoch
    /// Change the team log.
    case changeTeamLog
    /// Read what members and credentials could open, through the file's history.
    case readExposure
    /// Accept a live exposed value.
    case acceptExposure
}
