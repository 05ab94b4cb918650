#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on the directory that holds a vault: every writer of
/// a vault in it takes this lock. flock (not fcntl) because fcntl locks vanish
/// when any descriptor of the file closes; the directory (not the vault file)
/// because the atomic rename swaps the file's inode, and (not a sidecar lock
/// file) because a vault may sit in a git work tree, where a lock file would
/// show up in `git status`.
final class DirectoryLock {
    private let fd: Int32

    /// Blocks until the lock is held.
    init(directory: String) throws {
        fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError.io(path: directory, operation: "open", errno: errno) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            throw VaultError.io(path: directory, operation: "lock", errno: code)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
