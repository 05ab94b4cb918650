import VaultCrypto

/// How much of the index an opening checks against the group sections' bucket digests.
enum IndexCheck {
    /// Every bucket of every group the ring holds, when the file is opened: what every
    /// command but a read by service and account needs, and every write.
    case everyBucket
    /// None when the file is opened (the group MACs over the digests are checked), and the index
    /// is not even copied out of the file: each lookup by service and account copies out the one
    /// bucket of each group its tag falls in, checks that copy and reads only it, so `get` at
    /// 100 000 items hashes about a thousand entries, not all of them. Never written.
    case lookupsOnly
}

/// What the lookups of a vault opened for lookups only have checked: the entries found in
/// checked copies of their buckets, by position, and the groups where a bucket failed (they then
/// count as damaged, as a group whose MAC fails does). A class, so a read that checks a bucket
/// records it without a mutable vault: the record only ever grows.
final class BucketChecks {
    let everyBucket: Bool
    private(set) var damaged: [DamagedGroup] = []
    private var entries: [Int: IndexEntry] = [:]
    /// Per group, how many lookups were made in it, and from the second on (a `vault run` with
    /// many references) the positions of every bucket, found in one pass over the index.
    private var lookups: [GroupID: Int] = [:]
    private var bucketPositions: [GroupID: BucketedPositions] = [:]

    init(everyBucket: Bool) { self.everyBucket = everyBucket }

    fileprivate func record(_ entry: IndexEntry, at position: Int) { entries[position] = entry }

    /// The entry at `position` as a lookup's checked copy held it.
    func entry(at position: Int) -> IndexEntry? { entries[position] }

    fileprivate func recordDamage(_ group: DamagedGroup) {
        if !damaged.contains(group) { damaged.append(group) }
    }

    /// The positions of `index`'s entries of `groupID` in `bucket`: the first lookup in a group
    /// scans for its bucket alone (a `get` makes one), later ones read every bucket's from one scan.
    fileprivate func positions(inBucket bucket: Int, of groupID: GroupID, among bucketCount: Int, in index: IndexTable) -> [Int] {
        if let buckets = bucketPositions[groupID] { return buckets[bucket] }
        lookups[groupID, default: 0] += 1
        guard lookups[groupID]! > 1 else { return index.positions(inBucket: bucket, of: groupID, among: bucketCount) }
        let buckets = index.positionsByBucket(of: groupID, among: bucketCount)
        bucketPositions[groupID] = buckets
        return buckets[bucket]
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
        guard file.version >= 2, !bucketChecks.everyBucket else { return file.index.positions(groupID: groupID, tag: tag) }
        guard let slot = file.groups.firstIndex(where: { $0.groupID == groupID }) else { return [] }
        if bucketChecks.damaged.contains(where: { $0.groupID == groupID }) { return nil }
        let digests = file.sections[slot].bucketDigests
        let bucket = tag.bucket(among: digests.count)
        let positions = bucketChecks.positions(inBucket: bucket, of: groupID, among: digests.count, in: file.index)
        let copy = file.index.copyOfEntries(at: positions)
        guard SHA256.hash(copy) == digests[bucket] else {
            if let held = keys.groups[groupID] { bucketChecks.recordDamage(DamagedGroup(groupID: groupID, group: held.group)) }
            return nil
        }
        return copy.withUnsafeBytes { encoded in
            positions.indices.compactMap { number -> Int? in
                let entry = IndexEntry(v2At: encoded.baseAddress! + number * IndexEntry.v2Size)
                guard entry.tag == tag else { return nil }
                bucketChecks.record(entry, at: positions[number])
                return positions[number]
            }
        }
    }

    /// The entry at `position`, as checked: from a lookup's checked copy when the file was opened for
    /// lookups (its index is read in place, and the file may have changed since), else from the index.
    func checkedEntry(at position: Int) throws -> IndexEntry {
        guard !bucketChecks.everyBucket else { return file.index[position] }
        guard let entry = bucketChecks.entry(at: position) else {
            throw VaultError.corrupted(path: path, detail: .violates(.uncheckedBucket))
        }
        return entry
    }
}
