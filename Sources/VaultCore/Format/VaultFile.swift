import VaultCrypto

/// The v1 vault file as parsed, before any key is applied: every field of
/// docs/FORMAT.md in order. Decoding checks structure, limits and the header
/// checksum; the header MAC and index MACs are checked by `Unlocker` and
/// `OpenVault`, which hold the keys.
struct VaultFile {
    static let magic: [UInt8] = [0x89, 0x56, 0x41, 0x55, 0x4C, 0x54, 0x0D, 0x0A]  // "\x89VAULT\r\n"
    static let version: UInt16 = 1
    static let idSize = 16
    static let checkSize = 16
    static let digestSize = 32
    static let wrappedKeySize = 12 + 32 + 16
    static let maxKeyslots = 16
    static let maxGroups = 4096
    static let maxRecords = 10_000_000
    static let maxRecordBytes = (1 << 20) + 64 * 1024

    var vaultID: [UInt8]
    /// HMAC of the device key that device-bound items are sealed with.
    var deviceCheck: [UInt8]
    /// The header MAC key sealed under the device key (empty when the vault was made without one).
    var deviceWrappedHeaderMACKey: [UInt8]
    var keyslots: [Keyslot]
    var classes: [WrappedClassKey]
    var groups: [WrappedGroupKey]
    var index: [IndexEntry]
    /// One MAC per group, in `groups` order, over that group's index entries.
    var indexMACs: [[UInt8]]
    /// Sealed records, in index order.
    var records: [ArraySlice<UInt8>]

    /// The vault id of a file, read without parsing the rest; empty when the file is too short.
    static func peekVaultID(_ bytes: [UInt8]) -> [UInt8] {
        let start = magic.count + 2
        guard bytes.count >= start + idSize else { return [] }
        return Array(bytes[start..<start + idSize])
    }

    /// The bytes the header checksum and MAC cover (everything before the checksum).
    func encodeHeaderParameters() -> [UInt8] {
        var w = ByteWriter(capacity: 512)
        w.raw(VaultFile.magic)
        w.u16(VaultFile.version)
        w.raw(vaultID)
        w.raw(deviceCheck)
        w.lengthPrefixed(deviceWrappedHeaderMACKey)
        w.u8(UInt8(keyslots.count))
        for slot in keyslots { slot.encode(into: &w) }
        w.u8(UInt8(classes.count))
        for entry in classes {
            w.u8(entry.classID)
            w.raw(entry.wrapped)
        }
        w.u32(UInt32(groups.count))
        for group in groups { group.encode(into: &w) }
        return w.bytes
    }

    /// The whole file, given its header parameters (from `encodeHeaderParameters()`)
    /// and the header MAC over parameters and checksum; `encodedIndex` is
    /// `IndexEntry.encode(index)` when the caller has it already.
    func encode(parameters: [UInt8], checksum: [UInt8], headerMAC: [UInt8], encodedIndex: [UInt8]? = nil) -> [UInt8] {
        let recordBytes = records.reduce(0) { $0 + $1.count }
        var w = ByteWriter(capacity: parameters.count + 68 + index.count * IndexEntry.size + recordBytes + 32 * groups.count)
        w.raw(parameters)
        w.raw(checksum)
        w.raw(headerMAC)
        w.u32(UInt32(index.count))
        w.raw(encodedIndex ?? IndexEntry.encode(index))
        for mac in indexMACs { w.raw(mac) }
        for record in records { w.raw(record) }
        return w.bytes
    }

    /// Parses a whole file. Throws `MalformedInput` for anything that does not
    /// follow the format, including a header checksum mismatch and trailing bytes.
    static func decode(_ bytes: [UInt8]) throws -> (file: VaultFile, headerMAC: [UInt8], parametersEnd: Int) {
        var r = ByteReader(bytes)
        guard Array(try r.raw(magic.count)) == magic else { throw MalformedInput(detail: "not a vault file (bad magic number)") }
        let version = try r.u16()
        guard version == VaultFile.version else {
            throw MalformedInput(detail: "format version \(version) is not supported (this vault reads version \(VaultFile.version))")
        }
        let vaultID = Array(try r.raw(idSize))
        let deviceCheck = Array(try r.raw(checkSize))
        let deviceWrappedHeaderMACKey = Array(try r.lengthPrefixed(limit: wrappedKeySize))
        let slotCount = Int(try r.u8())
        guard (1...maxKeyslots).contains(slotCount) else { throw MalformedInput(detail: "\(slotCount) keyslots") }
        var keyslots: [Keyslot] = []
        for _ in 0..<slotCount { keyslots.append(try Keyslot.decode(from: &r)) }
        let classCount = Int(try r.u8())
        var classes: [WrappedClassKey] = []
        for _ in 0..<classCount {
            classes.append(WrappedClassKey(classID: try r.u8(), wrapped: Array(try r.raw(wrappedKeySize))))
        }
        let groupCount = Int(try r.u32())
        guard groupCount <= maxGroups else { throw MalformedInput(detail: "\(groupCount) groups") }
        var groups: [WrappedGroupKey] = []
        for _ in 0..<groupCount { groups.append(try WrappedGroupKey.decode(from: &r)) }
        let parametersEnd = r.offset
        let checksum = Array(try r.raw(digestSize))
        guard constantTimeEquals(checksum, SHA256.hash(Array(bytes[0..<parametersEnd]))) else {
            throw MalformedInput(detail: "the header checksum does not match")
        }
        let headerMAC = Array(try r.raw(digestSize))
        let recordCount = Int(try r.u32())
        guard recordCount <= maxRecords, recordCount * IndexEntry.size <= r.remaining else {
            throw MalformedInput(detail: "an index of \(recordCount) records does not fit the file")
        }
        let index = try r.raw(recordCount * IndexEntry.size).withUnsafeBytes { IndexEntry.decode(all: $0) }
        var indexMACs: [[UInt8]] = []
        for _ in 0..<groupCount { indexMACs.append(Array(try r.raw(digestSize))) }
        var records: [ArraySlice<UInt8>] = []
        records.reserveCapacity(recordCount)
        for entry in index {
            guard Int(entry.length) <= maxRecordBytes else { throw MalformedInput(detail: "a record of \(entry.length) bytes") }
            records.append(try r.raw(Int(entry.length)))
        }
        guard r.isAtEnd else { throw MalformedInput(detail: "\(r.remaining) bytes follow the last record") }
        let file = VaultFile(vaultID: vaultID, deviceCheck: deviceCheck, deviceWrappedHeaderMACKey: deviceWrappedHeaderMACKey,
                             keyslots: keyslots, classes: classes,
                             groups: groups, index: index, indexMACs: indexMACs, records: records)
        return (file, headerMAC, parametersEnd)
    }
}

/// A class key wrapped under the vault's wrap key.
struct WrappedClassKey {
    var classID: UInt8
    var wrapped: [UInt8]
}

/// A group: its id, its name and key wrapped under the wrap key, and what
/// this device may open without an unlock, sealed under the device key.
struct WrappedGroupKey {
    static let maxWrappedBytes = 256

    var groupID: UInt32
    /// `HMAC(GK, "vault v1 group key check" ‖ vault id ‖ group id)[0..16]`: tells a
    /// credential holding an older (revoked) group key from a damaged file.
    var keyCheck: [UInt8]
    var wrappedNameAndKey: [UInt8]
    /// The group's lookup and index MAC keys and its `always` base keys, with its name, under the device key.
    var deviceWrapped: [UInt8]

    func encode(into w: inout ByteWriter) {
        w.u32(groupID)
        w.raw(keyCheck)
        w.lengthPrefixed(wrappedNameAndKey)
        w.lengthPrefixed(deviceWrapped)
    }

    static func decode(from r: inout ByteReader) throws -> WrappedGroupKey {
        WrappedGroupKey(groupID: try r.u32(), keyCheck: Array(try r.raw(VaultFile.checkSize)),
                        wrappedNameAndKey: Array(try r.lengthPrefixed(limit: maxWrappedBytes)),
                        deviceWrapped: Array(try r.lengthPrefixed(limit: maxWrappedBytes)))
    }
}

/// One entry of the lookup index: which record sits where, and a keyed tag of
/// its service and account so a lookup decrypts one record, not all. Held
/// inline, without heap buffers: every open parses and MACs the whole index.
struct IndexEntry: Equatable {
    static let size = 16 + 16 + 4 + 1 + 4

    var id: Bytes16
    var tag: Bytes16
    var groupID: UInt32
    var classID: UInt8
    var length: UInt32

    init(recordID: [UInt8], lookupTag: [UInt8], groupID: UInt32, classID: UInt8, length: UInt32) {
        self.init(id: Bytes16(recordID), tag: Bytes16(lookupTag), groupID: groupID, classID: classID, length: length)
    }

    private init(id: Bytes16, tag: Bytes16, groupID: UInt32, classID: UInt8, length: UInt32) {
        self.id = id
        self.tag = tag
        self.groupID = groupID
        self.classID = classID
        self.length = length
    }

    var recordID: [UInt8] { id.bytes }
    var lookupTag: [UInt8] { tag.bytes }

    /// Entries encoded back to back, as the file holds them, in one buffer:
    /// every open MACs the whole index, so this is a hot path.
    static func encode(_ entries: [IndexEntry]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: entries.count * size) { buffer, initialized in
            let base = UnsafeMutableRawPointer(buffer.baseAddress!)
            for (number, entry) in entries.enumerated() {
                let at = base + number * size
                entry.id.store(to: at)
                entry.tag.store(to: at + 16)
                at.storeBytes(of: entry.groupID.bigEndian, toByteOffset: 32, as: UInt32.self)
                at.storeBytes(of: entry.classID, toByteOffset: 36, as: UInt8.self)
                at.storeBytes(of: entry.length.bigEndian, toByteOffset: 37, as: UInt32.self)
            }
            initialized = entries.count * size
        }
    }

    /// The entries of an encoded index (`bytes.count` a multiple of `size`): `encode`'s inverse,
    /// read straight from the buffer, as every open parses the whole index.
    static func decode(all bytes: UnsafeRawBufferPointer) -> [IndexEntry] {
        let count = bytes.count / size
        return [IndexEntry](unsafeUninitializedCapacity: count) { buffer, initialized in
            for number in 0..<count {
                let at = bytes.baseAddress! + number * size
                (buffer.baseAddress! + number).initialize(to: IndexEntry(
                    id: Bytes16(loadingFrom: at), tag: Bytes16(loadingFrom: at + 16),
                    groupID: UInt32(bigEndian: at.loadUnaligned(fromByteOffset: 32, as: UInt32.self)),
                    classID: at.load(fromByteOffset: 36, as: UInt8.self),
                    length: UInt32(bigEndian: at.loadUnaligned(fromByteOffset: 37, as: UInt32.self))))
            }
            initialized = count
        }
    }
}

/// Sixteen bytes as two big-endian words: a record id or lookup tag without an allocation.
struct Bytes16: Hashable {
    private var high: UInt64
    private var low: UInt64

    /// `bytes` must hold exactly 16 bytes.
    init(_ bytes: some Collection<UInt8>) {
        precondition(bytes.count == 16, "Bytes16 from \(bytes.count) bytes")
        high = bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes.dropFirst(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    var bytes: [UInt8] {
        var w = ByteWriter(capacity: 16)
        encode(into: &w)
        return w.bytes
    }

    func encode(into w: inout ByteWriter) {
        w.u64(high)
        w.u64(low)
    }

    /// Appends the 16 bytes to `bytes`.
    func append(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { bytes.append(contentsOf: $0) }
    }

    /// The 16 bytes at `pointer` (no alignment needed).
    init(loadingFrom pointer: UnsafeRawPointer) {
        high = UInt64(bigEndian: pointer.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        low = UInt64(bigEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }

    /// Writes the 16 bytes at `pointer` (no alignment needed).
    func store(to pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
        pointer.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
    }
}
