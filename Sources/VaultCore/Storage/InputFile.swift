#if canImport(Glibc)
import Glibc
#endif

/// What a file that the user names for vault to read holds: for messages that
/// say which file is missing and which command makes it (the command line words each).
public enum InputFileKind: Sendable, Equatable {
    /// A scoped credential, made by `vault grant`.
    case credential
    /// An export bundle, made by `vault export`.
    case bundle
    /// A key file that unlocks the vault.
    case keyFile
    /// The key file of an export bundle.
    case bundleKeyFile
    /// A file holding a passphrase.
    case passphraseFile
    /// A file holding an item's secret.
    case secretFile
    /// An age identity file (`vault identity new`, or `age-keygen`).
    case identity
    /// A plaintext export, made by `vault export`.
    case plaintextExport
    /// A side of a merge git gave the merge driver (`%O`, `%A`, `%B`).
    case mergeSide
    /// Another password manager's export (`vault import`).
    case export
}

extension FileSystem {
    /// Reads a file the user named. Throws `noSuchFile` when it is missing and
    /// `unreadableFile` when it cannot be read (a directory, no permission),
    /// both exit 1: neither is a wrong key nor a damaged file.
    static func read(_ path: String, kind: InputFileKind, requirePrivate: Bool) throws -> [UInt8] {
        do {
            return try FileSystem.read(path, requirePrivate: requirePrivate, missing: .noSuchFile(path: path, kind: kind))
        } catch VaultError.storage(.io(path, _, let code)) {
            throw VaultError.unreadableFile(path: path, kind: kind, errno: code)
        }
    }
}
