#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import VaultCore
import VaultCrypto

/// The file `vault edit` hands the editor: `secret` in a fresh 0700
/// directory on a memory-backed file system (tmpfs), created 0600. `wipe()`
/// overwrites every file in the directory with zeros (the editor's swap or
/// backup files too) and removes them and the directory.
final class EditBuffer {
    /// The directory, e.g. /run/user/1000/vault-edit.Ab12Cd.
    let directory: String
    /// The file the editor opens.
    let path: String

    /// Where the buffer may live: `$XDG_RUNTIME_DIR` when it is on a tmpfs,
    /// else `sharedMemory` (/dev/shm) when it is; nil when neither is, as a
    /// disk-backed directory would keep the secret after it is removed.
    static func memoryBackedDirectory(runtimeDirectory: String?, sharedMemory: String = "/dev/shm") -> String? {
        [runtimeDirectory, sharedMemory].compactMap { $0 }.first { !$0.isEmpty && isMemoryBacked($0) }
    }

    /// Whether `path` is on a tmpfs or ramfs, by the mount that holds it in
    /// /proc/self/mountinfo (the longest mount point above it; the later of
    /// two equal ones, which is mounted over the first).
    private static func isMemoryBacked(_ path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        let target = String(cString: resolved)
        free(resolved)
        let fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let table = Terminal.readAll(fd)
        var best: (mountPoint: String, type: String)?
        for line in String(decoding: table, as: UTF8.self).split(separator: "\n") {
            let halves = line.components(separatedBy: " - ")
            let fields = halves[0].split(separator: " ")
            guard halves.count == 2, fields.count > 4, let type = halves[1].split(separator: " ").first else { continue }
            let mountPoint = String(fields[4]).replacing("\\040", with: " ")
            let holds = mountPoint == "/" || target == mountPoint || target.hasPrefix(mountPoint + "/")
            if holds, mountPoint.count >= (best?.mountPoint.count ?? 0) { best = (mountPoint, String(type)) }
        }
        return ["tmpfs", "ramfs"].contains(best?.type)
    }

    /// Creates the directory under `base` and writes `secret` to the file.
    init(in base: String, holding secret: SecretBytes) throws {
        var template = Array((base + "/vault-edit.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw CommandFailure(
                .failure, "cannot create a directory in \(quoted(base)): \(String(cString: strerror(errno)))",
                hint: "check that \(quoted(base)) is writable")
        }
        directory = String(cString: made!)
        path = directory + "/secret"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            rmdir(directory)
            throw CommandFailure(.failure, "cannot create the file to edit: \(String(cString: strerror(errno)))")
        }
        secret.withUnsafeBytes { Terminal.writeAll(fd, $0) }
        close(fd)
    }

    /// The file's bytes as the editor left them (past `limit`, cut short: too large to store anyway).
    func contents(limit: Int) -> SecretBytes {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return SecretBytes(count: 0) }
        defer { close(fd) }
        return SecretStream.read(fd, limit: limit)
    }

    /// Overwrites every file in the directory with zeros, then removes the
    /// files and the directory. Safe to call more than once.
    func wipe() {
        guard let stream = opendir(directory) else { return }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(stream)
        for name in names {
            let file = directory + "/" + name
            EditBuffer.overwrite(file)
            if unlink(file) != 0 { rmdir(file) }
        }
        rmdir(directory)
    }

    private static func overwrite(_ file: String) {
        let fd = open(file, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        let zeros = [UInt8](repeating: 0, count: 65536)
        var left = Int(info.st_size)
        while left > 0 {
            let n = zeros.withUnsafeBytes { write(fd, $0.baseAddress, min(left, $0.count)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            left -= n
        }
        fsync(fd)
    }
}
