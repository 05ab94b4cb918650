import VaultCrypto

/// The lookup index: its entries as format v2 lays them out, 89 bytes each,
/// back to back, in a private copy of the file's (a mapped file can change
/// under the reader, so the MACs are checked over the copy, and only the copy
/// is read). An entry is decoded when it is used, so opening a vault of
/// 100 000 items to read one decodes none of the others, and a write hands
/// the same bytes to the MACs and the file without encoding them again.
/// A v1 file's entries are held in the v2 layout, without item ids or digests.
struct IndexTable: RandomAccessCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral {
    private var bytes: [UInt8]
    private static let size = IndexEntry.v2Size

    init() { bytes = [] }

    init(arrayLiteral entries: IndexEntry...) { self.init(entries) }

    init(_ entries: some Sequence<IndexEntry>) {
        bytes = []
        for entry in entries { entry.append(to: &bytes) }
    }

    /// Entries encoded back to back in the v2 layout (`encoded.count` a multiple of the entry size).
    init(encoded: [UInt8]) {
        precondition(encoded.count % IndexTable.size == 0, "an index of partial entries")
        bytes = encoded
    }

    var startIndex: Int { 0 }
    var endIndex: Int { bytes.count / IndexTable.size }

    subscript(position: Int) -> IndexEntry {
        get {
            precondition(indices.contains(position), "an index position out of range")
            return withEncoded { IndexEntry(v2At: $0.baseAddress! + position * IndexTable.size) }
        }
        set {
            precondition(indices.contains(position), "an index position out of range")
            bytes.withUnsafeMutableBytes { newValue.store(to: $0.baseAddress! + position * IndexTable.size) }
        }
    }

    mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with entries: C) where C.Element == IndexEntry {
        var replacement: [UInt8] = []
        for entry in entries { entry.append(to: &replacement) }
        bytes.replaceSubrange(subrange.lowerBound * IndexTable.size ..< subrange.upperBound * IndexTable.size, with: replacement)
    }

    /// Calls `body` with every entry encoded as the file holds them (v2).
    func withEncoded<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// The encoded entries, to write.
    var stored: StoredBytes { StoredBytes(bytes) }

    /// The group id of the entry at `position`, read without decoding the rest of it.
    func groupID(at position: Int) -> GroupID {
        withEncoded { GroupID(UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: position * IndexTable.size + 48, as: UInt32.self))) }
    }

    /// The item id of the entry at `position`, read without decoding the rest of it.
    func itemID(at position: Int) -> Bytes16 {
        withEncoded { Bytes16(loadingFrom: $0.baseAddress! + position * IndexTable.size + 16) }
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
                if Bytes16(loadingFrom: at + 32) == tag,
                   UInt32(bigEndian: at.loadUnaligned(fromByteOffset: 48, as: UInt32.self)) == groupID.rawValue {
                    found.append(position)
                }
            }
            return found
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
        func odd(_ start: Int) -> UInt64 { bytes[start ..< start + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } | 1 }
        return (odd(0), odd(8), odd(16))
    }()
}
