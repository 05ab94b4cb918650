#if canImport(Glibc)
import Glibc
#endif

/// The few file operations the vault needs, over POSIX calls, each failing
/// with a `VaultError` that names the path.
enum FileSystem {
    /// Whether a file exists at `path` (following links).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Reads a whole regular file; refuses one readable or writable by group or
    /// others when `requirePrivate` is set (like ssh does for keys).
    static func read(_ path: String, requirePrivate: Bool, missing: VaultError) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw missing }
            throw VaultError.io(path: path, operation: "open", errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw VaultError.io(path: path, operation: "stat", errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw VaultError.io(path: path, operation: "read", errno: EISDIR) }
        if requirePrivate, info.st_mode & 0o077 != 0 {
            throw VaultError.insecurePermissions(path: path, mode: UInt32(info.st_mode & 0o777))
        }
        // Read to the end rather than trust st_size: files in /proc report 0.
        // One byte more than st_size, so the read that finds the end needs no larger buffer.
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size) + 1, 4096))
        var offset = 0
        while true {
            if offset == bytes.count { bytes.append(contentsOf: [UInt8](repeating: 0, count: bytes.count)) }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw VaultError.io(path: path, operation: "read", errno: errno) }
            if n == 0 { break }
            offset += n
        }
        bytes.removeLast(bytes.count - offset)
        return bytes
    }

    /// Creates `path` as a 0700 directory (and its parents) if it is missing.
    static func makeDirectory(_ path: String) throws {
        if exists(path) { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectory(String(path[..<slash]))
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw VaultError.io(path: path, operation: "create directory", errno: errno)
        }
    }

    /// Replaces `path` atomically: a temp file in the same directory, fsync,
    /// rename, fsync of the directory. A crash leaves the old or the new file.
    static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String) throws {
        let temp = path + temporaryInfix + "\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: temp, operation: "create", errno: errno) }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        do {
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw VaultError.io(path: temp, operation: "write", errno: errno) }
                offset += n
            }
            guard fsync(fd) == 0 else { throw VaultError.io(path: temp, operation: "fsync", errno: errno) }
            closed = true
            guard close(fd) == 0 else { throw VaultError.io(path: temp, operation: "close", errno: errno) }
            guard rename(temp, path) == 0 else { throw VaultError.io(path: path, operation: "rename", errno: errno) }
        } catch {
            unlink(temp)
            throw error
        }
        syncDirectory(directory)
    }

    /// What `writeAtomically` puts between the path and its pid to name its temp file.
    private static let temporaryInfix = ".tmp-"

    /// Removes the temp files that writers killed mid-write left for `path`.
    /// Only safe under the lock that every writer of `path` holds.
    static func removeAbandonedTemporaries(of path: String, directory: String) {
        let prefix = String(path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]) + temporaryInfix
        for name in list(directory) where name.hasPrefix(prefix) && name.dropFirst(prefix.count).allSatisfy(\.isNumber) {
            unlink(directory + "/" + name)
        }
    }

    /// Creates a new file holding `bytes` with mode 0600; fails if it exists.
    static func createExclusive(_ bytes: [UInt8], at path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: path, operation: "create", errno: errno) }
        defer { close(fd) }
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count, fsync(fd) == 0 else { throw VaultError.io(path: path, operation: "write", errno: errno) }
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

    /// Overwrites a small file with zeros, then removes it: for caches that held keys.
    static func wipeAndRemove(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0, info.st_size > 0 {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            if fd >= 0 {
                let zeros = [UInt8](repeating: 0, count: Int(info.st_size))
                _ = zeros.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                fsync(fd)
                close(fd)
            }
        }
        unlink(path)
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
