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
///
/// The pipe is named only relative to `directory`, a descriptor of a
/// directory nobody else may write, and vault writes only into the FIFO it
/// made: each open follows no link, and what it opened must be a FIFO with the
/// device and inode of the one mkfifo made, which vault holds open (O_PATH)
/// until it removes it, so that no other file can be given that inode in the
/// meantime. Anything else found at the name (a link, a file, another FIFO)
/// is never written to nor removed, and ends the serving with a warning.
final class MountPipe: @unchecked Sendable {
    let path: String
    private let directory: MountDirectory
    private let name: String
    private let content: SecretBytes
    private let directoryToRemove: String?
    private let terminal: Terminal
    /// Readers still to serve (nil: no limit), whether `close()` ran, and the
    /// FIFO now at the name (nil once removed).
    private let state: Mutex<(remaining: Int?, closed: Bool, fifo: MadeFIFO?)>

    /// A FIFO vault made: its device and inode, pinned by a descriptor that
    /// only refers to it (O_PATH: neither a reader nor a writer), closed when
    /// this is released.
    final class MadeFIFO: @unchecked Sendable {
        let device: UInt64
        let inode: UInt64
        private let pin: Int32

        init(pin: Int32, _ info: stat) {
            self.pin = pin
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }

        deinit { Glibc.close(pin) }

        /// Whether `info` describes this FIFO.
        func isSame(as info: stat) -> Bool {
            info.st_mode & S_IFMT == S_IFIFO && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
        }
    }

    /// Creates the FIFO `name` (mode 0600) in `directory` and starts serving
    /// it on a thread of its own. `path` is its full path, for the child and
    /// messages. `directoryToRemove` is a private directory made for it,
    /// removed with it.
    init(
        path: String, directory: MountDirectory, name: String, content: SecretBytes, maxReads: Int,
        directoryToRemove: String?, terminal: Terminal
    ) throws {
        self.path = path
        self.directory = directory
        self.name = name
        self.content = content
        self.directoryToRemove = directoryToRemove
        self.terminal = terminal
        let fifo = try MountPipe.makeFIFO(name, in: directory, path: path)
        state = Mutex((maxReads == 0 ? nil : maxReads, false, fifo))
        var thread = pthread_t()
        let server = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<MountPipe>.fromOpaque(argument!).takeRetainedValue().serve()
                return nil
            }, server)
        guard started == 0 else {
            Unmanaged<MountPipe>.fromOpaque(server).release()
            MountPipe.remove(fifo, name, in: directory)
            throw CommandFailure(.failure, "cannot start serving \(quoted(path)): \(String(cString: strerror(started)))")
        }
        pthread_detach(thread)
    }

    /// Linux's O_PATH, which the Glibc module leaves out (it needs _GNU_SOURCE);
    /// the same value on every architecture Swift builds for.
    private static let pathOnly: Int32 = 0o10_000_000

    /// Makes the FIFO and returns it, checked: a FIFO of this user's, found
    /// without following a link.
    private static func makeFIFO(_ name: String, in directory: MountDirectory, path: String) throws -> MadeFIFO {
        guard mkfifoat(directory.descriptor, name, 0o600) == 0 else {
            let reason = errno == EEXIST ? "something already exists there" : String(cString: strerror(errno))
            throw CommandFailure(
                .usage, "cannot create the pipe \(quoted(path)) for --mount: \(reason)",
                hint: "give --mount a path that does not exist yet, in a directory that does")
        }
        // mkfifo applies the umask, which can only take bits away; make it exactly 0600.
        fchmodat(directory.descriptor, name, 0o600, AT_SYMLINK_NOFOLLOW)
        let pin = openat(directory.descriptor, name, MountPipe.pathOnly | O_NOFOLLOW | O_CLOEXEC)
        var info = stat()
        guard pin >= 0, fstat(pin, &info) == 0, info.st_mode & S_IFMT == S_IFIFO, info.st_uid == geteuid() else {
            if pin >= 0 { Glibc.close(pin) }
            throw CommandFailure(
                .failure, "the pipe \(quoted(path)) for --mount was replaced as soon as it was made",
                hint: "give --mount a path in a directory only you can write")
        }
        return MadeFIFO(pin: pin, info)
    }

    /// Removes the name when it is still the FIFO `fifo`: never what someone else put there.
    private static func remove(_ fifo: MadeFIFO?, _ name: String, in directory: MountDirectory) {
        var info = stat()
        guard let fifo, fstatat(directory.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, fifo.isSame(as: info) else { return }
        unlinkat(directory.descriptor, name, 0)
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
            let fd = openat(directory.descriptor, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
            if fd < 0 {
                let error = errno
                if error == EINTR { continue }
                // A link, a directory, a socket. ENOENT (removed, by close() or the child) is no swap.
                if [ELOOP, EISDIR, ENXIO].contains(error) { warnReplaced() }
                return
            }
            var info = stat()
            let statted = fstat(fd, &info) == 0
            let again: Bool? = state.withLock { state in
                guard !state.closed else { return false }
                guard let fifo = state.fifo, statted, fifo.isSame(as: info) else { return nil }
                MountPipe.remove(fifo, name, in: directory)
                state.fifo = nil
                if let remaining = state.remaining { state.remaining = remaining - 1 }
                guard state.remaining.map({ $0 > 0 }) ?? true else { return false }
                state.fifo = try? MountPipe.makeFIFO(name, in: directory, path: path)
                return state.fifo != nil
            }
            guard let again else {
                // Not the FIFO vault made: not a byte is written to it.
                Glibc.close(fd)
                warnReplaced()
                return
            }
            if !state.withLock({ $0.closed }) {
                content.withUnsafeBytes { _ = RelayedStream.write($0, to: fd) }
            }
            Glibc.close(fd)
            if !again { return }
        }
    }

    private func warnReplaced() {
        guard !state.withLock({ $0.closed }) else { return }
        terminal.diagnostics.warning(
            "something other than vault replaced the --mount pipe \(quoted(path)); "
                + "vault wrote nothing to it and stopped serving it")
    }

    /// Stops serving: wakes the server thread if it waits for a reader,
    /// releases readers blocked in open (they read end-of-file), removes the
    /// path. All of this on the FIFO vault made only.
    func close() {
        state.withLock { state in
            state.closed = true
            var info = stat()
            guard let fifo = state.fifo, fstatat(directory.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
                fifo.isSame(as: info)
            else { return }
            for flags in [O_RDONLY | O_NONBLOCK, O_WRONLY | O_NONBLOCK] {
                let fd = openat(directory.descriptor, name, flags | O_NOFOLLOW | O_CLOEXEC)
                if fd >= 0 { Glibc.close(fd) }
            }
            MountPipe.remove(fifo, name, in: directory)
            state.fifo = nil
        }
        if let directoryToRemove { rmdir(directoryToRemove) }
    }
}
