#if canImport(Glibc)
import Glibc
#endif
import VaultCore

/// The files `vault scan` searches under one of its paths: every regular
/// file, ignored by git or not, never following a symlink (a link's target
/// inside the tree is searched where it is) and skipping `.git` directories;
/// with `skipIgnored`, only those git would track (tracked, and untracked
/// but not ignored), as `git ls-files` lists them.
struct ScanFiles {
    /// The files, sorted, as paths that start with the root (without "./" for ".").
    var files: [String] = []
    /// Directories and files that could not be read.
    var unreadable: [String] = []
    /// What the walk passed over that is neither a file nor a directory (links, pipes, sockets,
    /// devices), with its kind: `vault import --from pass` reports them as left out.
    var others: [(path: String, kind: ImportProblem.FileKind)] = []

    init(root: String, skipIgnored: Bool, environment: [String: String]) throws {
        var info = stat()
        guard stat(root, &info) == 0 else {
            throw UsageError(
                "cannot scan \(quoted(root)): \(String(cString: strerror(errno)).lowercased())",
                hint: "give files or directories that exist, or none to scan the current directory")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            files = [root]
            return
        }
        if skipIgnored {
            let listed = try Git.output(
                ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                in: root, environment: environment, hint: GitHistory.unreadableRepositoryHint)
            files = listed.split(separator: 0).map { ScanFiles.join(root, String(decoding: $0, as: UTF8.self)) }
                .filter { ScanFiles.isRegularFile($0) }.sorted()
        } else {
            walk(root)
            files.sort()
        }
    }

    static func join(_ root: String, _ name: String) -> String {
        root == "." ? name : root.hasSuffix("/") ? root + name : root + "/" + name
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    private mutating func walk(_ directory: String) {
        guard let handle = opendir(directory) else {
            unreadable.append(directory)
            return
        }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name != ".", name != "..", name != ".git" else { continue }
            let path = ScanFiles.join(directory, name)
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(path)
            case S_IFREG: files.append(path)
            case S_IFLNK: others.append((path, .symbolicLink))
            case S_IFIFO: others.append((path, .fifo))
            case S_IFSOCK: others.append((path, .socket))
            default: others.append((path, .device))
            }
        }
    }
}
