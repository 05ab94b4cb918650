import FoundationEssentials

/// Why an operation failed in Unlock/: the keys at hand do not open the vault, or do not open it for this: a credential, keyslot, session or scoped credential refused.
/// `VaultError.unlock` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Unlock.swift`).
public enum UnlockError: Equatable, Sendable {
    /// No keyslot opens with the credential given.
    case wrongCredential(CredentialKind)
    /// The vault has no keyslot of the kind given (e.g. a key file for a passphrase-only vault).
    case noKeyslot(CredentialKind)
    /// A key file is too short or otherwise unusable.
    case invalidKeyFile(path: String, KeyFileProblem)
    /// A credential value (from an option or the environment) is neither a file that exists nor a
    /// credential's text; only its length is kept, since it may be a secret.
    case unrecognizedCredential(length: Int)
    /// The keys at hand do not open this: an item of the class given, or (nil) a change to the vault.
    /// `tried` lists the unlockers that did not open it, in order, once every one was tried.
    case locked(Accessibility?, tried: [UnlockAttempt] = [])
    /// The unlock session has ended (idle timeout or `vault lock`), or the token is not one of this vault's.
    case sessionEnded(SessionEnd)
    /// The last keyslot cannot be removed: the vault would not open again.
    case lastKeyslot
    /// The accessibility class needs a passphrase keyslot and the vault has none.
    case passcodeNotSet
    /// `rekey` (or a master-key rotation) needs the unlock secret itself, and the keys at hand are a session's.
    case rekeyNeedsSecret
    /// No member slot of the vault opens with the identities named (their recipients).
    case noMemberSlot(recipients: [String])
    /// A scoped credential is not intact (`source` is its path, or the variable that held it).
    case damagedCredential(source: String, detail: Damage)
    /// A scoped credential whose expiry date has passed.
    case credentialExpired(Date)
    /// A scoped credential for a group whose key was rotated (`vault revoke`) or that was deleted.
    case credentialRevoked(AccessGroup)
    /// A scoped credential of another vault.
    case credentialForAnotherVault
    /// A scoped credential used on a group it does not cover.
    case outsideCredential(group: AccessGroup, covered: [AccessGroup])
    /// A change asked of a read-only credential.
    case readOnlyCredential
    /// A change asked of a read-write credential granted before the vault was converted to format v2:
    /// its index MAC keys are v1's, so it reads and cannot write until it is granted again.
    case credentialPredatesConversion
    /// Something only the vault's owner (passphrase, key file, session) may do, asked of a scoped credential.
    case ownerOnly(OwnerAction)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .wrongCredential: return .authFailed
        case .noKeyslot: return .authFailed
        case .invalidKeyFile: return .authFailed
        case .unrecognizedCredential: return .failure
        case .locked: return .interactionNotAllowed
        case .sessionEnded: return .interactionNotAllowed
        case .lastKeyslot: return .usage
        case .passcodeNotSet: return .usage
        case .rekeyNeedsSecret: return .interactionNotAllowed
        case .noMemberSlot: return .authFailed
        case .damagedCredential: return .decode
        case .credentialExpired: return .authFailed
        case .credentialRevoked: return .authFailed
        case .credentialForAnotherVault: return .authFailed
        case .outsideCredential: return .missingEntitlement
        case .readOnlyCredential: return .missingEntitlement
        case .credentialPredatesConversion: return .missingEntitlement
        case .ownerOnly: return .missingEntitlement
        }
    }
}
