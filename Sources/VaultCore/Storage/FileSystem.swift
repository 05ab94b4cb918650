#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// The few file operations the vault needs, over POSIX calls, each failing
/// with a `VaultError` that names the path.
enum FileSystem {
    /// Whether a file exists at `path` (following links).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether `path` is a directory (following links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Reads a whole regular file; refuses one readable or writable by group or
    /// others when `requirePrivate` is set (like ssh does for keys).
    static func read(_ path: String, requirePrivate: Bool, missing: VaultError) throws -> [UInt8] {
        try read(path, refusing: requirePrivate ? .secret : .none, missing: missing)
    }

    /// Whether a regular file is at `path` (a link followed): false when nothing is there; throws
    /// `notARegularFile` for anything else (a directory, a FIFO, a device), found by stat(2)
    /// alone: opening a FIFO to look would wait for a writer, for ever if none comes.
    static func regularFileExists(_ path: String) throws -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw VaultError.notARegularFile(path: path, fileType: UInt32(info.st_mode & S_IFMT))
        }
        return true
    }

    /// Reads a settings file (the config): others may read it, but one that group or others may
    /// change, or that another user owns (root excepted), is refused, and so is one in a
    /// directory they may write to or own: whoever can change it chooses what vault does.
    static func readSettings(_ path: String, missing: VaultError) throws -> [UInt8] {
        try refuseWritableByOthers(directory: directoryOf(path), requiringTrustedOwner: true)
        return try read(path, refusing: .settings, missing: missing)
    }

    /// Whether `uid` is the caller's or root's, the only owners trusted with what decides what vault does.
    static func isTrustedOwner(_ uid: uid_t) -> Bool {
        uid == getuid() || uid == 0
    }

    /// The first `count` bytes of the file at `path`, or fewer (none when it cannot be read): a
    /// peek that checks nothing, for what must be known before the file is read in earnest.
    /// Opened without blocking, so a FIFO put there gives nothing rather than a wait.
    static func readPrefix(_ path: String, count: Int) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var prefix = [UInt8](repeating: 0, count: count)
        let read = prefix.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, count) }
        return read > 0 ? Array(prefix[0..<read]) : []
    }

    /// Reads a vault file: ciphertext, so a checkout's 0644 is fine, but one
    /// that group or others may change is refused, and so is a directory they
    /// may write to (they could replace the file).
    static func readVaultFile(_ path: String, directory: String, missing: VaultError) throws -> FileBytes {
        try refuseWritableByOthers(directory: directory)
        let fd = try openRegular(path, refusing: .ciphertext, missing: missing)
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = errno
            close(fd)
            throw VaultError.io(path: path, operation: .stat, errno: error)
        }
        if let mapped = FileBytes(mapping: fd, size: Int(info.st_size)) { return mapped }
        defer { close(fd) }
        return FileBytes(try readToEnd(fd, sizeHint: Int(info.st_size), path: path), readFrom: fd)
    }

    /// Which permission bits make a file unsafe to read.
    enum Exposure {
        /// Keys, credentials, sessions: nobody else may read or write them.
        case secret
        /// The vault file: others may read it, not change it.
        case ciphertext
        /// The config: others may read it, not change it, and it is the caller's or root's.
        case settings
        case none

        var forbiddenBits: mode_t {
            switch self {
            case .secret: return 0o077
            case .ciphertext, .settings: return 0o022
            case .none: return 0
            }
        }
    }

    /// Refuses a directory that group or others may write to, unless it is
    /// sticky (as /tmp is: others cannot rename or remove what is ours there);
    /// with `requiringTrustedOwner`, also one that another user owns (root excepted).
    static func refuseWritableByOthers(directory: String, requiringTrustedOwner: Bool = false) throws {
        var info = stat()
        guard stat(directory, &info) == 0 else { return }
        if requiringTrustedOwner, !isTrustedOwner(info.st_uid) {
            throw VaultError.ownedByAnotherUser(path: directory, owner: info.st_uid)
        }
        if info.st_mode & 0o022 != 0, info.st_mode & S_ISVTX == 0 {
            throw VaultError.writableByOthers(path: directory, mode: UInt32(info.st_mode & 0o7777))
        }
    }

    private static func read(_ path: String, refusing exposure: Exposure, missing: VaultError) throws -> [UInt8] {
        let fd = try openRegular(path, refusing: exposure, missing: missing)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw VaultError.io(path: path, operation: .stat, errno: errno) }
        return try readToEnd(fd, sizeHint: Int(info.st_size), path: path)
    }

    /// Opens a regular file for reading, refusing the permission bits `exposure` forbids (and, for
    /// settings, an owner that is neither the caller nor root). Opened without blocking, so a
    /// FIFO is refused rather than waited on.
    private static func openRegular(_ path: String, refusing exposure: Exposure, missing: VaultError) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw missing }
            throw VaultError.io(path: path, operation: .open, errno: errno)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = errno
            close(fd)
            throw VaultError.io(path: path, operation: .stat, errno: error)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw VaultError.io(path: path, operation: .read, errno: EISDIR)
        }
        if exposure == .settings, !isTrustedOwner(info.st_uid) {
            close(fd)
            throw VaultError.ownedByAnotherUser(path: path, owner: info.st_uid)
        }
        if info.st_mode & exposure.forbiddenBits != 0 {
            close(fd)
            let mode = UInt32(info.st_mode & 0o777)
            if exposure == .secret { throw VaultError.insecurePermissions(path: path, mode: mode) }
            throw VaultError.writableByOthers(path: path, mode: mode)
        }
        return fd
    }

    /// Reads `fd` to its end rather than trust its size: files in /proc report 0.
    private static func readToEnd(_ fd: Int32, sizeHint: Int, path: String) throws -> [UInt8] {
        // One byte more than the size, so the read that finds the end needs no larger buffer;
        // the buffer is read into uninitialised.
        var bytes: [UInt8] = []
        var capacity = max(sizeHint + 1, 4096)
        while true {
            let start = bytes.count
            var ended = false
            let piece = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                while initialized < buffer.count {
                    let n = Glibc.read(fd, buffer.baseAddress! + initialized, buffer.count - initialized)
                    if n < 0, errno == EINTR { continue }
                    if n < 0 { throw VaultError.io(path: path, operation: .read, errno: errno) }
                    if n == 0 { ended = true; break }
                    initialized += n
                }
            }
            if start == 0 { bytes = piece } else { bytes += piece }
            if ended { return bytes }
            capacity = bytes.count
        }
    }

    /// Creates `path` as a 0700 directory (and its parents) if it is missing.
    static func makeDirectory(_ path: String) throws {
        if exists(path) { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectory(String(path[..<slash]))
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw VaultError.io(path: path, operation: .createDirectory, errno: errno)
        }
    }

    /// Replaces `path` atomically: a temp file with a random name in the same
    /// directory, created exclusively without following links and 0600 on its
    /// descriptor, then fsync, rename, fsync of the directory. A crash leaves
    /// the old or the new file; a link planted at `path` is refused, never
    /// followed, and one planted at a temp name makes the create fail.
    static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String) throws {
        try writeAtomically([StoredBytes(bytes)], to: path, directory: directory)
    }

    /// `writeAtomically` without the fsync of the directory: readers see the old file or the new
    /// one, and so does a power loss, which may undo the rename. For records written on every
    /// change whose last change may be lost, such as the seen counters' generations. The data is
    /// still synced before the rename: without it a power loss could leave the name on an empty
    /// file (file systems without ext4's flush on a replacing rename do), losing with the new
    /// generation the key epoch the file held durably (PowerLossTests).
    static func replaceAtomically(_ bytes: [UInt8], at path: String, directory: String) throws {
        try refuseSymbolicLink(path)
        try writeThroughTemporary([StoredBytes(bytes)], to: path, directory: directory, durable: false) { temp in
            guard rename(temp, path) == 0 else { throw VaultError.io(path: path, operation: .rename, errno: errno) }
        }
    }

    /// `writeAtomically`, of `pieces` back to back: a piece still in a file read
    /// earlier is copied from that file by the kernel (sendfile), not through this process.
    /// `beforeRename` runs once the new file is written and synced, just before it is renamed into
    /// place; when it throws, the old file stays.
    static func writeAtomically(
        _ pieces: [StoredBytes], to path: String, directory: String,
        beforeRename: () throws -> Void = {}
    ) throws {
        try refuseSymbolicLink(path)
        try writeThroughTemporary(pieces, to: path, directory: directory, durable: true) { temp in
            try beforeRename()
            guard rename(temp, path) == 0 else { throw VaultError.io(path: path, operation: .rename, errno: errno) }
        }
    }

    /// Creates `path` holding `bytes`, mode 0600, atomically and only if
    /// nothing is there (a link, even a dangling one, counts): readers never
    /// see a half-written file, and a crash leaves no file at `path`.
    static func createExclusive(_ bytes: [UInt8], at path: String) throws {
        let directory = directoryOf(path)
        try writeThroughTemporary([StoredBytes(bytes)], to: path, directory: directory, durable: true) { temp in
            // link(2) fails with EEXIST rather than replace: the no-clobber rename.
            if link(temp, path) == 0 {
                unlink(temp)
                return
            }
            guard [EPERM, EOPNOTSUPP, ENOTSUP, EXDEV].contains(errno) else {
                throw VaultError.io(path: path, operation: .create, errno: errno)
            }
            // A file system without hard links (vfat, some FUSE): claim the name
            // with O_EXCL, then rename the written file over the empty claim.
            let claim = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard claim >= 0 else { throw VaultError.io(path: path, operation: .create, errno: errno) }
            close(claim)
            guard rename(temp, path) == 0 else { throw VaultError.io(path: path, operation: .rename, errno: errno) }
        }
    }

    /// Writes `pieces` to a fresh temp file beside `path` and syncs it, then lets `publish` move it
    /// into place; `durable` syncs the directory after, making the move itself survive a power loss.
    private static func writeThroughTemporary(
        _ pieces: [StoredBytes], to path: String, directory: String, durable: Bool,
        publish: (String) throws -> Void
    ) throws {
        let temp = directory + "/" + temporaryPrefix(of: path) + hex(SecureRandom.bytes(8))
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: temp, operation: .create, errno: errno) }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        do {
            guard fchmod(fd, 0o600) == 0 else { throw VaultError.io(path: temp, operation: .chmod, errno: errno) }
            for piece in pieces {
                if let (source, range) = piece.fileRange, let sourceFD = source.descriptor,
                    try copy(range, from: sourceFD, to: fd, path: temp)
                {
                    continue
                }
                try piece.withUnsafeBytes { try writeAll($0, to: fd, path: temp) }
            }
            guard fsync(fd) == 0 else { throw VaultError.io(path: temp, operation: .fsync, errno: errno) }
            closed = true
            guard close(fd) == 0 else { throw VaultError.io(path: temp, operation: .close, errno: errno) }
            try publish(temp)
        } catch {
            unlink(temp)
            throw error
        }
        // The rename is durable only once the directory is synced: a write that cannot sync it says so.
        if durable { try syncDirectoryOrThrow(directory) }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw VaultError.io(path: path, operation: .write, errno: errno) }
            offset += n
        }
    }

    /// Copies `range` of the file open at `source` to the end of `fd` in the kernel; false when
    /// the file systems cannot (nothing was written then, and the caller writes the bytes itself).
    private static func copy(_ range: Range<Int>, from source: Int32, to fd: Int32, path: String) throws -> Bool {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let n = sendfile(fd, source, &offset, range.upperBound - offset)
            if n < 0, errno == EINTR { continue }
            if n < 0, offset == range.lowerBound, [EINVAL, ENOSYS, EOPNOTSUPP].contains(errno) { return false }
            guard n > 0 else { throw VaultError.io(path: path, operation: .write, errno: n < 0 ? errno : EIO) }
        }
        return true
    }

    /// Temp files are `.NAME.tmp-` and 16 random hex digits: hidden, and not guessable by whoever can write the directory.
    private static func temporaryPrefix(of path: String) -> String {
        "." + baseName(path) + ".tmp-"
    }

    /// Removes the temp files that writers killed mid-write left for `path`
    /// (and those of older versions: `NAME.tmp-PID`).
    /// Only safe under the lock that every writer of `path` holds.
    static func removeAbandonedTemporaries(of path: String, directory: String) {
        let prefix = temporaryPrefix(of: path)
        let oldPrefix = baseName(path) + ".tmp-"
        for name in list(directory) {
            let isOurs = name.hasPrefix(prefix) && unhex(String(name.dropFirst(prefix.count)))?.count == 8
            let isOlder = name.hasPrefix(oldPrefix) && name.dropFirst(oldPrefix.count).allSatisfy(\.isNumber)
            if isOurs || isOlder { unlink(directory + "/" + name) }
        }
    }

    /// Removes the temp files of vault's writes to files named `prefix…` in `directory` whose file is
    /// gone: no writer is writing a file that is not there (a writer writes beside an existing one,
    /// or makes its temp first and would still hold it open), so what is left is a killed writer's.
    /// Needs no lock.
    static func removeTemporariesOfVanishedFiles(named prefix: String, in directory: String) {
        let temporaryStart = "." + prefix
        for name in list(directory) where name.hasPrefix(temporaryStart) {
            let head = name.dropLast(16)
            guard head.hasSuffix(".tmp-"), unhex(String(name.suffix(16)))?.count == 8 else { continue }
            let file = String(head.dropLast(5).dropFirst())
            if !exists(directory + "/" + file) { unlink(directory + "/" + name) }
        }
    }

    /// Refuses to write through a symbolic link: the output would land wherever it points.
    static func refuseSymbolicLink(_ path: String) throws {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK { throw VaultError.symbolicLink(path: path) }
    }

    /// The target of `path` when it is a symbolic link to an existing file, else `path` itself.
    static func resolvingSymbolicLink(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        return realPath(path) ?? path
    }

    /// The absolute path of `path` with every link resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The directory part of `path` ("." when it has none).
    static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func baseName(_ path: String) -> String {
        String(path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...])
    }

    /// Syncs `directory` (what renames and links in it are durable by), throwing when it cannot.
    static func syncDirectoryOrThrow(_ directory: String) throws {
        let dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirfd >= 0 else { throw VaultError.io(path: directory, operation: .syncDirectory, errno: errno) }
        defer { close(dirfd) }
        guard fsync(dirfd) == 0 else { throw VaultError.io(path: directory, operation: .syncDirectory, errno: errno) }
    }

    static func syncDirectory(_ directory: String) {
        let dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirfd >= 0 else { return }
        fsync(dirfd)
        close(dirfd)
    }

    /// The permission bits of `path`; nil when it does not exist.
    static func mode(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode & 0o777)
    }

    static func remove(_ path: String) {
        unlink(path)
    }

    /// Overwrites a small file with zeros, then removes it: for caches that
    /// held keys. A link is only unlinked, never followed: what it points to is
    /// not ours to wipe.
    static func wipeAndRemove(_ path: String) {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd >= 0 {
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 {
                let zeros = [UInt8](repeating: 0, count: Int(info.st_size))
                _ = zeros.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                fsync(fd)
            }
            close(fd)
        }
        unlink(path)
    }

    /// Whether `path` is a regular file itself (not a link to one).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The names in a directory (empty when it cannot be read).
    static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
