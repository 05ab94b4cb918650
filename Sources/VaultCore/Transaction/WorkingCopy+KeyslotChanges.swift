import VaultCrypto

// Changing the keyslots: what opens the master key.
extension WorkingCopy {
    /// Replaces the keyslots (at least one must remain).
    mutating func setKeyslots(_ slots: [Keyslot]) throws {
        guard !slots.isEmpty else { throw VaultError.lastKeyslot }
        file.keyslots = slots
    }

    /// Adds a keyslot that opens with `secret`.
    mutating func addKeyslot(kind: Keyslot.Kind, secret: SecretBytes, kdf: Scrypt.Parameters) throws {
        guard let masterKey = keys.masterKey else { throw VaultError.locked(nil) }
        guard file.keyslots.count < VaultFile.maxKeyslots else {
            throw VaultError.invalidValue(.tooManyKeyslots(limit: VaultFile.maxKeyslots))
        }
        file.keyslots.append(try Keyslot.make(kind: kind, secret: secret, kdf: kdf, masterKey: masterKey, vaultID: file.vaultID))
    }

    /// Replaces every passphrase keyslot with one for `secret`; returns the new slot.
    @discardableResult
    mutating func replacePassphrase(with secret: SecretBytes, kdf: Scrypt.Parameters) throws -> Keyslot {
        guard let masterKey = keys.masterKey else { throw VaultError.locked(nil) }
        let slot = try Keyslot.make(kind: .passphrase, secret: secret, kdf: kdf, masterKey: masterKey, vaultID: file.vaultID)
        try setKeyslots(file.keyslots.filter { $0.kind != .passphrase } + [slot])
        return slot
    }

    /// Removes the keyslots of `kind` that `secret` opens (every slot of `kind` when `secret` is nil);
    /// returns how many were removed. The last keyslot is never removed.
    mutating func removeKeyslots(kind: Keyslot.Kind, openedBy secret: SecretBytes?) throws -> Int {
        let keep = try file.keyslots.filter { slot in
            guard slot.kind == kind else { return true }
            guard let secret else { return false }
            if case .opened = try slot.open(with: secret, vaultID: file.vaultID) { return false }
            return true
        }
        let removed = file.keyslots.count - keep.count
        try setKeyslots(keep)
        return removed
    }
}
