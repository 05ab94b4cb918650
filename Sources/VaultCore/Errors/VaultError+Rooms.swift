import FoundationEssentials

/// Each error by its own name, wrapped in its room, so that a throw site stays one short line:
/// `throw VaultError.locked(nil)` is `VaultError.unlock(.locked(nil))`. Match on the room's case.
extension VaultError {
    package static func itemNotFound(_ value: Query) -> VaultError { .item(.itemNotFound(value)) }
    package static func duplicateItem(_ value: ItemKey) -> VaultError { .item(.duplicateItem(value)) }
    package static func ambiguous(_ value: [ItemAttributes]) -> VaultError { .item(.ambiguous(value)) }
    package static func itemExpired(_ value: ItemAttributes) -> VaultError { .item(.itemExpired(value)) }
    package static var changedSinceShown: VaultError { .item(.changedSinceShown) }
    package static func noRevision(_ value: ItemKey, requested: Int, kept: Int) -> VaultError {
        .item(.noRevision(value, requested: requested, kept: kept))
    }
    package static func noSuchGroup(_ value: AccessGroup, known: [AccessGroup] = []) -> VaultError {
        .item(.noSuchGroup(value, known: known))
    }
    package static func groupExists(_ value: AccessGroup) -> VaultError { .item(.groupExists(value)) }
    package static func invalidValue(_ value: InvalidValue) -> VaultError { .item(.invalidValue(value)) }
    package static func wrongCredential(_ value: CredentialKind) -> VaultError { .unlock(.wrongCredential(value)) }
    package static func noKeyslot(_ value: CredentialKind) -> VaultError { .unlock(.noKeyslot(value)) }
    package static func invalidKeyFile(path: String, _ value: KeyFileProblem) -> VaultError { .unlock(.invalidKeyFile(path: path, value)) }
    package static func unrecognizedCredential(length: Int) -> VaultError { .unlock(.unrecognizedCredential(length: length)) }
    package static func locked(_ value: Accessibility?, tried: [UnlockAttempt] = []) -> VaultError { .unlock(.locked(value, tried: tried)) }
    package static func sessionEnded(_ value: SessionEnd) -> VaultError { .unlock(.sessionEnded(value)) }
    package static var lastKeyslot: VaultError { .unlock(.lastKeyslot) }
    package static var passcodeNotSet: VaultError { .unlock(.passcodeNotSet) }
    package static var rekeyNeedsSecret: VaultError { .unlock(.rekeyNeedsSecret) }
    package static func noMemberSlot(recipients: [String]) -> VaultError { .unlock(.noMemberSlot(recipients: recipients)) }
    package static func damagedCredential(source: String, detail: Damage) -> VaultError {
        .unlock(.damagedCredential(source: source, detail: detail))
    }
    package static func credentialExpired(_ value: Date) -> VaultError { .unlock(.credentialExpired(value)) }
    package static func credentialRevoked(_ value: AccessGroup) -> VaultError { .unlock(.credentialRevoked(value)) }
    package static var credentialForAnotherVault: VaultError { .unlock(.credentialForAnotherVault) }
    package static func outsideCredential(group: AccessGroup, covered: [AccessGroup]) -> VaultError {
        .unlock(.outsideCredential(group: group, covered: covered))
    }
    package static var readOnlyCredential: VaultError { .unlock(.readOnlyCredential) }
    package static var credentialPredatesConversion: VaultError { .unlock(.credentialPredatesConversion) }
    package static func ownerOnly(_ value: OwnerAction) -> VaultError { .unlock(.ownerOnly(value)) }
    package static func boundToAnotherDevice(group: AccessGroup, accessibility: Accessibility) -> VaultError {
        .keys(.boundToAnotherDevice(group: group, accessibility: accessibility))
    }
    package static func tpm(_ value: TPMFailure) -> VaultError { .keys(.tpm(value)) }
    package static var noDeviceKey: VaultError { .keys(.noDeviceKey) }
    package static func corrupted(path: String, detail: Damage) -> VaultError { .snapshot(.corrupted(path: path, detail: detail)) }
    package static func damagedGroup(path: String, group: AccessGroup) -> VaultError { .snapshot(.damagedGroup(path: path, group: group)) }
    package static func untrustedVault(path: String, pinned: String) -> VaultError {
        .snapshot(.untrustedVault(path: path, pinned: pinned))
    }
    package static func trustNotPinned(path: String) -> VaultError { .snapshot(.trustNotPinned(path: path)) }
    package static func invalidTrustFingerprint(source: String) -> VaultError { .snapshot(.invalidTrustFingerprint(source: source)) }
    package static func rolledBack(path: String, found: UInt64, expected: UInt64) -> VaultError {
        .snapshot(.rolledBack(path: path, found: found, expected: expected))
    }
    package static func behindSeen(path: String, found: UInt64, seen: UInt64) -> VaultError {
        .snapshot(.behindSeen(path: path, found: found, seen: seen))
    }
    package static func siblingOfSeen(path: String, found: WriteID, seen: WriteID) -> VaultError {
        .snapshot(.siblingOfSeen(path: path, found: found, seen: seen))
    }
    package static func upgradeNeeded(path: String, byOwner: Bool, inGitWorkTree: Bool = false) -> VaultError {
        .transaction(.upgradeNeeded(path: path, byOwner: byOwner, inGitWorkTree: inGitWorkTree))
    }
    package static func recordTooLarge(_ value: ItemKey) -> VaultError { .transaction(.recordTooLarge(value)) }
    package static func unfinishedGitOperation(path: String, _ value: UnfinishedGitOperation) -> VaultError {
        .transaction(.unfinishedGitOperation(path: path, value))
    }
    package static func noSuchVault(path: String) -> VaultError { .storage(.noSuchVault(path: path)) }
    package static func vaultExists(path: String) -> VaultError { .storage(.vaultExists(path: path)) }
    package static func insecurePermissions(path: String, mode: UInt32) -> VaultError {
        .storage(.insecurePermissions(path: path, mode: mode))
    }
    package static func writableByOthers(path: String, mode: UInt32) -> VaultError { .storage(.writableByOthers(path: path, mode: mode)) }
    package static func ownedByAnotherUser(path: String, owner: UInt32) -> VaultError {
        .storage(.ownedByAnotherUser(path: path, owner: owner))
    }
    package static func notARegularFile(path: String, fileType: UInt32) -> VaultError {
        .storage(.notARegularFile(path: path, fileType: fileType))
    }
    package static func symbolicLink(path: String) -> VaultError { .storage(.symbolicLink(path: path)) }
    package static func noSuchFile(path: String, kind: InputFileKind) -> VaultError { .storage(.noSuchFile(path: path, kind: kind)) }
    package static func unreadableFile(path: String, kind: InputFileKind, errno: Int32) -> VaultError {
        .storage(.unreadableFile(path: path, kind: kind, errno: errno))
    }
    package static func io(path: String, operation: FileOperation, errno: Int32) -> VaultError {
        .storage(.io(path: path, operation: operation, errno: errno))
    }
    package static func noSuchMember(_ value: String) -> VaultError { .team(.noSuchMember(value)) }
    package static func outsideMember(name: String, group: AccessGroup, covered: [AccessGroup]) -> VaultError {
        .team(.outsideMember(name: name, group: group, covered: covered))
    }
    package static func readOnlyMember(_ value: String) -> VaultError { .team(.readOnlyMember(value)) }
    package static func scopedMemberCannot(name: String, action: OwnerAction) -> VaultError {
        .team(.scopedMemberCannot(name: name, action: action))
    }
    package static func trustKeyNeeded(_ value: OwnerAction) -> VaultError { .team(.trustKeyNeeded(value)) }
    package static func identityCannot(_ value: OwnerAction) -> VaultError { .team(.identityCannot(value)) }
    package static func teamLogDropped(path: String, beforeChanging: Bool) -> VaultError {
        .team(.teamLogDropped(path: path, beforeChanging: beforeChanging))
    }
    package static func historyDropsTeamLog(_ value: HistoryBreak) -> VaultError { .team(.historyDropsTeamLog(value)) }
    package static var onlyOwnerJoins: VaultError { .team(.onlyOwnerJoins) }
    package static func teamLogReviewNeeded(_ value: TeamLogReview) -> VaultError { .team(.teamLogReviewNeeded(value)) }
    package static func noConflict(_ value: ItemKey) -> VaultError { .merge(.noConflict(value)) }
    package static func otherSideDeleted(_ value: ItemKey, current: MergeSide) -> VaultError {
        .merge(.otherSideDeleted(value, current: current))
    }
    package static func noConflictNumber(_ value: ItemKey, requested: Int, count: Int) -> VaultError {
        .merge(.noConflictNumber(value, requested: requested, count: count))
    }
    package static func mergeOfAnotherVault(path: String) -> VaultError { .merge(.mergeOfAnotherVault(path: path)) }
    package static func mergeInput(_ value: MergeInput, refusal: VaultError) -> VaultError { .merge(.mergeInput(value, refusal: refusal)) }
    package static func otherVersionSealedElsewhere(_ value: ItemKey) -> VaultError { .merge(.otherVersionSealedElsewhere(value)) }
    package static func unsealedVersionOfAnotherGroup(_ value: ItemKey, names: AccessGroup) -> VaultError {
        .merge(.unsealedVersionOfAnotherGroup(value, names: names))
    }
    package static func invalidRecipient(_ value: String, reason: RecipientProblem) -> VaultError {
        .identity(.invalidRecipient(value, reason: reason))
    }
    package static func invalidIdentity(source: String, line: Int?, reason: IdentityProblem) -> VaultError {
        .identity(.invalidIdentity(source: source, line: line, reason: reason))
    }
    package static func identityExists(path: String) -> VaultError { .identity(.identityExists(path: path)) }
    package static func wrongBundleCredential(_ value: CredentialKind) -> VaultError { .bundle(.wrongBundleCredential(value)) }
    package static func noBundleKeyslot(_ value: CredentialKind) -> VaultError { .bundle(.noBundleKeyslot(value)) }
    package static func damagedBundle(path: String, detail: Damage) -> VaultError { .bundle(.damagedBundle(path: path, detail: detail)) }
}
