#if canImport(Glibc)
import Glibc
#endif

/// Which file a path named when it was read: device, inode, size and change times. vault never
/// writes a vault file in place (every write renames a new file over it), so a path whose identity
/// is unchanged still holds the bytes read from it, and a snapshot of them can serve again.
struct FileIdentity: Equatable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modified: timespec
    private let changed: timespec

    /// The identity of the file open at `fd`; nil when it cannot be stat'ed.
    init?(descriptor fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the file `path` names now (following links, as opening it does); nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
        changed = info.st_ctim
    }

    static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
    }
}
