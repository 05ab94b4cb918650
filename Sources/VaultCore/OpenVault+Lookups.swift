import VaultCrypto

/// How much of the index an opening checks against the group sections' bucket digests.
enum IndexCheck {
    /// Every bucket of every group the ring holds, when the file is opened: what every
    /// command but a lookup by service and account needs.
    case everyBucket
    /// None when the file is opened (the group MACs over the digests are checked); each
    /// lookup by service and account checks the one bucket of each group its tag falls in
    /// before it reads any entry there, so `get` at 100 000 items hashes about a thousand entries, not all of them.
    case lookupsOnly
}

/// The index buckets an opening for lookups has checked, and the groups where one failed
/// (they then count as damaged, as a group whose MAC fails does). A class, so a read that
/// checks a bucket records it without a mutable vault: the record only ever grows.
final class BucketChecks {
    let everyBucket: Bool
    private var checked: Set<Key> = []
    private(set) var damaged: [OpenVault.DamagedGroup] = []

    private struct Key: Hashable {
        let groupID: GroupID
        let bucket: Int
    }

    init(everyBucket: Bool) { self.everyBucket = everyBucket }

    func isChecked(_ groupID: GroupID, bucket: Int) -> Bool { everyBucket || checked.contains(Key(groupID: groupID, bucket: bucket)) }

    fileprivate func record(_ groupID: GroupID, bucket: Int) { checked.insert(Key(groupID: groupID, bucket: bucket)) }

    fileprivate func recordDamage(_ group: OpenVault.DamagedGroup) {
        if !damaged.contains(group) { damaged.append(group) }
    }
}

extension Query {
    /// What opening must check for this query: a lookup by service and account needs only the buckets its tags fall in.
    var indexCheck: IndexCheck { service != nil && account != nil ? .lookupsOnly : .everyBucket }
}

extension OpenVault {
    /// The groups whose section failed when the file was opened, and those a lookup found a damaged bucket in.
    var allDamagedGroups: [DamagedGroup] { damagedGroups + bucketChecks.damaged }

    /// Whether the index bucket of `groupID` that `tag` falls in matches its digest in the group's
    /// section (whose MACs were checked on opening), checking it now if it was not; a bucket that
    /// does not match makes its group damaged. A v1 file's index was checked whole on opening.
    func lookupBucketIsIntact(_ groupID: GroupID, tag: Bytes16) -> Bool {
        guard file.version >= 2, !bucketChecks.everyBucket,
              let slot = file.groups.firstIndex(where: { $0.groupID == groupID }) else { return true }
        if bucketChecks.damaged.contains(where: { $0.groupID == groupID }) { return false }
        let digests = file.sections[slot].bucketDigests
        let bucket = tag.bucket(among: digests.count)
        if bucketChecks.isChecked(groupID, bucket: bucket) { return true }
        let computed = file.index.bucketDigests([groupID: (digests.count, [bucket])])[groupID]?[bucket]
        guard computed == digests[bucket] else {
            if let held = keys.groups[groupID] { bucketChecks.recordDamage(DamagedGroup(groupID: groupID, group: held.group)) }
            return false
        }
        bucketChecks.record(groupID, bucket: bucket)
        return true
    }

    /// Before a write of a vault opened for lookups: every index bucket the change touched must have
    /// been checked before it was changed (a lookup there does that), or rehashing it would launder
    /// whatever someone put there; a group spread over another bucket count has its other buckets,
    /// unchanged since they were read, checked now. Throws what a failed check means.
    func checkBucketsBeforeWriting(_ groupID: GroupID, newBucketCount: Int) throws {
        guard file.version >= 2, !bucketChecks.everyBucket,
              let slot = file.groups.firstIndex(where: { $0.groupID == groupID }) else { return }
        let stored = file.sections[slot].bucketDigests
        guard !stored.isEmpty else { return }  // a group made by this change: nothing was read of it
        guard let touched = file.index.changes.buckets(of: groupID, among: stored.count),
              touched.allSatisfy({ bucketChecks.isChecked(groupID, bucket: $0) }) else {
            throw VaultError.corrupted(path: path, detail: "a change to an index bucket that was not checked")
        }
        guard newBucketCount != stored.count else { return }
        let untouched = Set(stored.indices).subtracting(touched)
        let computed = file.index.bucketDigests([groupID: (stored.count, untouched)])[groupID] ?? [:]
        guard untouched.allSatisfy({ computed[$0] == stored[$0] }) else {
            throw VaultError.corrupted(path: path, detail: "an index bucket does not match its digest")
        }
    }

    /// Whether the entry at `position` lies in a bucket checked against its digest.
    func entryIsChecked(at position: Int) -> Bool {
        guard file.version >= 2, !bucketChecks.everyBucket,
              let slot = file.groups.firstIndex(where: { $0.groupID == file.index.groupID(at: position) }) else { return true }
        let bucket = file.index.lookupTag(at: position).bucket(among: file.sections[slot].bucketDigests.count)
        return bucketChecks.isChecked(file.index.groupID(at: position), bucket: bucket)
    }
}
