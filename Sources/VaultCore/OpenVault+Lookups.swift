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
    /// `lookupsOnly` for a read that changes nothing: the index is not even copied out of the
    /// file; each lookup copies the bucket it checks and reads only that copy.
    case lookupsInPlace
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

    private var entries: [Int: IndexEntry] = [:]

    fileprivate func record(_ entry: IndexEntry, at position: Int) { entries[position] = entry }

    /// The entry at `position` as a lookup's checked copy held it.
    func entry(at position: Int) -> IndexEntry? { entries[position] }

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

    /// The positions of the entries of `groupID` whose lookup tag is `tag`. Opened for lookups, the
    /// bucket the tag falls in is copied out of the index and checked against its digest in the
    /// group's section (whose MACs were checked on opening) first, and the entries found are taken
    /// from that copy (`checkedEntry(at:)`); a bucket that does not match makes its group damaged and
    /// gives nil. A v1 file's index, and one opened with every bucket checked, was checked whole.
    func checkedLookup(_ groupID: GroupID, tag: Bytes16) -> [Int]? {
        guard file.version >= 2, !bucketChecks.everyBucket,
              let slot = file.groups.firstIndex(where: { $0.groupID == groupID }) else {
            return file.index.positions(groupID: groupID, tag: tag)
        }
        if bucketChecks.damaged.contains(where: { $0.groupID == groupID }) { return nil }
        let digests = file.sections[slot].bucketDigests
        let bucket = tag.bucket(among: digests.count)
        let (positions, copy) = file.index.copyOfBucket(bucket, of: groupID, among: digests.count)
        guard SHA256.hash(copy) == digests[bucket] else {
            if let held = keys.groups[groupID] { bucketChecks.recordDamage(DamagedGroup(groupID: groupID, group: held.group)) }
            return nil
        }
        bucketChecks.record(groupID, bucket: bucket)
        return copy.withUnsafeBytes { encoded in
            positions.indices.compactMap { number -> Int? in
                let entry = IndexEntry(v2At: encoded.baseAddress! + number * IndexEntry.v2Size)
                guard entry.tag == tag else { return nil }
                bucketChecks.record(entry, at: positions[number])
                return positions[number]
            }
        }
    }

    /// The entry at `position`, as checked: from a lookup's checked copy when the index is read in
    /// place (the file may have changed since), else from the index, whose bucket must have been checked.
    func checkedEntry(at position: Int) throws -> IndexEntry {
        if file.index.isInPlace {
            guard let entry = bucketChecks.entry(at: position) else {
                throw VaultError.corrupted(path: path, detail: "a record was read from an index bucket not checked against its digest")
            }
            return entry
        }
        guard entryIsChecked(at: position) else {
            throw VaultError.corrupted(path: path, detail: "a record was read from an index bucket not checked against its digest")
        }
        return file.index[position]
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
    private func entryIsChecked(at position: Int) -> Bool {
        guard file.version >= 2, !bucketChecks.everyBucket,
              let slot = file.groups.firstIndex(where: { $0.groupID == file.index.groupID(at: position) }) else { return true }
        let bucket = file.index.lookupTag(at: position).bucket(among: file.sections[slot].bucketDigests.count)
        return bucketChecks.isChecked(file.index.groupID(at: position), bucket: bucket)
    }
}
