import FoundationEssentials
import VaultCrypto

// The façade's key changes and maintenance: re-keys, keyslots, device keys, exposure acceptances,
// format upgrades, quarantine and reset, each run by its room's type.
extension Vault {
    /// Replaces every key of the vault: a new master key, class and group keys,
    /// every item re-sealed, the key epoch raised. The keyslot that the unlock
    /// secret at hand opens is re-made with it (asking for it when the keys at
    /// hand are a session's and there is a way to ask); other keyslots are
    /// dropped, and items bound to another machine cannot be re-sealed: when
    /// either applies, `confirm` is shown the plan first and may throw to
    /// change nothing. Ends every session, the after-first-unlock cache and
    /// every scoped credential (grant them again); the vault id stays. This
    /// machine's device key is replaced too (the device-bound items move to the
    /// new one), so a stolen device key opens nothing afterwards. One atomic
    /// write: a crash leaves the old or the new vault (and a new device key
    /// left pending is taken up on the next read).
    public func rekey(kdf: Scrypt.Parameters = .interactive, confirm: (RekeyPlan) throws -> Void) throws -> RekeyOutcome {
        try rekey(kdf: kdf, confirm: confirm, first: { _ in })
    }

    /// Changes the passphrase, rotating the master key when every keyslot that
    /// remains opens with a secret at hand (the new passphrase, and the key file
    /// or passphrase the vault was unlocked with) and no item is bound to another
    /// machine. Returns whether the master key was rotated; when it was not, an
    /// old copy of the file still opens with the old passphrase until `rekey`.
    @discardableResult
    public func changePassphrase(to newPassphrase: SecretBytes, kdf: Scrypt.Parameters = .interactive) throws -> Bool {
        try changeKeyslots { vault in
            let slot = try vault.replacePassphrase(with: newPassphrase, kdf: kdf)
            return [(slot, KeyslotSecret(kind: .passphrase, secret: newPassphrase, kdf: kdf))]
        }
    }

    /// `rekey(kdf:confirm:)`, with `first` applied to the vault in the same write before the keys
    /// are replaced (`Rekeying.rekey`). The owner's only.
    func rekey(
        kdf: Scrypt.Parameters, confirm: (RekeyPlan) throws -> Void, keepingTrustKey: Bool = false,
        carryingSessions: Bool = false, first: (inout WorkingCopy) throws -> Void
    ) throws -> RekeyOutcome {
        try holder.requireTrustKey(.rekeyVault)
        return try rekeying.rekey(
            kdf: kdf, confirm: confirm, keepingTrustKey: keepingTrustKey, carryingSessions: carryingSessions, first: first)
    }

    /// One change to the keyslots, then the master key rotated when it can (`Rekeying.changeKeyslots`); not with an identity.
    func changeKeyslots(_ change: (inout WorkingCopy) throws -> [(Keyslot, KeyslotSecret)]) throws -> Bool {
        try holder.requireKeyslotSecret(.changeKeyslots)
        return try rekeying.changeKeyslots(change)
    }

    /// The passphrase or key file the vault is opened with; a session's keys are asked to give way to one.
    func unlockSecretAtHand() throws -> UnlockSecret { try rekeying.unlockSecretAtHand() }

    /// Seals this machine's device key by the host's TPM, or with `reseal` seals it again
    /// (`DeviceKeySealing.seal`); needs an unlock.
    package func sealDeviceKey(reseal: Bool, pin: SecretBytes?) throws -> DeviceKeySealOutcome {
        try deviceKeySealing.seal(reseal: reseal, pin: pin)
    }

    /// Moves this machine's device key out of the TPM into a clear 0600 file again; needs an unlock.
    /// Returns false when it was not sealed (`DeviceKeySealing.unsealToFile`).
    package func unsealDeviceKeyToFile() throws -> Bool { try deviceKeySealing.unsealToFile() }

    /// Signs the acceptance of item `itemID`'s live exposed values (those it took before now) with the
    /// trust key, and appends it to the acceptances. The owner's only (`trustKeyNeeded` otherwise).
    /// Throws `invalidValue` for a reason over 1 000 bytes.
    package func acceptExposure(itemID: String, reason: String) throws -> ExposureAcceptance {
        try ExposureAcceptances.checkReason(reason)
        try holder.requireTrustKey(.acceptExposure)
        return try withKeys {
            try ExposureAcceptances(of: location).accept(itemID: itemID, reason: reason, in: try readSnapshot(), now: host.now())
        }
    }

    /// Converts a v1 vault file to format v2 (keeping the v1 file as `<vault>.v1.bak`); in a git
    /// work tree too. Needs the owner's keys. A v2 file is left as it is (`Maintenance.upgrade`).
    public func upgrade() throws -> UpgradeOutcome {
        try holder.requireUnscoped(.upgradeFormat)
        return try maintenance.upgrade()
    }

    /// Sets aside the items of groups whose index fails its MAC, keeping the file as it was in the
    /// state directory (`Maintenance.quarantineDamagedGroups`). Needs the owner's keys. Returns the
    /// groups quarantined and the kept file's path (nil when none was damaged).
    public func quarantineDamagedGroups() throws -> (groups: [String], keptAt: String?) {
        try holder.requireTrustKey(.quarantineDamagedGroups)
        return try maintenance.quarantineDamagedGroups()
    }

    /// Removes the vault file, its sessions (with `loginKeyring`, the login keyring's key too),
    /// after-first-unlock cache and device key, then the directory if that leaves it empty
    /// (`Maintenance.reset`). Needs no unlock.
    package func reset(loginKeyring: Bool = false) throws -> ResetOutcome { try maintenance.reset(loginKeyring: loginKeyring) }
}
