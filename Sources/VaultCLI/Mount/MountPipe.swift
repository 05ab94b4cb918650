#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import VaultCrypto

/// A named pipe that serves secret bytes to the readers that open it, so
/// the bytes never reach a file system: one reader at a time, each given the
/// whole content and then end-of-file, up to `maxReads` readers (0: no limit),
/// after which the path is removed so that a later reader does not block
/// forever. `close()` (when the child of `vault run` has exited) releases any
/// reader blocked in open and removes the path.
final class MountPipe: @unchecked Sendable {
    let path: String
    private let content: SecretBytes
    private let directoryToRemove: String?
    /// Readers still to serve (nil: no limit), and whether `close()` ran.
    private let state: Mutex<(remaining: Int?, closed: Bool)>

    /// Creates the FIFO (mode 0600) and starts serving it on a thread of its own.
    /// `directoryToRemove` is a private directory made for it, removed with it.
    init(path: String, content: SecretBytes, maxReads: Int, directoryToRemove: String?) throws {
        self.path = path
        self.content = content
        self.directoryToRemove = directoryToRemove
        state = Mutex((maxReads == 0 ? nil : maxReads, false))
        try MountPipe.makeFIFO(path)
        var thread = pthread_t()
        let server = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&thread, nil, { argument in
            Unmanaged<MountPipe>.fromOpaque(argument!).takeRetainedValue().serve()
            return nil
        }, server)
        guard started == 0 else {
            Unmanaged<MountPipe>.fromOpaque(server).release()
            unlink(path)
            throw CommandFailure(.failure, "cannot start serving \(quoted(path)): \(String(cString: strerror(started)))")
        }
        pthread_detach(thread)
    }

    private static func makeFIFO(_ path: String) throws {
        guard mkfifo(path, 0o600) == 0 else {
            let reason = errno == EEXIST ? "something already exists there" : String(cString: strerror(errno))
            throw CommandFailure(.usage, "cannot create the pipe \(quoted(path)) for --mount: \(reason)",
                                 hint: "give --mount a path that does not exist yet, in a directory that does")
        }
        // mkfifo applies the umask, which can only take bits away; make it exactly 0600.
        chmod(path, 0o600)
    }

    /// The server thread: waits for a reader, takes the FIFO's name away from
    /// it (a second reader cannot join and split the data) and makes a fresh
    /// FIFO for the next one before writing, so a reader that comes right after
    /// never finds the path missing. Signals stay with vault's main thread, and
    /// a reader that leaves early is an EPIPE, never a SIGPIPE.
    private func serve() {
        var blocked = sigset_t()
        sigfillset(&blocked)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        while true {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let again: Bool = state.withLock { state in
                guard !state.closed else { return false }
                unlink(path)
                if let remaining = state.remaining { state.remaining = remaining - 1 }
                guard state.remaining.map({ $0 > 0 }) ?? true else { return false }
                return (try? MountPipe.makeFIFO(path)) != nil
            }
            if !state.withLock({ $0.closed }) {
                content.withUnsafeBytes { _ = RelayedStream.write($0, to: fd) }
            }
            Glibc.close(fd)
            if !again { return }
        }
    }

    /// Stops serving: wakes the server thread if it waits for a reader,
    /// releases readers blocked in open (they read end-of-file), removes the path.
    func close() {
        state.withLock { state in
            state.closed = true
            for flags in [O_RDONLY | O_NONBLOCK, O_WRONLY | O_NONBLOCK] {
                let fd = open(path, flags | O_CLOEXEC)
                if fd >= 0 { Glibc.close(fd) }
            }
            unlink(path)
        }
        if let directoryToRemove { rmdir(directoryToRemove) }
    }
}
