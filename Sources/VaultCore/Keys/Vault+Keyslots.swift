import FoundationEssentials
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

// Keyslots: the credentials that open the master key.
extension Vault {
    /// Adds a keyslot that opens with the content of a key file; refuses a key file that already opens the vault.
    public func addKeyFile(_ content: SecretBytes) throws {
        try requireKeyslotSecret(.changeKeyslots)
        try transaction { vault in
            if try vault.keyslotOpening(kind: .keyFile, with: content) {
                throw VaultError.invalidValue(.keyFileAlreadyOpens)
            }
            try vault.addKeyslot(kind: .keyFile, secret: content, kdf: .interactive)
        }
    }

    /// Removes the keyslot that the key file content opens, and rotates the master key when it can
    /// (see `changeKeyslots`); returns whether it did. Throws `noKeyslot` when no slot opens with
    /// it and `lastKeyslot` when it is the only one.
    @discardableResult
    public func removeKeyFile(_ content: SecretBytes) throws -> Bool {
        try changeKeyslots { vault in
            guard try vault.removeKeyslots(kind: .keyFile, openedBy: content) > 0 else {
                throw VaultError.noKeyslot(.keyFile)
            }
            return []
        }
    }

    /// Removes every passphrase keyslot (a key-file keyslot must remain) and
    /// destroys the `when-passcode-set-this-device-only` items: they are
    /// deleted and their class key replaced. Rotates the master key when it
    /// can (see `changeKeyslots`). Returns what was destroyed and whether it rotated.
    @discardableResult
    public func removePassphrase() throws -> (destroyed: [ItemAttributes], rotated: Bool) {
        var destroyed: [ItemAttributes] = []
        let rotated = try changeKeyslots { vault in
            guard vault.hasKeyslot(.passphrase) else {
                throw VaultError.invalidValue(.noPassphraseToRemove)
            }
            guard vault.hasKeyslot(.keyFile) else { throw VaultError.lastKeyslot }
            _ = try vault.removeKeyslots(kind: .passphrase, openedBy: nil)
            let doomed = try vault.matches(Query(accessibility: .whenPasscodeSetThisDeviceOnly), skipLocked: false)
            vault.remove(at: doomed.positions)
            try vault.rotateClassKey(.whenPasscodeSetThisDeviceOnly)
            destroyed = doomed.attributes
            return []
        }
        return (destroyed, rotated)
    }
}
