import VaultCrypto

/// What follows the index for each group: its generation (raised by every
/// write of the group), the digests of its index buckets, and two MACs over
/// them, bound to the header's counters (docs/FORMAT.md, "Group sections").
/// v1 has the index MAC alone, over the entries themselves.
struct GroupSection {
    var generation: UInt64
    /// v2: SHA-256 of each of the group's index buckets (`IndexTable.bucketDigests`), a
    /// power of two of them; the MACs cover these, so one bucket is checked or rehashed alone.
    var bucketDigests: [[UInt8]]
    /// Under IMK[g]: only a writer of the group can make it.
    var indexMAC: [UInt8]
    /// Under RMK[g]: what readers without IMK (read-only credentials, the
    /// device key, the after-first-unlock cache) check; empty in v1.
    var readMAC: [UInt8]

    /// A section whose digests and MACs the next write makes.
    init(generation: UInt64) {
        self.init(generation: generation, bucketDigests: [], indexMAC: [], readMAC: [])
    }

    init(generation: UInt64, bucketDigests: [[UInt8]], indexMAC: [UInt8], readMAC: [UInt8]) {
        self.generation = generation
        self.bucketDigests = bucketDigests
        self.indexMAC = indexMAC
        self.readMAC = readMAC
    }

    /// u64 generation ‖ u16 bucket count ‖ the bucket digests ‖ index MAC ‖ read MAC.
    func encode(into w: inout ByteWriter) {
        w.u64(generation)
        w.u16(UInt16(bucketDigests.count))
        for digest in bucketDigests { w.raw(digest) }
        w.raw(indexMAC)
        w.raw(readMAC)
    }

    /// The encoded size of a v2 section with `bucketCount` digests.
    static func size(bucketCount: Int) -> Int { 8 + 2 + (bucketCount + 2) * VaultFile.digestSize }

    /// A section read through `reader`, which hands out the next `count` bytes of the file.
    static func decode(version: UInt16, reader: (Int) throws -> ByteReader) throws -> GroupSection {
        if version == 1 {
            var r = try reader(VaultFile.digestSize)
            return GroupSection(generation: 0, bucketDigests: [], indexMAC: Array(try r.raw(VaultFile.digestSize)), readMAC: [])
        }
        var head = try reader(10)
        let generation = try head.u64()
        let bucketCount = Int(try head.u16())
        guard Buckets.isValid(bucketCount) else {
            throw MalformedInput(.count(.indexBuckets(max: Buckets.maxCount), bucketCount))
        }
        var r = try reader((bucketCount + 2) * VaultFile.digestSize)
        let digests = try (0..<bucketCount).map { _ in Array(try r.raw(VaultFile.digestSize)) }
        return GroupSection(
            generation: generation, bucketDigests: digests, indexMAC: Array(try r.raw(VaultFile.digestSize)),
            readMAC: Array(try r.raw(VaultFile.digestSize)))
    }
}
