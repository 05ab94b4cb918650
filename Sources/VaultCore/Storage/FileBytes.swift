#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a vault file as read for parsing: mapped read-only from the
/// file when it can be, so a `get` of one item in a large vault touches the
/// header, the index and that record, not the other records, and pays no copy
/// of them. A mapping shows what another program writes to the file in place
/// (vault itself never does: every write renames a new file over the vault),
/// so whatever is checked is copied out first and used only from the copy
/// (`VaultFile.Decoded`, records and listing blocks before their digests). A
/// file truncated in place while it is mapped ends this process with SIGBUS,
/// never with other bytes (docs/SECURITY.md).
final class FileBytes: @unchecked Sendable {
    let count: Int
    /// The open file a mapping was made from, kept open so a write can copy runs of it in the kernel.
    let descriptor: Int32?
    /// Which file the bytes were read from (nil for bytes made in memory): a later read finds it unchanged by this.
    private(set) var identity: FileIdentity?
    private let base: UnsafeRawPointer?
    private let release: (UnsafeRawPointer) -> Void

    /// A copy of `bytes` (files read whole, bytes made in memory, tests).
    init(_ bytes: [UInt8]) {
        count = bytes.count
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { if let source = $0.baseAddress { memory.copyMemory(from: source, byteCount: $0.count) } }
        base = UnsafeRawPointer(memory)
        descriptor = nil
        release = { $0.deallocate() }
    }

    /// The regular file open at `fd`, `size` bytes long (> 0), mapped
    /// read-only; the instance then owns `fd`. Nil when the file cannot be
    /// mapped (the caller keeps `fd` and reads the file).
    init?(mapping fd: Int32, size: Int) {
        guard size > 0 else { return nil }
        let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let mapped, mapped != MAP_FAILED else { return nil }
        count = size
        base = UnsafeRawPointer(mapped)
        descriptor = fd
        identity = FileIdentity(descriptor: fd)
        release = { munmap(UnsafeMutableRawPointer(mutating: $0), size) }
    }

    /// The same bytes, read whole from the file open at `fd` (one that could not be mapped), named by its identity.
    convenience init(_ bytes: [UInt8], readFrom fd: Int32) {
        self.init(bytes)
        identity = FileIdentity(descriptor: fd)
    }

    deinit {
        if let base { release(base) }
        if let descriptor { close(descriptor) }
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// A copy of the bytes in `range`.
    subscript(range: Range<Int>) -> [UInt8] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "a range outside the file")
        return withUnsafeBytes { Array(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// A copy of the first `count` bytes, or of all when there are fewer.
    func prefix(_ count: Int) -> [UInt8] { self[0..<min(count, self.count)] }

    /// A copy of every byte.
    var allBytes: [UInt8] { self[0..<count] }
}

/// Bytes of the file kept where they are until they are used (a record, a
/// listing block's sealed body), or bytes made since it was read.
struct StoredBytes {
    private enum Storage {
        case inFile(FileBytes, Range<Int>)
        case inMemory([UInt8])
    }

    private let storage: Storage

    init(_ bytes: [UInt8]) { storage = .inMemory(bytes) }

    init(_ file: FileBytes, _ range: Range<Int>) { storage = .inFile(file, range) }

    var count: Int {
        switch storage {
        case .inFile(_, let range): return range.count
        case .inMemory(let bytes): return bytes.count
        }
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .inFile(let file, let range): return try file.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        case .inMemory(let bytes): return try bytes.withUnsafeBytes(body)
        }
    }

    /// The file and range the bytes are in, when they are still in the file.
    var fileRange: (FileBytes, Range<Int>)? {
        if case .inFile(let file, let range) = storage { return (file, range) }
        return nil
    }

    /// `pieces` back to back, copied into one array.
    static func joined(_ pieces: [StoredBytes]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces { piece.withUnsafeBytes { bytes.append(contentsOf: $0) } }
        return bytes
    }

    /// A copy of the bytes.
    var bytes: [UInt8] {
        switch storage {
        case .inFile(let file, let range): return file[range]
        case .inMemory(let bytes): return bytes
        }
    }
}
