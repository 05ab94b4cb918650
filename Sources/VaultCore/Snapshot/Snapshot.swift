import VaultCrypto

/// What a read gives: a vault file opened with the caller's keys and checked (`Snapshot+Opening`),
/// which cannot change: every property a constant, no `mutating` method. Every question of
/// `OpenVault` is answered from it; a transaction changes a `WorkingCopy` made from one
/// (`WorkingCopy(_:)`) and seals that, never a snapshot. What it shares by reference are caches
/// of reads, not the vault's contents: the buckets a lookup checked (`bucketChecks`), the cipher
/// context and the record opened last, shared with the working copies made from it.
struct Snapshot: OpenVault {
    let file: VaultFile
    let keys: KeyRing
    let path: String
    let deviceMatches: Bool
    let isWritable: Bool
    let scope: Set<GroupID>?
    let storedHeader: (parameters: ArraySlice<UInt8>, mac: [UInt8])?
    let signingKey: SigningKey?
    let trustKey: TrustKey?
    let trustAsRead: TrustFields?
    let header: [UInt8]
    let damagedGroups: [DamagedGroup]
    let groupsVerifiedByWriteKey: Set<GroupID>
    let bucketChecks: BucketChecks
    let roster: [Member]?
    let recordOpener: AESGCM.Opener
    let lastOpened: LastOpenedRecord
    /// Whether the trust key was read sealed as vaults before 2026-11-25 sealed it (without TP in
    /// its AAD): a working copy made from this snapshot seals it again with TP (`PendingChanges`).
    let trustKeySealedWithoutTP: Bool

    /// `opened` as it stands, frozen: what an opening hands out once its checks are done, and the
    /// merge's sides, compared as they stand after its changes. What `opened` had pending is not
    /// carried but for the trust key's old seal, a fact of the file as read.
    init(_ opened: WorkingCopy) {
        file = opened.file
        keys = opened.keys
        path = opened.path
        deviceMatches = opened.deviceMatches
        isWritable = opened.isWritable
        scope = opened.scope
        storedHeader = opened.storedHeader
        signingKey = opened.signingKey
        trustKey = opened.trustKey
        trustAsRead = opened.trustAsRead
        header = opened.header
        damagedGroups = opened.damagedGroups
        groupsVerifiedByWriteKey = opened.groupsVerifiedByWriteKey
        bucketChecks = opened.bucketChecks
        roster = opened.roster
        recordOpener = opened.recordOpener
        lastOpened = opened.lastOpened
        trustKeySealedWithoutTP = opened.pending.trustKeySealedWithoutTP
    }
}
