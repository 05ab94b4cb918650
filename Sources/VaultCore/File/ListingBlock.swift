import VaultCrypto

/// One bucket of the listing of a (group, class): the attributes of its items
/// without their secrets, sealed together under a key derived from the pair's
/// base key (and the device key for device-bound classes), so `list` opens a
/// few blocks per pair instead of every record. A pair's items are spread over
/// a power-of-two number of buckets by their item ids, about a thousand to a
/// bucket, so a write seals again only the buckets of the items it changed.
/// Its digest is covered by the group's MACs.
struct ListingBlock {
    static let maxSealedBytes = 1 << 30
    /// Group id, class id, bucket, digest and the sealed bytes' length.
    static let fixedSize = 4 + 1 + 2 + VaultFile.digestSize + 4
    var groupID: GroupID
    var classID: ClassID
    /// 0 ..< the pair's bucket count: the items whose item id falls in it (`Bytes16.bucket(among:)`).
    var bucket: Int
    /// SHA-256 of `sealed`.
    var digest: [UInt8]
    var sealed: StoredBytes

    /// u32 group id ‖ u8 class id ‖ u16 bucket ‖ digest (32) ‖ u32 length of the sealed bytes, which follow.
    func encodeFixedFields(into w: inout ByteWriter) {
        w.groupID(groupID)
        w.classID(classID)
        w.u16(UInt16(bucket))
        w.raw(digest)
        w.u32(UInt32(sealed.count))
    }

    /// Group id, class id, bucket and digest; the caller reads the length and finds the sealed bytes.
    static func decodeFixedFields(from r: inout ByteReader) throws -> ListingBlock {
        ListingBlock(
            groupID: try r.groupID(), classID: try r.classID(), bucket: Int(try r.u16()),
            digest: Array(try r.raw(VaultFile.digestSize)), sealed: StoredBytes([]))
    }

}

extension ListingBlock {
    /// A block holding `sealed`, its digest taken.
    init(groupID: GroupID, classID: ClassID, bucket: Int, sealed: [UInt8]) {
        self.init(groupID: groupID, classID: classID, bucket: bucket, digest: SHA256.hash(sealed), sealed: StoredBytes(sealed))
    }

    /// A copy of the sealed bytes when they match the digest, so that what is checked is what opens
    /// (the file may change under a mapping); nil otherwise.
    var checkedSealedBytes: [UInt8]? {
        let bytes = sealed.bytes
        return constantTimeEquals(SHA256.hash(bytes), digest) ? bytes : nil
    }
}
