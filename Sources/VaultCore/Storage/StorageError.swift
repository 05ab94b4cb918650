/// Why an operation failed in Storage/: a path refused or a system call failed: the vault file, a file the user named, their permissions and owners.
/// `VaultError.storage` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Storage.swift`).
public enum StorageError: Equatable, Sendable {
    /// The vault file does not exist.
    case noSuchVault(path: String)
    /// `init` found a vault already there.
    case vaultExists(path: String)
    /// A file holding secrets is readable or writable by group or others.
    case insecurePermissions(path: String, mode: UInt32)
    /// A file or directory that group or others may change: the vault file
    /// (which others may read, not write), or the directory that holds it.
    case writableByOthers(path: String, mode: UInt32)
    /// A file or directory that decides what vault does (the config, the runtime directory) is
    /// owned by another user than the caller or root: whoever owns it may change it. `owner` is its uid.
    case ownedByAnotherUser(path: String, owner: UInt32)
    /// The vault path names something that is not a regular file (after resolving a link): a
    /// directory, a FIFO, a device, a socket. `fileType` is its `st_mode & S_IFMT`. Found without opening it.
    case notARegularFile(path: String, fileType: UInt32)
    /// An output path is a symbolic link; vault writes only to a real path.
    case symbolicLink(path: String)
    /// A file the user named (a credential, key file, bundle…) does not exist.
    case noSuchFile(path: String, kind: InputFileKind)
    /// A file the user named exists but cannot be read (EISDIR for a directory, EACCES…).
    case unreadableFile(path: String, kind: InputFileKind, errno: Int32)
    /// A system call failed on a path.
    case io(path: String, operation: FileOperation, errno: Int32)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .noSuchVault: return .noSuchVault
        case .vaultExists: return .duplicateVault
        case .insecurePermissions: return .failure
        case .writableByOthers: return .failure
        case .ownedByAnotherUser: return .failure
        case .notARegularFile: return .usage
        case .symbolicLink: return .failure
        case .noSuchFile: return .failure
        case .unreadableFile: return .failure
        case .io: return .failure
        }
    }
}
