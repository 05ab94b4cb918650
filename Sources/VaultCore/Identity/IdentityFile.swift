#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// Where identities are kept and how they are named: a 0600 file of
/// `AGE-SECRET-KEY-1…` lines, as `age-keygen` writes it, or the same text
/// given directly (a CI secret in `VAULT_IDENTITY`).
public enum IdentityFile {
    /// `${XDG_CONFIG_HOME:-~/.config}/vault/identity.txt`: where `vault identity new` writes by default.
    package static func defaultPath(environment: [String: String]) -> String {
        SettingsFile.directory(environment: environment) + "/identity.txt"
    }

    /// Whether `value` is identity text rather than a path: it holds a line break or starts as an identity does.
    package static func isText(_ value: String) -> Bool {
        value.contains("\n") || value.hasPrefix("AGE-") || value.hasPrefix("#")
    }

    /// The identities `value` names: its text when `isText`, else the file at that path, which
    /// must be private (0600) as a key file must. `source` names where the value came from.
    public static func load(_ value: String, source: String) throws -> [AgeIdentity] {
        if isText(value) { return try AgeIdentity.parseAll(SecretBytes(Array(value.utf8)), source: source) }
        var bytes = try FileSystem.read(value, kind: .identity, requirePrivate: true)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        guard bytes.count <= 64 * 1024 else {
            throw VaultError.invalidIdentity(source: "\"\(value)\"", line: nil, reason: .tooLong(size: bytes.count))
        }
        return try AgeIdentity.parseAll(SecretBytes(bytes), source: "\"\(value)\"")
    }

    /// The file `vault identity new` writes: two comment lines (when, `created`, and the
    /// recipient, as `age-keygen` writes them) and the identity, in locked memory.
    package static func contents(of identity: AgeIdentity, created: String) -> SecretBytes {
        let comments = "# created: \(created)\n# public key: \(identity.recipient)\n"
        return SecretBytes(Array(comments.utf8)).appending(identity.encoded).appending(SecretBytes([UInt8(ascii: "\n")]))
    }

    /// Writes `identity` to a new file at `path` (0600), making its directory (0700) if missing;
    /// never over an existing file.
    package static func write(_ identity: AgeIdentity, to path: String, created: String) throws {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try FileSystem.makeDirectory(String(path[..<slash])) }
        if FileSystem.exists(path) || (try? FileSystem.refuseSymbolicLink(path)) == nil { throw VaultError.identityExists(path: path) }
        var bytes = contents(of: identity, created: created).copyBytes()
        defer { for index in bytes.indices { bytes[index] = 0 } }
        do {
            try FileSystem.createExclusive(bytes, at: path)
        } catch VaultError.storage(.io(_, .create, EEXIST)) {
            throw VaultError.identityExists(path: path)
        }
    }
}
