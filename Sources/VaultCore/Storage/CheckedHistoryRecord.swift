import VaultCrypto

/// The commit of a vault's work tree this machine last found keeping the team log of every commit
/// before it (docs/TEAMS.md, "Every head checked"): one file per vault path in the state directory.
struct CheckedHistoryRecord {
    let location: VaultLocation
    let host: HostContext

    /// The commit recorded; nil when none was.
    func read() -> String? {
        // Read as the config is: a record someone else could write would let them skip this check.
        guard let checked = try? FileSystem.readSettings(path, missing: .noSuchVault(path: path)) else { return nil }
        let text = String(decoding: checked, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// Records `commit` as checked (best effort: without the record the next check walks further back).
    func record(_ commit: String) {
        try? FileSystem.makeDirectory(directory)
        try? FileSystem.writeAtomically(Array(commit.utf8), to: path, directory: directory)
    }

    private var directory: String { host.stateDirectory + "/checked-history" }

    private var path: String {
        directory + "/" + hex(SHA256.hash(Array((FileSystem.realPath(location.path) ?? location.path).utf8)))
    }
}
