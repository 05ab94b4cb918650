import VaultCrypto

/// A vault file opened in memory that can change: what a transaction changes (records, groups,
/// keys, members) and seals (`encode()`), with what its next write must seal again
/// (`pending`). Made from a `Snapshot` (`init(_:)`), made in memory (`WorkingCopy+Creation`), or
/// filled by an opening before it is frozen into a snapshot. Its properties are `OpenVault`'s.
struct WorkingCopy: OpenVault {
    var file: VaultFile
    var keys: KeyRing
    let path: String
    let deviceMatches: Bool
    let isWritable: Bool
    var scope: Set<GroupID>? = nil
    var storedHeader: (parameters: ArraySlice<UInt8>, mac: [UInt8])? = nil
    var signingKey: SigningKey? = nil
    var trustKey: TrustKey? = nil
    var trustAsRead: TrustFields? = nil
    var header: [UInt8] = []
    var damagedGroups: [DamagedGroup] = []
    var groupsVerifiedByWriteKey: Set<GroupID> = []
    var bucketChecks = BucketChecks(everyBucket: true)
    var roster: [Member]? = nil
    let recordOpener: AESGCM.Opener
    let lastOpened: LastOpenedRecord
    /// What changed since the file was read, sealed into the file by the next write (`encode()`).
    var pending = PendingChanges()

    /// A vault opened from nothing but its layout and keys: an opening's start, or one made in memory.
    init(
        file: VaultFile, keys: KeyRing, path: String, deviceMatches: Bool, isWritable: Bool,
        recordOpener: AESGCM.Opener = AESGCM.Opener(), lastOpened: LastOpenedRecord = LastOpenedRecord()
    ) {
        self.file = file
        self.keys = keys
        self.path = path
        self.deviceMatches = deviceMatches
        self.isWritable = isWritable
        self.recordOpener = recordOpener
        self.lastOpened = lastOpened
    }

    /// `snapshot` to change: its file, keys and checks, with nothing pending but the one repair
    /// its reading found due (a trust key sealed the old way). The snapshot's index was checked in
    /// every bucket (as every read for a write is): what a lookup-only read checked is kept by
    /// position, which a change of the index would make wrong.
    init(_ snapshot: Snapshot) {
        precondition(snapshot.bucketChecks.everyBucket, "a working copy of a snapshot opened for lookups only")
        self.init(
            file: snapshot.file, keys: snapshot.keys, path: snapshot.path, deviceMatches: snapshot.deviceMatches,
            isWritable: snapshot.isWritable, recordOpener: snapshot.recordOpener, lastOpened: snapshot.lastOpened)
        scope = snapshot.scope
        storedHeader = snapshot.storedHeader
        signingKey = snapshot.signingKey
        trustKey = snapshot.trustKey
        trustAsRead = snapshot.trustAsRead
        header = snapshot.header
        damagedGroups = snapshot.damagedGroups
        groupsVerifiedByWriteKey = snapshot.groupsVerifiedByWriteKey
        bucketChecks = snapshot.bucketChecks
        roster = snapshot.roster
        pending.trustKeySealedWithoutTP = snapshot.trustKeySealedWithoutTP
    }
}
