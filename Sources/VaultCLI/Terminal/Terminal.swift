#if canImport(Glibc)
import Glibc
#endif

/// The process's standard streams: writing data and messages, asking whether
/// a stream is a terminal, and reading a passphrase without echo.
public struct Terminal: Sendable {
    /// -q/--quiet: success messages are left out; warnings and errors still show.
    public var quiet = false

    public init() {}

    public var stdinIsTTY: Bool { isatty(STDIN_FILENO) == 1 }
    public var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
    public var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }
    /// Whether stdin is a pipe (not a file, terminal or socket).
    public var stdinIsPipe: Bool {
        var status = stat()
        return fstat(STDIN_FILENO, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }

    /// Columns of the terminal on stdout, or nil when it is not a terminal.
    public var width: Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes bytes to stdout exactly as given.
    public func writeOut(_ bytes: UnsafeRawBufferPointer) {
        Terminal.writeAll(STDOUT_FILENO, bytes)
    }

    public func writeOut(_ text: String) {
        var text = text
        text.withUTF8 { Terminal.writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }
    }

    public func writeErr(_ text: String) {
        var text = text
        text.withUTF8 { Terminal.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    /// Says what a command did, on stderr as `vault: MESSAGE`, unless quiet.
    public func say(_ message: String) {
        if !quiet { diagnostics.notice(message) }
    }

    /// Reads all of stdin.
    public func readAllInput() -> [UInt8] {
        Terminal.readAll(STDIN_FILENO)
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                break
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
        }
        return result
    }
}

extension Terminal {
    /// Asks for a line on the controlling terminal (/dev/tty) with echo off,
    /// so the answer never shows and stdin stays free for data. Returns nil
    /// when there is no controlling terminal; throws `cancelled` at Ctrl-D.
    public func readHidden(prompt: String) throws -> [UInt8]? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        let isTerminal = tcgetattr(fd, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSANOW, &quiet)
        }
        defer {
            if isTerminal { tcsetattr(fd, TCSANOW, &saved) }
        }
        var newline: UInt8 = 0x0A
        defer { _ = write(fd, &newline, 1) }
        guard var line = Terminal.ask(prompt, on: fd) else { throw Terminal.cancelled }
        if line.last == 0x0D { line.removeLast() }
        return line
    }

    /// Ctrl-D (end of input) at a prompt: the person gave up, so vault stops.
    static let cancelled = CommandFailure(.failure, "cancelled at the prompt; nothing was changed")

    /// Asks a question on the controlling terminal and returns the answer
    /// (echoed as typed), or nil without a terminal; throws `cancelled` at Ctrl-D.
    public func readLine(prompt: String) throws -> String? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let line = Terminal.ask(prompt, on: fd) else { throw Terminal.cancelled }
        return String(decoding: line, as: UTF8.self).filter { !$0.isWhitespace }
    }

    /// Writes `prompt` to the terminal `fd` and reads one line (without its
    /// newline); nil when input ends before anything is typed (Ctrl-D).
    private static func ask(_ prompt: String, on fd: Int32) -> [UInt8]? {
        var text = prompt
        text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n == 0, line.isEmpty { return nil }
            if n <= 0 || byte == 0x0A { break }
            line.append(byte)
        }
        return line
    }

    /// Whether a controlling terminal can be opened for prompts.
    public var hasControllingTerminal: Bool {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }
}
