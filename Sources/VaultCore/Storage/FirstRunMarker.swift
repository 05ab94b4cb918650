import FoundationEssentials

/// The marker file of `vault first-run`: kept where an uninstall or a fresh
/// runner removes it, so its absence means "this is a first run".
public enum FirstRunMarker {
    /// Whether the marker exists.
    public static func exists(at path: String) -> Bool {
        FileSystem.exists(path)
    }

    /// Creates the marker (0600, and its directory 0700 when missing), holding the time of the first run.
    public static func create(at path: String, now: Date) throws {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try FileSystem.makeDirectory(String(path[..<slash]))
        }
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        try FileSystem.createExclusive(Array("vault first run at \(seconds)\n".utf8), at: path)
    }
}
