#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// An export read a chunk at a time (64 KiB of locked memory, wiped when done) from a file or
/// stdin, so an importer holds the entry it is reading and not the whole export
/// (docs/IMPORT.md, "Bounds"). Past `ImportLimits.maxExportBytes` it throws `tooLarge`.
package final class ExportStream {
    static let chunkSize = 64 << 10

    private let fd: Int32
    private let closes: Bool
    private let name: String
    private let chunk: SecretBytes
    private var start = 0, end = 0
    /// Bytes consumed before `start` of the chunk: the offset of the next byte in the export.
    private var consumedBefore = 0
    private var atEnd = false

    /// Reads `fd` (stdin: not closed), naming the export `name` (its path, or "stdin") in problems.
    package init(fileDescriptor fd: Int32, name: String, closes: Bool = false) {
        self.fd = fd
        self.closes = closes
        self.name = name
        chunk = SecretBytes(count: ExportStream.chunkSize)
    }

    /// An export already in locked memory (a program's output), read as one chunk.
    package init(bytes: SecretBytes) {
        fd = -1
        closes = false
        name = "the output"
        chunk = bytes
        end = bytes.count
        atEnd = true
    }

    /// Opens the export file at `path`: `noSuchFile` when it is missing, `unreadableFile` when it
    /// cannot be opened or is not a regular file, `tooLarge` before reading one over the limit.
    package static func open(path: String) throws -> ExportStream {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw VaultError.noSuchFile(path: path, kind: .export) }
            throw VaultError.unreadableFile(path: path, kind: .export, errno: errno)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            let code = (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL
            close(fd)
            throw VaultError.unreadableFile(path: path, kind: .export, errno: code)
        }
        guard Int(info.st_size) <= ImportLimits.maxExportBytes else {
            close(fd)
            throw ImportProblem(.named(path), .tooLarge(bytes: Int(info.st_size), limit: ImportLimits.maxExportBytes))
        }
        return ExportStream(fileDescriptor: fd, name: path, closes: true)
    }

    deinit {
        if closes { close(fd) }
    }

    /// The offset in the export of the next byte.
    package var offset: Int { consumedBefore + start }

    /// The next byte without taking it; nil at the end of the export.
    package func peek() throws -> UInt8? {
        if start == end, try !refill() { return nil }
        return chunk.withUnsafeBytes { $0[start] }
    }

    /// The next byte, taken; nil at the end of the export.
    package func next() throws -> UInt8? {
        guard let byte = try peek() else { return nil }
        start += 1
        return byte
    }

    /// Takes bytes while `take` says so, handing each run of them to `body` as it lies in the chunk.
    package func take(while take: (UInt8) -> Bool, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        while true {
            if start == end, try !refill() { return }
            let stop = chunk.withUnsafeBytes { bytes -> Int in
                var at = start
                while at < end, take(bytes[at]) { at += 1 }
                body(UnsafeRawBufferPointer(rebasing: bytes[start..<at]))
                return at
            }
            let stopped = stop < end
            start = stop
            if stopped { return }
        }
    }

    /// Reads the next chunk; false at the end of the export.
    private func refill() throws -> Bool {
        guard !atEnd else { return false }
        consumedBefore += end
        start = 0
        end = 0
        let count = chunk.withUnsafeMutableBytes { buffer -> Int in
            while true {
                let got = read(fd, buffer.baseAddress, buffer.count)
                if got < 0, errno == EINTR { continue }
                if got < 0, errno == EAGAIN {
                    // stdin may be non-blocking: wait for it.
                    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                return got
            }
        }
        guard count >= 0 else { throw VaultError.io(path: name, operation: .read, errno: errno) }
        if count == 0 {
            atEnd = true
            return false
        }
        end = count
        guard consumedBefore + end <= ImportLimits.maxExportBytes else {
            throw ImportProblem(.named(name), .tooLarge(bytes: consumedBefore + end, limit: ImportLimits.maxExportBytes))
        }
        return true
    }
}
