#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock`, held until the value is released: on a vault's
/// directory (every writer of a vault takes it), or on a lock file (the
/// keyring backend's per-collection lock, in the runtime directory). flock,
/// not fcntl, because fcntl locks vanish when any descriptor of the file
/// closes; the directory, not the vault file, because the atomic rename swaps
/// the file's inode, and not a lock file beside the vault, because a vault may
/// sit in a git work tree, where such a file would show up in `git status`.
public final class LockFile {
    private let fd: Int32

    /// Blocks until the lock on the file at `path` (created 0600 if missing) is held.
    public convenience init(path: String) throws {
        try self.init(opening: path, flags: O_RDWR | O_CREAT, what: "open lock file")
    }

    /// Blocks until the lock on the directory itself is held.
    convenience init(directory: String) throws {
        try self.init(opening: directory, flags: O_RDONLY | O_DIRECTORY, what: "open")
    }

    private init(opening path: String, flags: Int32, what: String) throws {
        fd = open(path, flags | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: path, operation: what, errno: errno) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            throw VaultError.io(path: path, operation: "lock", errno: code)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
