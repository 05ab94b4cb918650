/// Files that decide what vault does — the command line's config file — read and written as
/// ssh treats its own: one that group or others may change, or that another user owns (root
/// excepted), is refused, and so is one in such a directory. What the file says is the command
/// line's business; this is only how it is kept.
package enum SettingsFile {
    /// `${XDG_CONFIG_HOME:-~/.config}/vault`: where the config file and the default identity live.
    package static func directory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/vault" }
        return (environment["HOME"] ?? "/") + "/.config/vault"
    }

    /// Whether something is at `path`.
    package static func exists(_ path: String) -> Bool { FileSystem.exists(path) }

    /// The bytes of the settings file at `path`. Throws `writableByOthers` or `ownedByAnotherUser`
    /// for a file, or a directory holding it, that someone else could have written; `io` when missing.
    package static func read(_ path: String) throws -> [UInt8] {
        try FileSystem.readSettings(path, missing: .io(path: path, operation: .open, errno: 2))
    }

    /// Refuses the directory that holds `path` when someone else could have written it (as `read` does).
    package static func refuseUntrustedDirectory(of path: String) throws {
        try FileSystem.refuseWritableByOthers(directory: FileSystem.directoryOf(path), requiringTrustedOwner: true)
    }

    /// Writes `bytes` to `path` atomically, 0600, in a directory made 0700 if missing.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        let directory = FileSystem.directoryOf(path)
        try FileSystem.makeDirectory(directory)
        try FileSystem.writeAtomically(bytes, to: path, directory: directory)
    }
}
