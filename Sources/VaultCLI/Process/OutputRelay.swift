#if canImport(Glibc)
import Glibc
#endif
import VaultCore
import VaultCrypto

/// One output stream of the child: read from `source`, masked, written to `destination`.
struct RelayedStream {
    var source: Int32
    var destination: Int32
    var masking: MaskingStream
    var open = true

    /// Passes the masker's output on; false when the destination is gone (EPIPE).
    static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var pending = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = Glibc.poll(&pending, 1, -1)
                    continue
                }
                return false
            }
            offset += n
        }
        return true
    }
}

/// The event loop of `vault run`: copies the child's stdout and stderr through
/// their maskers as bytes arrive (never waiting for a newline), forwards
/// keystrokes to a pseudo-terminal, forwards signals, and returns the child's
/// exit status once it has ended and its output is drained.
struct OutputRelay {
    var child: ChildProcess
    let signals: SignalRelay
    /// Forward SIGINT/SIGTERM/SIGHUP that a terminal sent too; off when the
    /// child shares vault's process group and so got them already.
    var forwardTerminalSignals: Bool
    var terminal: PseudoTerminal?
    /// vault's stdin, forwarded to the pseudo-terminal (when stdin is a terminal).
    var keyboard: Int32?
    private var streams: [RelayedStream] = []

    /// How long to wait for more output once the child has ended: a background
    /// process that inherited the pipe must not keep vault alive forever.
    private static let drainQuietMilliseconds: Int32 = 200
    private static let bufferSize = 1 << 18

    init(child: ChildProcess, signals: SignalRelay, forwardTerminalSignals: Bool, terminal: PseudoTerminal?, keyboard: Int32?) {
        self.child = child
        self.signals = signals
        self.forwardTerminalSignals = forwardTerminalSignals
        self.terminal = terminal
        self.keyboard = keyboard
    }

    /// Relays `source` to `destination` through a masker built on `patterns`.
    mutating func relay(_ source: Int32, to destination: Int32, patterns: MaskPatterns) {
        _ = fcntl(source, F_SETFL, fcntl(source, F_GETFL) | O_NONBLOCK)
        streams.append(RelayedStream(source: source, destination: destination, masking: MaskingStream(patterns)))
    }

    /// Runs until the child has exited and its output is drained; returns its status.
    mutating func run() -> Int32 {
        // The child's output holds the secrets until the masker has seen it: locked memory, wiped at the end.
        let buffer = UnsafeMutableRawBufferPointer(
            start: LockedArena.shared.allocate(byteCount: OutputRelay.bufferSize),
            count: OutputRelay.bufferSize)
        defer { LockedArena.shared.deallocate(buffer.baseAddress!, byteCount: buffer.count) }
        // Checked once now and then after each SIGCHLD (not on every read: a waitpid per read costs).
        var exitStatus = child.poll()
        while true {
            let outputOpen = streams.contains(where: \.open)
            if let status = exitStatus, !outputOpen { return status }

            var fds = [pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)]
            for stream in streams { fds.append(pollfd(fd: stream.open ? stream.source : -1, events: Int16(POLLIN), revents: 0)) }
            if let keyboard, exitStatus == nil { fds.append(pollfd(fd: keyboard, events: Int16(POLLIN), revents: 0)) }
            let timeout = exitStatus == nil ? -1 : OutputRelay.drainQuietMilliseconds
            let ready = Glibc.poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                // The child has ended and nothing more came: close what is left.
                closeAll()
                continue
            }
            if fds[0].revents != 0 {
                let caught = signals.drain()
                handle(caught)
                if exitStatus == nil, caught.contains(where: { $0.number == SIGCHLD }) { exitStatus = child.poll() }
            }
            for index in streams.indices where streams[index].open && fds[index + 1].revents != 0 {
                pump(index, buffer)
            }
            if let keyboard, fds.count > streams.count + 1, fds[streams.count + 1].revents != 0 {
                forwardKeyboard(keyboard, buffer)
            }
        }
        closeAll()
        return exitStatus ?? child.poll() ?? 1
    }

    private mutating func handle(_ caught: [CaughtSignal]) {
        for signal in caught {
            switch signal.number {
            case SIGCHLD:
                break  // run() collects the child
            case SIGWINCH:
                terminal?.copyWindowSize()
            default:
                if forwardTerminalSignals || !signal.fromTerminal { child.send(signal.number) }
            }
        }
    }

    /// Reads what is there and passes it through the masker; reads again at
    /// once (a few times, to stay fair to the other stream) while reads fill
    /// the buffer, saving a poll per read on a busy stream.
    private mutating func pump(_ index: Int, _ buffer: UnsafeMutableRawBufferPointer) {
        for _ in 0..<8 {
            let n = read(streams[index].source, buffer.baseAddress, buffer.count)
            if n < 0, errno == EINTR || errno == EAGAIN { return }
            guard n > 0 else {
                // EOF, or EIO from a pseudo-terminal whose every slave is closed.
                close(index)
                return
            }
            let destination = streams[index].destination
            var delivered = true
            streams[index].masking.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { bytes in
                if delivered { delivered = RelayedStream.write(bytes, to: destination) }
            }
            if !delivered {
                // Nobody reads our output any more: stop reading, so the child gets EPIPE in turn.
                streams[index].open = false
                Glibc.close(streams[index].source)
                return
            }
            if n < buffer.count { return }
        }
    }

    private mutating func forwardKeyboard(_ keyboard: Int32, _ buffer: UnsafeMutableRawBufferPointer) {
        guard let terminal else { return }
        let n = read(keyboard, buffer.baseAddress, buffer.count)
        if n < 0, errno == EINTR || errno == EAGAIN { return }
        guard n > 0 else {
            self.keyboard = nil
            return
        }
        _ = RelayedStream.write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), to: terminal.master)
    }

    private mutating func close(_ index: Int) {
        guard streams[index].open else { return }
        let destination = streams[index].destination
        streams[index].masking.finish { _ = RelayedStream.write($0, to: destination) }
        streams[index].open = false
        // The pseudo-terminal's master is closed with it, not here.
        if streams[index].source != terminal?.master { Glibc.close(streams[index].source) }
    }

    private mutating func closeAll() {
        for index in streams.indices { close(index) }
    }
}
