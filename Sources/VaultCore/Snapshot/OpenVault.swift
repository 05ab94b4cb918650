import FoundationEssentials
import VaultCrypto

/// A vault file opened in memory with the keys a caller holds: its parsed layout, the keys, and
/// what opening checked. The questions a read asks of it (lookups, listings, records, trash,
/// members, trust) are this protocol's extensions, answered alike by the two values that hold
/// one: a `Snapshot` (what a read gives: it cannot change) and a `WorkingCopy` (what a
/// transaction changes, with the `PendingChanges` its next write seals).
protocol OpenVault {
    /// The file's layout as read (or as changed, in a working copy).
    var file: VaultFile { get }
    /// The keys held: a value of its own in each copy.
    var keys: KeyRing { get }
    /// The path the file was read from, for errors.
    var path: String { get }
    /// Whether this machine's device key is the one the vault's device-bound items are sealed with.
    var deviceMatches: Bool { get }
    /// Whether the keys may change the vault: a full ring, or a scoped credential holding its groups' write keys.
    var isWritable: Bool { get }
    /// The groups a scoped credential limits the ring to; nil when not limited.
    var scope: Set<GroupID>? { get }
    /// The header as read and its MAC: a ring without the header MAC key
    /// (a scoped credential) may write the file only with this header unchanged.
    var storedHeader: (parameters: ArraySlice<UInt8>, mac: [UInt8])? { get }
    /// The key epoch's signing key, held with the wrap key: the owner and
    /// full members sign every header they write with it (docs/TEAMS.md, "Trust").
    var signingKey: SigningKey? { get }
    /// The vault's trust key, held with the master key alone: it signs
    /// the trust statement that vouches for each key epoch's signing key.
    var trustKey: TrustKey? { get }
    /// What the header as read vouched for: while a write keeps it, the trust statement read is
    /// kept (a full member's write must). Nil for a vault made or re-keyed in memory.
    var trustAsRead: TrustFields? { get }
    /// The header parameters and checksum as read: what the header signature is checked over.
    var header: [UInt8] { get }
    /// Groups whose section failed its MAC: left out of the ring, so they take down only themselves.
    var damagedGroups: [DamagedGroup] { get }
    /// The groups whose index MAC (a write key's) this ring checked; their generations can be trusted.
    var groupsVerifiedByWriteKey: Set<GroupID> { get }
    /// Which index buckets were checked against their digests: every one on opening, unless the
    /// file was opened for lookups only (`IndexCheck`).
    var bucketChecks: BucketChecks { get }
    /// The members, once the owner or a full member has folded the team log: on opening (the member
    /// slots checked against it), or by a working copy's `members()`.
    var roster: [Member]? { get }
    /// One cipher context for every record this value opens.
    var recordOpener: AESGCM.Opener { get }
    /// The record opened last, so a `get` that finds its item by the record's attributes and then
    /// reads its secret decrypts it once.
    var lastOpened: LastOpenedRecord { get }
}

extension OpenVault {
    /// The master key of a full ring.
    func masterKey() throws -> MasterKey {
        guard let masterKey = keys.masterKey else { throw VaultError.locked(nil) }
        return masterKey
    }
}

/// A group whose index failed its MAC.
struct DamagedGroup: Equatable {
    let groupID: GroupID
    let group: AccessGroup
}
