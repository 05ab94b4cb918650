import VaultCrypto

/// The lookup index: its entries as format v2 lays them out, 89 bytes each,
/// back to back, in a private copy of the file's (a mapped file can change
/// under the reader, so the MACs are checked over the copy, and only the copy
/// is read) — or, for a read that only looks items up (`IndexCheck.lookupsOnly`),
/// in the file itself, where a lookup copies out the one bucket it checks and
/// uses only that copy (`OpenVault.checkedLookup`). An entry is decoded when it is used, so opening a vault of
/// 100 000 items to read one decodes none of the others, and a write hands
/// the same bytes to the MACs and the file without encoding them again.
/// A v1 file's entries are held in the v2 layout, without item ids or digests.
///
/// The table remembers which index buckets its changes touched (`Changes`), so a
/// write rehashes only those (docs/FORMAT.md, "Group sections").
struct IndexTable: RandomAccessCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral {
    private var bytes: [UInt8]
    /// The file's own entries, when the table reads them in place; nil when it holds `bytes`.
    private var inPlace: StoredBytes?
    private static let size = IndexEntry.v2Size
    private static let tagOffset = 32
    private static let groupOffset = 48
    /// What changed since the table was read from a file.
    private(set) var changes = Changes.everything

    /// The entries a table's changes removed, added or replaced, by group and lookup tag:
    /// what names their buckets whatever a group's bucket count is.
    struct Changes {
        /// Every entry counts as changed: a table made in memory, not read from a file.
        var all: Bool
        var touched: [GroupID: [Bytes16]]

        static let everything = Changes(all: true, touched: [:])
        static let none = Changes(all: false, touched: [:])

        /// The buckets of `groupID`, among `bucketCount`, that hold a changed entry; nil when all may.
        func buckets(of groupID: GroupID, among bucketCount: Int) -> Set<Int>? {
            all ? nil : Set((touched[groupID] ?? []).map { $0.bucket(among: bucketCount) })
        }
    }

    init() { bytes = [] }

    init(arrayLiteral entries: IndexEntry...) { self.init(entries) }

    init(_ entries: some Sequence<IndexEntry>) {
        bytes = []
        for entry in entries { entry.append(to: &bytes) }
    }

    /// Entries encoded back to back in the v2 layout (`encoded.count` a multiple of the entry size),
    /// as a file held them: nothing counts as changed.
    init(encoded: [UInt8]) {
        precondition(encoded.count % IndexTable.size == 0, "an index of partial entries")
        bytes = encoded
        changes = .none
    }

    /// The entries of a mapped file, read where they are; a change copies them first.
    init(inPlace encoded: StoredBytes) {
        precondition(encoded.count % IndexTable.size == 0, "an index of partial entries")
        bytes = []
        inPlace = encoded
        changes = .none
    }

    /// Whether the entries are read in the file itself (a mapping another program may write to).
    var isInPlace: Bool { inPlace != nil }

    /// Copies entries read in place into private memory, before a change.
    private mutating func own() {
        guard let inPlace else { return }
        bytes = inPlace.bytes
        self.inPlace = nil
    }

    /// Forgets the changes: the table is now what the file holds.
    mutating func markWritten() { changes = .none }

    private mutating func noteChange(at position: Int) {
        guard !changes.all else { return }
        changes.touched[groupID(at: position), default: []].append(lookupTag(at: position))
    }

    var startIndex: Int { 0 }
    var endIndex: Int { (inPlace?.count ?? bytes.count) / IndexTable.size }

    subscript(position: Int) -> IndexEntry {
        get {
            precondition(indices.contains(position), "an index position out of range")
            return withEncoded { IndexEntry(v2At: $0.baseAddress! + position * IndexTable.size) }
        }
        set {
            precondition(indices.contains(position), "an index position out of range")
            own()
            noteChange(at: position)
            bytes.withUnsafeMutableBytes { newValue.store(to: $0.baseAddress! + position * IndexTable.size) }
            noteChange(at: position)
        }
    }

    mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with entries: C) where C.Element == IndexEntry {
        own()
        for position in subrange { noteChange(at: position) }
        var replacement: [UInt8] = []
        for entry in entries {
            entry.append(to: &replacement)
            if !changes.all { changes.touched[entry.groupID, default: []].append(entry.tag) }
        }
        bytes.replaceSubrange(subrange.lowerBound * IndexTable.size..<subrange.upperBound * IndexTable.size, with: replacement)
    }

    /// Calls `body` with every entry encoded as the file holds them (v2).
    func withEncoded<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let inPlace { return try inPlace.withUnsafeBytes(body) }
        return try bytes.withUnsafeBytes(body)
    }

    /// The encoded entries, to write.
    var stored: StoredBytes { inPlace ?? StoredBytes(bytes) }

    /// The positions of the entries of `groupID` in `bucket` (of `bucketCount`), in index order.
    func positions(inBucket bucket: Int, of groupID: GroupID, among bucketCount: Int) -> [Int] {
        var positions: [Int] = []
        forEachEntry(of: groupID, among: bucketCount) { position, entryBucket in
            if entryBucket == bucket { positions.append(position) }
        }
        return positions
    }

    /// The positions of the entries of `groupID` in each of its `bucketCount` buckets, in index
    /// order, from one pass over the index: for many lookups in one group.
    func positionsByBucket(of groupID: GroupID, among bucketCount: Int) -> BucketedPositions {
        // Two passes, counting and then placing, rather than one that gathers every entry first.
        var starts = [Int32](repeating: 0, count: bucketCount + 1)
        forEachEntry(of: groupID, among: bucketCount) { _, bucket in starts[bucket + 1] += 1 }
        for bucket in 0..<bucketCount { starts[bucket + 1] += starts[bucket] }
        var next = starts
        var positions = [Int32](repeating: 0, count: Int(starts[bucketCount]))
        forEachEntry(of: groupID, among: bucketCount) { position, bucket in
            positions[Int(next[bucket])] = Int32(position)
            next[bucket] += 1
        }
        return BucketedPositions(starts: starts, positions: positions)
    }

    private func forEachEntry(of groupID: GroupID, among bucketCount: Int, _ body: (_ position: Int, _ bucket: Int) -> Void) {
        withEncoded { encoded in
            let base = encoded.baseAddress!
            for position in 0..<count {
                let at = base + position * IndexTable.size
                guard UInt32(bigEndian: at.loadUnaligned(fromByteOffset: IndexTable.groupOffset, as: UInt32.self)) == groupID.rawValue
                else { continue }
                body(position, Bytes16(loadingFrom: at + IndexTable.tagOffset).bucket(among: bucketCount))
            }
        }
    }

    /// A private copy of the encoded entries at `positions`: what a lookup checks against its
    /// bucket's digest and then reads.
    func copyOfEntries(at positions: [Int]) -> [UInt8] {
        withEncoded { encoded in
            var copy: [UInt8] = []
            copy.reserveCapacity(positions.count * IndexTable.size)
            for position in positions {
                copy.append(
                    contentsOf: UnsafeRawBufferPointer(rebasing: encoded[(position * IndexTable.size)..<((position + 1) * IndexTable.size)])
                )
            }
            return copy
        }
    }

    /// The group id of the entry at `position`, read without decoding the rest of it.
    func groupID(at position: Int) -> GroupID {
        withEncoded {
            GroupID(
                UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: position * IndexTable.size + IndexTable.groupOffset, as: UInt32.self)))
        }
    }

    /// How many entries each group has, counted without decoding them.
    func entryCounts() -> [GroupID: Int] {
        var counts: [GroupID: Int] = [:]
        // Neighbouring entries mostly share a group: count runs, not entries, into the dictionary.
        var run: (groupID: GroupID, count: Int)?
        for position in indices {
            let groupID = groupID(at: position)
            if run?.groupID == groupID {
                run!.count += 1
            } else {
                if let run { counts[run.groupID, default: 0] += run.count }
                run = (groupID, 1)
            }
        }
        if let run { counts[run.groupID, default: 0] += run.count }
        return counts
    }

    /// The lookup tag of the entry at `position`, read without decoding the rest of it.
    func lookupTag(at position: Int) -> Bytes16 {
        withEncoded { Bytes16(loadingFrom: $0.baseAddress! + position * IndexTable.size + IndexTable.tagOffset) }
    }

    /// The digests of index buckets: for each group asked for, the SHA-256 of the entries of the
    /// group whose lookup tag falls in the bucket (`Bytes16.bucket(among:)`), in index order,
    /// 89 bytes each, back to back (docs/FORMAT.md, "Group sections"). `wanted` gives each group's
    /// bucket count and the buckets to hash (nil: all of them). Each bucket's entries are gathered
    /// in one buffer and hashed in one piece.
    func bucketDigests(_ wanted: [GroupID: (bucketCount: Int, buckets: Set<Int>?)]) -> [GroupID: [Int: [UInt8]]] {
        guard !wanted.isEmpty else { return [:] }
        // Slot numbers: each wanted group's buckets get consecutive ones after the groups before it.
        var firstSlot: [GroupID: Int] = [:]
        var slotCount = 0
        for (groupID, want) in wanted {
            firstSlot[groupID] = slotCount
            slotCount += want.bucketCount
        }
        var included = [Bool](repeating: false, count: slotCount)
        for (groupID, want) in wanted {
            for bucket in want.buckets ?? Set(0..<want.bucketCount) where bucket < want.bucketCount {
                included[firstSlot[groupID]! + bucket] = true
            }
        }
        return withEncoded { encoded in
            let base = encoded.baseAddress!
            var slots = [Int](repeating: -1, count: count)
            var sizes = [Int](repeating: 0, count: slotCount)
            var lastGroup: (id: UInt32, first: Int, bucketCount: Int)?
            for position in 0..<count {
                let at = base + position * IndexTable.size
                let groupID = UInt32(bigEndian: at.loadUnaligned(fromByteOffset: IndexTable.groupOffset, as: UInt32.self))
                if lastGroup?.id != groupID {
                    guard let first = firstSlot[GroupID(groupID)] else { continue }
                    lastGroup = (groupID, first, wanted[GroupID(groupID)]!.bucketCount)
                }
                let slot = lastGroup!.first + Bytes16(loadingFrom: at + IndexTable.tagOffset).bucket(among: lastGroup!.bucketCount)
                guard included[slot] else { continue }
                slots[position] = slot
                sizes[slot] += IndexTable.size
            }
            // The positions in slot order (a counting sort). Each bucket's entries are copied into one
            // small buffer, used again for every bucket: a copy of the whole index cost `list` at
            // 100 000 items a page fault for every 46 entries.
            var starts = [Int](repeating: 0, count: slotCount + 1)
            for slot in 0..<slotCount { starts[slot + 1] = starts[slot] + sizes[slot] / IndexTable.size }
            var cursors = starts
            var ordered = [Int](repeating: 0, count: starts[slotCount])
            for position in 0..<count where slots[position] >= 0 {
                ordered[cursors[slots[position]]] = position
                cursors[slots[position]] += 1
            }
            var bucket: [UInt8] = []
            bucket.reserveCapacity(sizes.max() ?? 0)
            var digests: [GroupID: [Int: [UInt8]]] = [:]
            for (groupID, first) in firstSlot {
                for number in 0..<wanted[groupID]!.bucketCount where included[first + number] {
                    let slot = first + number
                    bucket.removeAll(keepingCapacity: true)
                    for position in ordered[starts[slot]..<starts[slot + 1]] {
                        bucket.append(contentsOf: UnsafeRawBufferPointer(start: base + position * IndexTable.size, count: IndexTable.size))
                    }
                    digests[groupID, default: [:]][number] = SHA256.hash(bucket)
                }
            }
            return digests
        }
    }

    /// The item id of the entry at `position`, read without decoding the rest of it.
    func itemID(at position: Int) -> Bytes16 {
        withEncoded { Bytes16(loadingFrom: $0.baseAddress! + position * IndexTable.size + 16) }
    }

    /// The position of the entry with item id `id`, by a scan: for a merge, which looks up few.
    func position(ofItemID id: Bytes16) -> Int? {
        indices.first { itemID(at: $0) == id }
    }

    /// The class id of the entry at `position`, read without decoding the rest of it.
    func classID(at position: Int) -> ClassID {
        withEncoded { ClassID($0.load(fromByteOffset: position * IndexTable.size + 52, as: UInt8.self)) }
    }

    /// The sealed length of the entry at `position`, read without decoding the rest of it.
    func length(at position: Int) -> UInt32 {
        withEncoded { UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: position * IndexTable.size + 53, as: UInt32.self)) }
    }

    /// Positions of the entries of `groupID` whose lookup tag is `tag`, scanned over the encoded bytes.
    func positions(groupID: GroupID, tag: Bytes16) -> [Int] {
        withEncoded { encoded in
            var found: [Int] = []
            let base = encoded.baseAddress!
            for position in 0..<count {
                let at = base + position * IndexTable.size
                if Bytes16(loadingFrom: at + IndexTable.tagOffset) == tag,
                    UInt32(bigEndian: at.loadUnaligned(fromByteOffset: IndexTable.groupOffset, as: UInt32.self)) == groupID.rawValue
                {
                    found.append(position)
                }
            }
            return found
        }
    }

    /// The group and lookup tag of every entry, from one pass: for many lookups in one write (an
    /// import), each a set lookup rather than a scan of the whole index.
    func groupTags() -> Set<GroupTag> {
        withEncoded { encoded in
            var tags = Set<GroupTag>(minimumCapacity: count)
            let base = encoded.baseAddress!
            for position in 0..<count {
                let at = base + position * IndexTable.size
                tags.insert(
                    GroupTag(
                        groupID: GroupID(UInt32(bigEndian: at.loadUnaligned(fromByteOffset: IndexTable.groupOffset, as: UInt32.self))),
                        tag: Bytes16(loadingFrom: at + IndexTable.tagOffset)))
            }
            return tags
        }
    }

    /// Whether two entries share an item id. An open-addressing table of positions, probed from
    /// the id mixed with a key drawn once per process (`Bytes16.probe`), so ids forged to collide cannot make it slow;
    /// a write checks this, so at 100 000 entries it must cost less than a Set of ids does.
    var hasRepeatedItemID: Bool {
        let capacity = Swift.max(16, 1 << (Int.bitWidth - (count * 2).leadingZeroBitCount))
        var slots = [Int](repeating: -1, count: capacity)
        let mask = capacity - 1
        return withEncoded { encoded in
            for position in 0..<count {
                let id = Bytes16(loadingFrom: encoded.baseAddress! + position * IndexTable.size + 16)
                var slot = id.probe(IndexTable.probeKey) & mask
                while slots[slot] >= 0 {
                    if Bytes16(loadingFrom: encoded.baseAddress! + slots[slot] * IndexTable.size + 16) == id { return true }
                    slot = (slot + 1) & mask
                }
                slots[slot] = position
            }
            return false
        }
    }

    private static let probeKey: (UInt64, UInt64, UInt64) = {
        let bytes = SecureRandom.bytes(24)
        func odd(_ start: Int) -> UInt64 { bytes[start..<start + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } | 1 }
        return (odd(0), odd(8), odd(16))
    }()
}

/// One group's index positions grouped by bucket, each bucket's in index order (a counting sort).
struct BucketedPositions {
    /// Bucket `b`'s positions are `positions[starts[b]..<starts[b + 1]]`.
    let starts: [Int32]
    let positions: [Int32]

    subscript(bucket: Int) -> [Int] {
        positions[Int(starts[bucket])..<Int(starts[bucket + 1])].map(Int.init)
    }
}

/// An index entry's group and lookup tag: where a lookup by service and account looks.
struct GroupTag: Hashable {
    let groupID: GroupID
    let tag: Bytes16
}
