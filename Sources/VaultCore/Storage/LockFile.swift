#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a lock file, held until the value is released: the
/// per-collection lock of the keyring backend, kept in the runtime directory.
/// flock (not fcntl) because fcntl locks vanish when any descriptor of the
/// file closes. (The vault file's writers lock its directory instead; see
/// `DirectoryLock`.)
public final class LockFile {
    private let fd: Int32

    /// Blocks until the lock is held.
    public init(path: String) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: path, operation: "open lock file", errno: errno) }
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
