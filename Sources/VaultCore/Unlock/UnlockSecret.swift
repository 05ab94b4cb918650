import VaultCrypto

/// What a caller unlocks a vault with.
public struct UnlockSecret: Sendable {
    /// Whether it is a passphrase, a key file or a desktop-keyring key.
    package let kind: CredentialKind
    /// The passphrase bytes, or the whole content of the key file.
    package let secret: SecretBytes

    /// A passphrase (its bytes as typed, without a trailing newline).
    public static func passphrase(_ secret: SecretBytes) -> UnlockSecret {
        UnlockSecret(kind: .passphrase, secret: secret)
    }

    /// The content of a key file.
    public static func keyFile(_ content: SecretBytes) -> UnlockSecret {
        UnlockSecret(kind: .keyFile, secret: content)
    }

    /// The key of a desktop-keyring keyslot, as the keyring holds it.
    package static func desktopKeyring(_ key: SecretBytes) -> UnlockSecret {
        UnlockSecret(kind: .desktopKeyring, secret: key)
    }

    var slotKind: Keyslot.Kind {
        switch kind {
        case .passphrase: return .passphrase
        case .keyFile: return .keyFile
        case .desktopKeyring: return .desktopKeyring
        }
    }
}

extension Keyslot.Kind {
    /// The credential that opens a slot of this kind.
    var credentialKind: CredentialKind {
        switch self {
        case .passphrase: return .passphrase
        case .keyFile: return .keyFile
        case .desktopKeyring: return .desktopKeyring
        }
    }
}

/// Key files: reading them safely and making new ones.
public enum KeyFile {
    /// Reads a key file, refusing one readable by group or others, shorter than
    /// 32 bytes or longer than 64 KiB; `kind` names it when it is missing.
    public static func read(path: String, kind: InputFileKind = .keyFile) throws -> SecretBytes {
        let bytes = try FileSystem.read(path, kind: kind, requirePrivate: true)
        guard bytes.count >= Keyslot.minimumKeyFileBytes else {
            throw VaultError.invalidKeyFile(path: path, .tooShort(size: bytes.count, minimum: Keyslot.minimumKeyFileBytes))
        }
        guard bytes.count <= Keyslot.maximumKeyFileBytes else {
            throw VaultError.invalidKeyFile(path: path, .tooLong(limit: Keyslot.maximumKeyFileBytes))
        }
        return SecretBytes(bytes)
    }

    /// Creates a new key file (0600, failing if it exists) holding 32 random
    /// bytes as one line of base64, and returns its content.
    public static func create(path: String) throws -> SecretBytes {
        let content = Array(("vault-key-v1:" + Base64.encode(SecureRandom.bytes(32)) + "\n").utf8)
        try FileSystem.createExclusive(content, at: path)
        return SecretBytes(content)
    }

    /// Whether a file exists at `path`.
    package static func exists(path: String) -> Bool {
        FileSystem.exists(path)
    }
}

/// Reads a passphrase file: its content without one trailing newline.
package enum PassphraseFile {
    /// Refuses a file readable by group or others, like a key file.
    package static func read(path: String) throws -> SecretBytes {
        var bytes = try FileSystem.read(path, kind: .passphraseFile, requirePrivate: true)
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        let secret = SecretBytes(bytes)
        for i in bytes.indices { bytes[i] = 0 }
        return secret
    }
}
