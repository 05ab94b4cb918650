/// Why an operation failed in Snapshot/: a vault file read refused: damaged, not signed by the key trusted, or behind what this machine has seen.
/// `VaultError.snapshot` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Snapshot.swift`).
public enum SnapshotError: Equatable, Sendable {
    /// The vault (or a file it needs) is damaged or was tampered with.
    case corrupted(path: String, detail: Damage)
    /// A group's section fails its MAC: damaged, or forged by someone without its write key.
    /// Only that group is refused.
    case damagedGroup(path: String, group: AccessGroup)
    /// The vault is not signed by the signing key whose fingerprint the reader pinned (or, for a
    /// v1 file, not signed at all).
    case untrustedVault(path: String, pinned: String)
    /// An identity opens the vault but no trust fingerprint is pinned: a public-key slot can be
    /// sealed by anyone who can write the file, so a member reads only a vault signed by a key it trusts.
    case trustNotPinned(path: String)
    /// A trust fingerprint that is not one (`source` names where it came from).
    case invalidTrustFingerprint(source: String)
    /// The vault file's key epoch is lower than this machine has seen, or than the lowest one pinned
    /// (`VAULT_MIN_EPOCH`): a rolled-back file. Accepting a rollback (`Vault.Configuration.acceptRollback`) records the restore as intended.
    case rolledBack(path: String, found: UInt64, expected: UInt64)
    /// A change to a vault file that is behind what this machine has seen (same key epoch,
    /// lower write generation or group generation): writing it would undo changes.
    case behindSeen(path: String, found: UInt64, seen: UInt64)
    /// A write to a file at the counters this machine has seen, but another write id (`found`, the
    /// one seen `seen`): a sibling, another clone's write from the same base; merge the two, or
    /// accept it (`Vault.Configuration.acceptRollback`).
    case siblingOfSeen(path: String, found: WriteID, seen: WriteID)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .corrupted: return .decode
        case .damagedGroup: return .decode
        case .untrustedVault: return .authFailed
        case .trustNotPinned: return .authFailed
        case .invalidTrustFingerprint: return .usage
        case .rolledBack: return .invalidKeychain
        case .behindSeen: return .invalidKeychain
        case .siblingOfSeen: return .invalidKeychain
        }
    }
}
