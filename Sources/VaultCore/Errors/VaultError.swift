import FoundationEssentials

/// Why a vault operation failed. Errors carry the facts; the command line
/// writes the words. Each maps to one `Status` and so to one exit code.
public enum VaultError: Error, Equatable {
    /// No item matches the query.
    case itemNotFound(Query)
    /// An item with the same (group, service, account) exists.
    case duplicateItem(ItemKey)
    /// A query that must name one item matches several.
    case ambiguous([ItemAttributes])
    /// No keyslot opens with the credential given.
    case wrongCredential(CredentialKind)
    /// The vault has no keyslot of the kind given (e.g. a key file for a passphrase-only vault).
    case noKeyslot(CredentialKind)
    /// The passphrase or key file given for an export bundle does not open it.
    case wrongBundleCredential(CredentialKind)
    /// The export bundle opens with the other kind of credential than the one given.
    case noBundleKeyslot(CredentialKind)
    /// The vault file does not exist.
    case noSuchVault(path: String)
    /// `init` found a vault already there.
    case vaultExists(path: String)
    /// The vault (or a file it needs) is damaged or was tampered with.
    case corrupted(path: String, detail: Damage)
    /// A file holding secrets is readable or writable by group or others.
    case insecurePermissions(path: String, mode: UInt32)
    /// A file or directory that group or others may change: the vault file
    /// (which others may read, not write), or the directory that holds it.
    case writableByOthers(path: String, mode: UInt32)
    /// A file or directory that decides what vault does (the config, the runtime directory) is
    /// owned by another user than the caller or root: whoever owns it may change it. `owner` is its uid.
    case ownedByAnotherUser(path: String, owner: UInt32)
    /// The vault path names something that is not a regular file (after resolving a link): a
    /// directory, a FIFO, a device, a socket. `fileType` is its `st_mode & S_IFMT`. Found without opening it.
    case notARegularFile(path: String, fileType: UInt32)
    /// An output path is a symbolic link; vault writes only to a real path.
    case symbolicLink(path: String)
    /// A key file is too short or otherwise unusable.
    case invalidKeyFile(path: String, KeyFileProblem)
    /// An item is device-bound and this machine's device key is not the one it was sealed with.
    case boundToAnotherDevice(group: AccessGroup, accessibility: Accessibility)
    /// This machine's device key is sealed by its TPM, and the TPM did not seal or unseal it.
    case tpm(TPMFailure)
    /// This machine has no device key for the vault (it was made elsewhere), so there is none to seal or move.
    case noDeviceKey
    /// A value is outside what the vault accepts (size, characters, empty, taken), and how.
    case invalidValue(InvalidValue)
    /// A recipient that is not an age X25519 recipient (`age1…`), and what it is instead.
    case invalidRecipient(String, reason: RecipientProblem)
    /// Identity text (a file, or a variable's value: `source`) that is not age X25519 identities; the line, when one is wrong.
    case invalidIdentity(source: String, line: Int?, reason: IdentityProblem)
    /// `vault identity new` would write over a file.
    case identityExists(path: String)
    /// No member slot of the vault opens with the identities named (their recipients).
    case noMemberSlot(recipients: [String])
    /// The vault is not signed by the signing key whose fingerprint the reader pinned (or, for a
    /// v1 file, not signed at all).
    case untrustedVault(path: String, pinned: String)
    /// An identity opens the vault but no trust fingerprint is pinned: a public-key slot can be
    /// sealed by anyone who can write the file, so a member reads only a vault signed by a key it trusts.
    case trustNotPinned(path: String)
    /// A trust fingerprint that is not one (`source` names where it came from).
    case invalidTrustFingerprint(source: String)
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
    /// A file the user named (a credential, key file, bundle…) does not exist.
    case noSuchFile(path: String, kind: InputFileKind)
    /// A credential value (from an option or the environment) is neither a file that exists nor a
    /// credential's text; only its length is kept, since it may be a secret.
    case unrecognizedCredential(length: Int)
    /// A file the user named exists but cannot be read (EISDIR for a directory, EACCES…).
    case unreadableFile(path: String, kind: InputFileKind, errno: Int32)
    /// A system call failed on a path.
    case io(path: String, operation: FileOperation, errno: Int32)
    /// The last keyslot cannot be removed: the vault would not open again.
    case lastKeyslot
    /// The accessibility class needs a passphrase keyslot and the vault has none.
    case passcodeNotSet
    /// The keys at hand do not open this: an item of the class given, or (nil) a change to the vault.
    /// `tried` lists the unlockers that did not open it, in order, once every one was tried.
    case locked(Accessibility?, tried: [UnlockAttempt] = [])
    /// The unlock session has ended (idle timeout or `vault lock`), or the token is not one of this vault's.
    case sessionEnded(SessionEnd)
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
    /// The item's expiry date has come; it stays until a wipe of expired items.
    case itemExpired(ItemAttributes)
    /// The items a wipe would remove changed between showing them and removing them.
    case changedSinceShown
    /// An export bundle is damaged or not a bundle.
    case damagedBundle(path: String, detail: Damage)
    /// The group does not exist. `known`: the groups the keys at hand open, for a did-you-mean
    /// (empty where the caller did not look).
    case noSuchGroup(AccessGroup, known: [AccessGroup] = [])
    /// `group create` of a group that exists.
    case groupExists(AccessGroup)
    /// A group's section fails its MAC: damaged, or forged by someone without its write key.
    /// Only that group is refused.
    case damagedGroup(path: String, group: AccessGroup)
    /// The vault file is an older format that this change cannot write: `byOwner` when only the
    /// owner can convert it, `inGitWorkTree` when it lies in a git work tree (only `vault upgrade` converts there).
    case upgradeNeeded(path: String, byOwner: Bool, inGitWorkTree: Bool = false)
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
    /// `rekey` (or a master-key rotation) needs the unlock secret itself, and the keys at hand are a session's.
    case rekeyNeedsSecret
    /// The item keeps fewer earlier secrets than the revision asked for (`kept` of them).
    case noRevision(ItemKey, requested: Int, kept: Int)
    /// The item is in no conflict (a resolve, or a read of the other version).
    case noConflict(ItemKey)
    /// A read of the other version of an item in conflict whose other side deleted it: `current` is the side whose version it holds.
    case otherSideDeleted(ItemKey, current: MergeSide)
    /// A merge of two files of different vaults (their vault ids differ): one is not this vault's.
    case mergeOfAnotherVault(path: String)
    /// One of a merge's files refused (`refusal`: damaged, not signed by the pinned key, rolled back):
    /// `input` says which; the path in `refusal` is the vault file the merge writes.
    indirect case mergeInput(MergeInput, refusal: VaultError)
    /// A read of conflict N of an item that keeps fewer than N conflicts (`count` of them).
    case noConflictNumber(ItemKey, requested: Int, count: Int)
    /// An item and the other versions a merge would keep beside it do not fit in one record.
    case recordTooLarge(ItemKey)
    /// The other version of an item in conflict lives in a group or class the keys at hand do not open.
    case otherVersionSealedElsewhere(ItemKey)
    /// The other version of an item in conflict names group `names` but was kept unsealed in the
    /// item's own record (a file before format v3): no key of that group vouches for it, so
    /// `resolve` does not move it there.
    case unsealedVersionOfAnotherGroup(ItemKey, names: AccessGroup)
    /// The vault file lies in a git work tree where git holds an operation unfinished (a merge, a
    /// rebase, `am`, a cherry-pick, a revert): a change now would be lost when it goes on or is aborted.
    case unfinishedGitOperation(path: String, UnfinishedGitOperation)
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
        case .itemNotFound: return .itemNotFound
        case .duplicateItem: return .duplicateItem
        case .ambiguous: return .usage
        case .wrongCredential, .noKeyslot, .wrongBundleCredential, .noBundleKeyslot: return .authFailed
        case .noSuchVault: return .noSuchVault
        case .vaultExists: return .duplicateVault
        case .corrupted: return .decode
        case .insecurePermissions, .writableByOthers, .ownedByAnotherUser, .symbolicLink, .io, .noSuchFile, .unreadableFile, .unrecognizedCredential:
            return .failure
        case .notARegularFile: return .usage
        case .invalidKeyFile: return .authFailed
        case .boundToAnotherDevice: return .decode
        case .tpm(let failure): return failure.status
        case .noDeviceKey: return .itemNotFound
        case .invalidValue, .invalidRecipient: return .usage
        case .invalidIdentity: return .authFailed
        case .identityExists: return .usage
        case .noMemberSlot: return .authFailed
        case .untrustedVault, .trustNotPinned: return .authFailed
        case .invalidTrustFingerprint: return .usage
        case .noSuchMember: return .itemNotFound
        case .outsideMember, .readOnlyMember, .scopedMemberCannot, .identityCannot, .trustKeyNeeded: return .missingEntitlement
        case .lastKeyslot: return .usage
        case .passcodeNotSet: return .usage
        case .locked, .sessionEnded: return .interactionNotAllowed
        case .damagedCredential: return .decode
        case .credentialExpired, .credentialRevoked, .credentialForAnotherVault: return .authFailed
        case .outsideCredential, .readOnlyCredential, .credentialPredatesConversion, .ownerOnly: return .missingEntitlement
        case .noSuchGroup, .itemExpired: return .itemNotFound
        case .damagedBundle: return .decode
        case .changedSinceShown: return .failure
        case .groupExists: return .duplicateItem
        case .damagedGroup: return .decode
        case .upgradeNeeded: return .failure
        case .rolledBack, .behindSeen, .siblingOfSeen: return .invalidKeychain
        case .rekeyNeedsSecret: return .interactionNotAllowed
        case .noRevision, .noConflict, .otherSideDeleted, .noConflictNumber: return .itemNotFound
        case .mergeOfAnotherVault: return .decode
        case .mergeInput(_, let refusal): return refusal.status
        case .recordTooLarge: return .failure
        case .onlyOwnerJoins: return .missingEntitlement
        case .unfinishedGitOperation: return .usage
        case .otherVersionSealedElsewhere, .unsealedVersionOfAnotherGroup: return .missingEntitlement
        case .teamLogDropped, .historyDropsTeamLog: return .invalidKeychain
        case .teamLogReviewNeeded: return .usage
        }
    }
}

extension TPMFailure {
    /// The status of each failure: one of its own for a TPM that is not there, for a changed
    /// machine state and for the lockout, so that none reads as a damaged vault.
    package var status: Status {
        switch self {
        case .libraryMissing, .deviceNotOpenable, .unreachable, .noTPM: return .notAvailable
        case .stateChanged, .anotherTPM, .notThisVaultsSeal: return .verifyFailed
        case .lockout: return .tpmLockout
        case .wrongPIN: return .authFailed
        case .pinNeeded: return .interactionNotAllowed
        case .failed: return .failure
        }
    }
}

/// Why a session token no longer opens the vault.
public enum SessionEnd: Equatable, Sendable {
    /// Idle for longer than its timeout.
    case expired
    /// Locked, never made, or made for another vault or boot.
    case unknown
    /// The token is not a vault session token.
    case malformed
    /// The vault was re-keyed (`vault rekey`, `passwd`) after the session started.
    case rekeyed
}

/// The kinds of credential that unlock a vault.
public enum CredentialKind: Sendable, Equatable {
    /// A passphrase, typed or from a file.
    case passphrase
    /// The content of a key file.
    case keyFile
    /// A key kept in the desktop keyring.
    case desktopKeyring
}
