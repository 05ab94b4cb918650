import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The marker file of `vault first-run`: kept where an uninstall or a fresh
/// runner removes it, so its absence means "this is a first run".
package enum FirstRunMarker {
    /// Whether the marker exists.
    package static func exists(at path: String) -> Bool {
        FileSystem.exists(path)
    }

    /// Creates the marker (0600, and its directory 0700 when missing), holding
    /// the time of the first run. Returns false when it exists already: another
    /// command claimed this first run, so two commands starting together wipe once.
    package static func claim(at path: String, now: Date) throws -> Bool {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try FileSystem.makeDirectory(String(path[..<slash]))
        }
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        do {
            try FileSystem.createExclusive(Array("vault first run at \(seconds)\n".utf8), at: path)
            return true
        } catch VaultError.storage(.io(_, _, EEXIST)) {
            return false
        }
    }

    /// Runs `wipe` once for the marker at `path`, then creates the marker; nil, without running
    /// `wipe`, when the marker exists. Two commands starting together wipe once: both hold a lock
    /// beside the marker (`.NAME.lock`) from the check to the marker. The marker is created only
    /// once `wipe` has returned, its write synced: a command killed, or a machine losing power,
    /// before the wipe is on the disk leaves no marker, and the next command wipes (a marker made
    /// first, as a claim, was left with nothing wiped, and no first run ever again).
    package static func once<Result>(at path: String, now: Date, _ wipe: () throws -> Result) throws -> Result? {
        let directory = FileSystem.directoryOf(path)
        try FileSystem.makeDirectory(directory)
        let name = path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
        let lock = try LockFile(path: directory + "/." + name + ".lock")
        defer { withExtendedLifetime(lock) {} }
        // A marker write that failed or was killed may have left its temp file: every writer holds this lock.
        FileSystem.removeAbandonedTemporaries(of: path, directory: directory)
        guard !exists(at: path) else { return nil }
        let result = try wipe()
        _ = try claim(at: path, now: now)
        return result
    }
}
