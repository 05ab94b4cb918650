#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// The one way vault reads a secret from a descriptor (stdin, the editor's file, the clipboard
/// clearer's handoff): into locked memory that is wiped when freed, and bounded, so a huge input
/// neither fills memory nor lingers in an ordinary array. Credential helpers read their protocol
/// lines through `HelperInput`, which stops at git's blank line.
enum SecretStream {
    /// Everything `fd` gives until end of file, keeping at most about
    /// `limit` + 64 KiB (enough to tell "too large") and discarding the rest,
    /// so a writer on a pipe is never left blocked.
    static func read(_ fd: Int32, limit: Int) -> SecretBytes {
        readCounting(fd, limit: limit).secret
    }

    /// `read`, with the count of every byte `fd` gave, kept or not (for "it is N bytes").
    static func readCounting(_ fd: Int32, limit: Int) -> (secret: SecretBytes, total: Int) {
        var builder = SecretBytesBuilder()
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        defer { chunk.withUnsafeMutableBytes { explicit_bzero($0.baseAddress!, $0.count) } }
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            total += n
            if builder.count <= limit { chunk.withUnsafeBytes { builder.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } }
        }
        return (builder.finish(), total)
    }
}
