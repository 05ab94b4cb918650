#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a lock file in the runtime directory, held until
/// the value is released: the writers' lock of a vault's directory, and the
/// keyring backend's per-collection lock. flock, not fcntl, because fcntl
/// locks vanish when any descriptor of the file closes; a lock file, not the
/// vault file, because the atomic rename swaps the file's inode; in the
/// runtime directory, not beside the vault, because a vault may sit in a git
/// work tree and because another user must not be able to hold it.
package final class LockFile {
    private let fd: Int32

    /// Blocks until the lock on the file at `path` (created 0600 if missing) is held.
    package init(path: String) throws {
        fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: path, operation: .openLockFile, errno: errno) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            throw VaultError.io(path: path, operation: .lock, errno: code)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
