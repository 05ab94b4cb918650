import VaultCrypto

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

    /// A table slot for the id under `key` (odd multipliers): the high halves of full-width
    /// products, which depend on every bit of the id, so that without the key no one can choose
    /// ids that crowd one slot (a low half depends only on the bits below it).
    func probe(_ key: (UInt64, UInt64, UInt64)) -> Int {
        let first = (high ^ key.2).multipliedFullWidth(by: key.0).high
        let second = (low &+ first).multipliedFullWidth(by: key.1).high
        return Int(truncatingIfNeeded: second ^ (first >> 17))
    }

    /// Which of `count` buckets (a power of two) the id falls in: its first bits.
    func bucket(among count: Int) -> Int {
        count <= 1 ? 0 : Int(truncatingIfNeeded: high >> UInt64(64 - count.trailingZeroBitCount))
    }

    /// The first 16 bytes of `bytes`.
    init(loadingFrom bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { Bytes16(loadingFrom: $0.baseAddress!) }
    }

    /// 16 random bytes: a new record or item id.
    static func random() -> Bytes16 { Bytes16(SecureRandom.bytes(16)) }

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
