#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// Reads a protocol that sends one JSON request per line and waits for the reply before the next
/// (cargo's): each line into a wiped buffer, at most `HelperInput.limit` bytes. It reads one byte
/// at a time, so nothing past the line is taken from the pipe.
struct HelperLineReader {
    let fd: Int32

    init(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
    }

    /// The next line without its `\n` (or `\r\n`), or nil at the end of the input.
    ///
    /// - Throws: `UsageError` when a line is over `HelperInput.limit` bytes.
    func next() throws -> SecretBytes? {
        let buffer = SecretBytes(count: HelperInput.limit + 1)
        var sawEnd = false
        let length = buffer.withUnsafeMutableBytes { bytes -> Int in
            var filled = 0
            while filled < bytes.count {
                let n = Glibc.read(fd, bytes.baseAddress! + filled, 1)
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    sawEnd = true
                    break
                }
                if bytes[filled] == 0x0A { return filled }
                filled += 1
            }
            return filled
        }
        if sawEnd, length == 0 { return nil }
        guard length <= HelperInput.limit else {
            throw UsageError("a request line is over 64 KiB", hint: "send one JSON request per line")
        }
        return buffer.withUnsafeBytes { bytes in
            let end = length > 0 && bytes[length - 1] == 0x0D ? length - 1 : length
            return SecretBytes(UnsafeRawBufferPointer(rebasing: bytes[0..<end]))
        }
    }
}
