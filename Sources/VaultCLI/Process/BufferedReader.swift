#if canImport(Glibc)
import Glibc
#endif

/// Reads a descriptor through a buffer, a line or an exact count at a time.
final class BufferedReader {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0

    init(_ fd: Int32) {
        self.fd = fd
    }

    /// Refills the buffer when it is empty; false at the end of input.
    private func fill() -> Bool {
        guard start == end else { return true }
        start = 0
        end = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            end = n
            return true
        }
    }

    /// The next line without its newline, or nil at the end of input.
    func readLine() -> [UInt8]? {
        var line: [UInt8] = []
        while fill() {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                line += buffer[start..<newline]
                start = newline + 1
                return line
            }
            line += buffer[start..<end]
            start = end
        }
        return line.isEmpty ? nil : line
    }

    /// Reads up to `target.count` bytes; 0 at the end of input.
    func read(into target: UnsafeMutableRawBufferPointer) -> Int {
        guard !target.isEmpty, fill() else { return 0 }
        let count = min(target.count, end - start)
        buffer.withUnsafeBytes { target.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: count) }
        start += count
        return count
    }
}
