import VaultCrypto

/// Files vault reads or writes for the user rather than for the vault: env
/// files, templates, and the output of `vault inject`.
package enum PlainFile {
    /// The bytes of the file at `path`; throws `io` (e.g. ENOENT) naming it.
    package static func read(_ path: String) throws -> [UInt8] {
        try FileSystem.read(path, requirePrivate: false, missing: .io(path: path, operation: .read, errno: 2))
    }

    /// Writes `bytes` to `path` atomically (temp file in the same directory,
    /// fsync, rename), mode 0600: readers see the old file or the whole new one.
    package static func writePrivately(_ bytes: [UInt8], to path: String) throws {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        try FileSystem.writeAtomically(bytes, to: path, directory: directory)
    }

    /// Creates `path` holding `bytes`, mode 0600, only if nothing is there: a plaintext export.
    package static func createPrivately(_ bytes: [UInt8], at path: String) throws {
        try FileSystem.createExclusive(bytes, at: path)
    }

    /// The bytes of a file that holds secrets (a plaintext export), in locked memory; throws
    /// `noSuchFile` or `unreadableFile` naming it as `kind`.
    package static func readSecrets(_ path: String, kind: InputFileKind) throws -> SecretBytes {
        var bytes = try FileSystem.read(path, kind: kind, requirePrivate: false)
        defer { bytes.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        return SecretBytes(bytes)
    }
}
