/// The system call (or step) on a path that failed (`VaultError.io`); the command line words it.
public enum FileOperation: Equatable, Sendable {
    /// The system call of that name (`touch`: set its times).
    case open, read, stat, write, close, fsync, chmod, rename, touch, lock
    /// Create a file (`O_CREAT | O_EXCL`).
    case create
    /// Create a directory.
    case createDirectory
    /// Make a private temporary directory (`mkdtemp`).
    case makeTemporaryDirectory
    /// fsync the directory that holds a file just renamed into it.
    case syncDirectory
    /// Open the lock file.
    case openLockFile
    /// Use a path as a directory (it is not one).
    case useAsDirectory
    /// Remove a file (`unlink`).
    case remove
}
