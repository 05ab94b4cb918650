import FoundationEssentials
import VaultCrypto

// `vault copy`: a copy to experiment on that is a vault of its own, not a fork of this one.
extension Vault {
    /// Writes an independent copy of this vault to `destination` (see `WorkingCopy.independentCopy`):
    /// every record sealed again under a new vault id and new keys, one keyslot made with the
    /// passphrase or key file at hand (asked for when the keys at hand are a session's). Returns how
    /// many items it holds. The owner's alone (a member holds no master key); throws `vaultExists`
    /// when `destination` exists. This vault is only read.
    @discardableResult
    public func copy(to destination: VaultLocation, kdf: Scrypt.Parameters = .interactive) throws -> Int {
        try requireTrustKey(.copyVault)
        let secret = try unlockSecretAtHand()
        guard try !destination.exists else { throw VaultError.vaultExists(path: destination.path) }
        return try withKeys {
            var vault = WorkingCopy(try readSnapshot())
            let keyslot = KeyslotSecret(kind: secret.slotKind, secret: secret.secret, kdf: kdf)
            return try Vault.writeNew(at: destination, host: host) { vaultID, deviceKey in
                try vault.independentCopy(vaultID: vaultID, keyslot: keyslot, deviceKey: deviceKey, path: destination.path)
            }.file.index.count
        }
    }
}
