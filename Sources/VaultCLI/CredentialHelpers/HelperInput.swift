#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// What a credential helper reads on stdin: at most `limit` bytes, kept in a
/// wiped buffer because they hold a password or token. Bad input is a
/// `UsageError` (exit 2) whose message names the problem, never a value from
/// the input, and the vault is not touched.
enum HelperInput {
    /// The most a helper reads; git and docker send a few hundred bytes.
    static let limit = 64 * 1024

    /// Reads `fd` to its end, or for git's protocol up to the first blank line
    /// (git may keep the pipe open, and a person typing ends with a blank line).
    ///
    /// - Throws: `UsageError` when the input is over `limit` bytes.
    static func read(from fd: Int32 = STDIN_FILENO, untilBlankLine: Bool) throws -> SecretBytes {
        let buffer = SecretBytes(count: limit + 1)
        let length = buffer.withUnsafeMutableBytes { bytes -> Int in
            var filled = 0
            while filled < bytes.count {
                let n = Glibc.read(fd, bytes.baseAddress! + filled, bytes.count - filled)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                let scanFrom = filled
                filled += n
                if untilBlankLine, let end = blankLineEnd(UnsafeRawBufferPointer(rebasing: bytes[0..<filled]), from: scanFrom) {
                    return end
                }
            }
            return filled
        }
        guard length <= limit else {
            throw UsageError("the input is over 64 KiB", hint: "send one credential of a few key=value lines or one small JSON object")
        }
        return buffer.withUnsafeBytes { SecretBytes(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
    }

    /// The length up to and including the first empty line (`\n` or `\r\n`)
    /// that ends at or after `from`, or nil when there is none yet.
    static func blankLineEnd(_ bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        for index in from..<bytes.count where bytes[index] == 0x0A {
            var lineStart = index
            if lineStart > 0, bytes[lineStart - 1] == 0x0D { lineStart -= 1 }
            if lineStart == 0 || bytes[lineStart - 1] == 0x0A { return index + 1 }
        }
        return nil
    }
}
