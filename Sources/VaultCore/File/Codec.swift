/// Big-endian writer for the vault file and bundles.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    // One copy of the big-endian bytes, not an append per byte: index MACs
    // encode every entry on each open. A typed buffer takes Array's memcpy path.
    mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    mutating func raw<C: Collection>(_ data: C) where C.Element == UInt8 { bytes.append(contentsOf: data) }

    /// Zeroes what was written, for buffers that held key material.
    mutating func wipeBytes() {
        for i in bytes.indices { bytes[i] = 0 }
    }

    /// A u32 length followed by the bytes.
    mutating func lengthPrefixed<C: Collection>(_ data: C) where C.Element == UInt8 {
        u32(UInt32(data.count))
        bytes.append(contentsOf: data)
    }
}

/// Thrown by `ByteReader` when the input ends early or holds an impossible value.
struct MalformedInput: Error {
    /// What is damaged.
    let damage: Damage

    init(_ damage: Damage) { self.damage = damage }
}

/// Big-endian reader over a byte buffer; every read checks bounds.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset == bytes.count }

    mutating func u8() throws -> UInt8 {
        try need(1, .byte)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws -> UInt16 {
        try need(2, .value16)
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func u32() throws -> UInt32 {
        try need(4, .value32)
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | UInt32(bytes[offset + i]) }
        offset += 4
        return value
    }

    mutating func u64() throws -> UInt64 {
        try need(8, .value64)
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(bytes[offset + i]) }
        offset += 8
        return value
    }

    mutating func raw(_ count: Int) throws -> ArraySlice<UInt8> {
        try need(count, .bytes(count))
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// A u32 length, at most `limit`, followed by that many bytes.
    mutating func lengthPrefixed(limit: Int) throws -> ArraySlice<UInt8> {
        let count = Int(try u32())
        guard count <= limit else { throw MalformedInput(.lengthOverLimit(count, limit: limit)) }
        return try raw(count)
    }

    /// Throws `truncated` when fewer than `count` bytes remain (`expected` says what they hold).
    private func need(_ count: Int, _ expected: Damage.Extent) throws {
        guard count >= 0, remaining >= count else {
            throw MalformedInput(.truncated(expected: expected, offset: offset))
        }
    }
}
