import VaultCrypto

/// One entry of the lookup index: which record sits where, a keyed tag of
/// its service and account so a lookup decrypts one record, not all, and (v2)
/// the item's stable id and the SHA-256 digest of its sealed record, so one
/// record is verified alone under its group's MACs. Held inline, without heap
/// buffers: every open parses and MACs the whole index.
struct IndexEntry: Equatable {
    /// v1: record id, tag, group id, class id, length.
    static let v1Size = 16 + 16 + 4 + 1 + 4
    /// v2: record id, item id, tag, group id, class id, length, digest.
    static let v2Size = 16 + 16 + 16 + 4 + 1 + 4 + 32

    static func size(version: UInt16) -> Int { version == 1 ? v1Size : v2Size }

    var id: Bytes16
    /// Stable for the item's life (v2); v1 files get one when converted.
    var itemID: Bytes16
    var tag: Bytes16
    var groupID: GroupID
    var classID: ClassID
    var length: UInt32
    /// SHA-256 of the sealed record (v2; zero in v1): the record's revision.
    var digest: (Bytes16, Bytes16)

    init(recordID: [UInt8], itemID: Bytes16, lookupTag: [UInt8], groupID: GroupID, classID: ClassID, sealed: ArraySlice<UInt8>) {
        let hash = sealed.withUnsafeBytes { SHA256.hash($0) }
        self.init(
            id: Bytes16(recordID), itemID: itemID, tag: Bytes16(lookupTag), groupID: groupID, classID: classID,
            length: UInt32(sealed.count), digest: (Bytes16(hash[0..<16]), Bytes16(hash[16..<32])))
    }

    private init(
        id: Bytes16, itemID: Bytes16, tag: Bytes16, groupID: GroupID, classID: ClassID, length: UInt32,
        digest: (Bytes16, Bytes16)
    ) {
        self.id = id
        self.itemID = itemID
        self.tag = tag
        self.groupID = groupID
        self.classID = classID
        self.length = length
        self.digest = digest
    }

    static func == (lhs: IndexEntry, rhs: IndexEntry) -> Bool {
        lhs.id == rhs.id && lhs.itemID == rhs.itemID && lhs.tag == rhs.tag && lhs.groupID == rhs.groupID
            && lhs.classID == rhs.classID && lhs.length == rhs.length && lhs.digest == rhs.digest
    }

    var recordID: [UInt8] { id.bytes }
    var lookupTag: [UInt8] { tag.bytes }

    /// Whether `sealed` is the record this entry's digest names.
    func digestMatches(_ sealed: UnsafeRawBufferPointer) -> Bool {
        // On the stack: a bulk read checks one digest per record.
        withUnsafeTemporaryAllocation(byteCount: 2 * SHA256.digestSize, alignment: 1) { buffer in
            let computed = UnsafeMutableRawBufferPointer(rebasing: buffer[..<SHA256.digestSize])
            SHA256.hash(sealed, into: computed)
            digest.0.store(to: buffer.baseAddress! + SHA256.digestSize)
            digest.1.store(to: buffer.baseAddress! + SHA256.digestSize + 16)
            return constantTimeEquals(UnsafeRawBufferPointer(computed), UnsafeRawBufferPointer(rebasing: buffer[SHA256.digestSize...]))
        }
    }

    /// The same entry with its digest computed from the record (a v1 entry being converted).
    func withDigest(of sealed: ArraySlice<UInt8>, itemID: Bytes16) -> IndexEntry {
        IndexEntry(recordID: recordID, itemID: itemID, lookupTag: lookupTag, groupID: groupID, classID: classID, sealed: sealed)
    }

    /// Writes the entry's v2 encoding (89 bytes) at `at`.
    func store(to at: UnsafeMutableRawPointer) {
        id.store(to: at)
        itemID.store(to: at + 16)
        tag.store(to: at + 32)
        at.storeBytes(of: groupID.rawValue.bigEndian, toByteOffset: 48, as: UInt32.self)
        at.storeBytes(of: classID.rawValue, toByteOffset: 52, as: UInt8.self)
        at.storeBytes(of: length.bigEndian, toByteOffset: 53, as: UInt32.self)
        digest.0.store(to: at + 57)
        digest.1.store(to: at + 73)
    }

    /// Appends the entry's v2 encoding to `bytes`.
    func append(to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: IndexEntry.v2Size))
        bytes.withUnsafeMutableBytes { store(to: $0.baseAddress! + start) }
    }

    /// The v2 entry encoded at `at`.
    init(v2At at: UnsafeRawPointer) {
        self.init(
            id: Bytes16(loadingFrom: at), itemID: Bytes16(loadingFrom: at + 16), tag: Bytes16(loadingFrom: at + 32),
            groupID: GroupID(UInt32(bigEndian: at.loadUnaligned(fromByteOffset: 48, as: UInt32.self))),
            classID: ClassID(at.load(fromByteOffset: 52, as: UInt8.self)),
            length: UInt32(bigEndian: at.loadUnaligned(fromByteOffset: 53, as: UInt32.self)),
            digest: (Bytes16(loadingFrom: at + 57), Bytes16(loadingFrom: at + 73)))
    }

    /// The entries of an encoded v1 index (`bytes.count` a multiple of 41), without item ids or digests.
    static func decode(all bytes: UnsafeRawBufferPointer, version: UInt16) -> [IndexEntry] {
        precondition(version == 1, "v2 entries are read as they are (IndexTable)")
        let count = bytes.count / v1Size
        let zero = Bytes16(loadingFrom: [UInt8](repeating: 0, count: 16))
        return (0..<count).map { number in
            let at = bytes.baseAddress! + number * v1Size
            return IndexEntry(
                id: Bytes16(loadingFrom: at), itemID: zero, tag: Bytes16(loadingFrom: at + 16),
                groupID: GroupID(UInt32(bigEndian: at.loadUnaligned(fromByteOffset: 32, as: UInt32.self))),
                classID: ClassID(at.load(fromByteOffset: 36, as: UInt8.self)),
                length: UInt32(bigEndian: at.loadUnaligned(fromByteOffset: 37, as: UInt32.self)), digest: (zero, zero))
        }
    }
}
