#if canImport(Glibc)
import Glibc
#endif

/// What a file that the user names for vault to read holds: for messages that
/// say which file is missing and which command makes it.
public enum InputFileKind: String, Sendable, Equatable {
    /// A scoped credential, made by `vault grant`.
    case credential = "credential file"
    /// An export bundle, made by `vault export`.
    case bundle = "export bundle"
    /// A key file that unlocks the vault (`vault init --key-file`, `passwd --add-key-file`).
    case keyFile = "key file"
    /// The key file of an export bundle (`vault export --bundle-key-file`).
    case bundleKeyFile = "bundle key file"
    /// A file holding a passphrase (`--passphrase-file`).
    case passphraseFile = "passphrase file"
    /// A file holding an item's secret (`--secret-file`).
    case secretFile = "secret file"
    /// An age identity file (`vault identity new`, or `age-keygen`).
    case identity = "identity file"
    /// A plaintext export, made by `vault export --format csv|json --plaintext`.
    case plaintextExport = "plaintext export"
    /// A side of a merge git gave the merge driver (`%O`, `%A`, `%B`).
    case mergeSide = "merge input"
    /// Another password manager's export (`vault import --from`).
    case export = "export file"
}

extension FileSystem {
    /// Reads a file the user named. Throws `noSuchFile` when it is missing and
    /// `unreadableFile` when it cannot be read (a directory, no permission),
    /// both exit 1: neither is a wrong key nor a damaged file.
    static func read(_ path: String, kind: InputFileKind, requirePrivate: Bool) throws -> [UInt8] {
        do {
            return try FileSystem.read(path, requirePrivate: requirePrivate, missing: .noSuchFile(path: path, kind: kind))
        } catch VaultError.io(path, _, let code) {
            throw VaultError.unreadableFile(path: path, kind: kind, errno: code)
        }
    }
}
