#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe; the handler can reach only globals.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Writes the signal and whether the kernel sent it (a terminal's ^C, a
/// hangup) rather than kill(2), for the event loop to act on outside the handler.
private func noteSignal(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?) {
    let savedErrno = errno
    var record: (UInt8, UInt8) = (UInt8(truncatingIfNeeded: signal), (info?.pointee.si_code ?? 0) == SI_KERNEL ? 1 : 0)
    _ = withUnsafeBytes(of: &record) { write(signalPipeWriteEnd, $0.baseAddress, 2) }
    errno = savedErrno
}

/// One signal caught while a child runs.
struct CaughtSignal {
    var number: Int32
    /// Sent by the kernel on behalf of a terminal, so the terminal's foreground
    /// process group (which may hold the child too) got it as well.
    var fromTerminal: Bool
}

/// Catches the signals `vault run` forwards or needs (INT, TERM, HUP, CHLD,
/// WINCH) through a self-pipe that the event loop polls; restores the old
/// dispositions when done. SIGPIPE is ignored, so a closed stdout is an EPIPE
/// to handle rather than a silent death that would orphan the child.
final class SignalRelay {
    static let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private static let caught = forwarded + [SIGCHLD, SIGWINCH]

    /// Poll this for readability, then call `drain()`.
    let readEnd: Int32
    private let writeEnd: Int32
    private var saved: [Int32: sigaction] = [:]

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw CommandFailure(.failure, "cannot create a pipe: \(String(cString: strerror(errno)))") }
        readEnd = ends[0]
        writeEnd = ends[1]
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWriteEnd = writeEnd
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = noteSignal
        action.sa_flags = SA_SIGINFO | SA_RESTART
        sigemptyset(&action.sa_mask)
        for signal in SignalRelay.caught {
            var old = sigaction()
            sigaction(signal, &action, &old)
            saved[signal] = old
        }
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        var old = sigaction()
        sigaction(SIGPIPE, &ignore, &old)
        saved[SIGPIPE] = old
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in SignalRelay.caught { sigaddset(&unblock, signal) }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// The signals caught since the last call.
    func drain() -> [CaughtSignal] {
        var signals: [CaughtSignal] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            for index in stride(from: 0, to: n - 1, by: 2) {
                signals.append(CaughtSignal(number: Int32(buffer[index]), fromTerminal: buffer[index + 1] == 1))
            }
        }
        return signals
    }

    /// Puts the old dispositions back and closes the pipe.
    func restore() {
        for (signal, var old) in saved { sigaction(signal, &old, nil) }
        signalPipeWriteEnd = -1
        close(readEnd)
        close(writeEnd)
    }
}
