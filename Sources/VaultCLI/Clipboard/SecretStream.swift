#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// Reading a secret from a file descriptor into locked memory.
enum SecretStream {
    /// Everything `fd` gives until end of file, keeping at most about
    /// `limit` + 64 KiB (enough to tell "too large") and discarding the rest,
    /// so a writer on a pipe is never left blocked.
    static func read(_ fd: Int32, limit: Int) -> SecretBytes {
        var builder = SecretBytesBuilder()
        var chunk = [UInt8](repeating: 0, count: 65536)
        defer { chunk.withUnsafeMutableBytes { explicit_bzero($0.baseAddress!, $0.count) } }
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            if builder.count <= limit { chunk.withUnsafeBytes { builder.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } }
        }
        return builder.finish()
    }
}
