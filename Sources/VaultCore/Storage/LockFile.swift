#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on the sidecar lock file beside the vault. flock (not
/// fcntl) because fcntl locks vanish when any descriptor of the file closes;
/// a sidecar because the atomic rename swaps the vault's inode.
final class LockFile {
    private let fd: Int32

    /// Blocks until the lock is held.
    init(path: String) throws {
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
