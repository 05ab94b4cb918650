import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The marker file of `vault first-run`: kept where an uninstall or a fresh
/// runner removes it, so its absence means "this is a first run".
public enum FirstRunMarker {
    /// Whether the marker exists.
    public static func exists(at path: String) -> Bool {
        FileSystem.exists(path)
    }

    /// Creates the marker (0600, and its directory 0700 when missing), holding
    /// the time of the first run. Returns false when it exists already: another
    /// command claimed this first run, so two commands starting together wipe once.
    public static func claim(at path: String, now: Date) throws -> Bool {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try FileSystem.makeDirectory(String(path[..<slash]))
        }
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        do {
            try FileSystem.createExclusive(Array("vault first run at \(seconds)\n".utf8), at: path)
            return true
        } catch VaultError.io(_, _, EEXIST) {
            return false
        }
    }

    /// Gives a claim back when the wipe it was for failed, so the next command tries again.
    public static func release(at path: String) {
        FileSystem.remove(path)
    }
}
