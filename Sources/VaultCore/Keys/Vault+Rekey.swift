import FoundationEssentials
import VaultCrypto

/// What a re-key cannot carry over, shown to the user before anything changes.
public struct RekeyPlan: Sendable, Equatable {
    /// Keyslots whose secret is not at hand: they are dropped (re-add them with `passwd` afterwards).
    package var droppedKeyslots: [CredentialKind]
    /// Items bound to another machine's device key, which cannot be re-sealed here: they are dropped.
    package var itemsBoundElsewhere: [Vault.ItemCount]
    /// Items of class when-passcode-set-this-device-only, destroyed when no passphrase keyslot is kept.
    package var itemsNeedingPassphrase: Int

    /// Whether the re-key drops nothing.
    package var dropsNothing: Bool { droppedKeyslots.isEmpty && itemsBoundElsewhere.isEmpty && itemsNeedingPassphrase == 0 }
}

/// What a re-key did.
public struct RekeyOutcome: Sendable, Equatable {
    /// The key epoch the vault is at now.
    package var keyEpoch: UInt64
    /// How many items were re-sealed under the new keys.
    package var resealed: Int
    /// How many unlock sessions of this machine it ended.
    package var sessionsEnded: Int
    /// What it dropped, as shown before.
    package var dropped: RekeyPlan
}

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

    /// `rekey(kdf:confirm:)`, with `first` applied to the vault in the same write before the keys
    /// are replaced (a full member removed: the re-key must be of the file without its slot), and
    /// the trust key kept when `keepingTrustKey` (replaced otherwise). With `carryingSessions`, the
    /// sessions this command used carry on under the new master key (a member removed: the owner's
    /// own session is not what is revoked); every other session of this machine ends.
    func rekey(kdf: Scrypt.Parameters, confirm: (RekeyPlan) throws -> Void, keepingTrustKey: Bool = false,
               carryingSessions: Bool = false, first: (inout WorkingCopy) throws -> Void) throws -> RekeyOutcome {
        try requireTrustKey(.rekeyVault)
        let secret = try unlockSecretAtHand()
        var movedDeviceKey = false
        var newMasterKey: MasterKey?
        var outcome: RekeyOutcome
        do {
            outcome = try transaction { vault in
                try first(&vault)
                let (outcome, moved) = try Rekey(secret: secret, kdf: kdf, keepingTrustKey: keepingTrustKey,
                                                 readWithExposedDeviceKey: reads.usesExposedDeviceKey, host: host).run(on: &vault, confirm: confirm)
                movedDeviceKey = moved
                newMasterKey = vault.keys.masterKey
                return outcome
            }
        } catch {
            // A failed write leaves no new device key behind: the vault in place decides whether it is kept.
            if let bytes = try? readFile() {
                DeviceKeyStore.settlePending(vaultID: VaultFile.peekVaultID(bytes), host: host) { Snapshot.isDeviceKey($0, of: bytes) }
            }
            throw error
        }
        outcome.sessionsEnded = try finishRekey(movedDeviceKey: movedDeviceKey, masterKey: newMasterKey,
                                                keyEpoch: outcome.keyEpoch, carryingSessions: carryingSessions)
        return outcome
    }

    /// After a re-key's write: the new device key published (sealed with a recovery seal for the
    /// new `masterKey` where the TPM sealed the old one), this machine's sessions ended (how many),
    /// but with `carryingSessions` those this command used, which now hold `masterKey` at `keyEpoch`.
    func finishRekey(movedDeviceKey: Bool, masterKey: MasterKey?, keyEpoch: UInt64 = 0, carryingSessions: Bool = false) throws -> Int {
        let vaultID = VaultFile.peekVaultID(try readFile())
        // A reader may have taken the pending key up already (it is the vault's once the write is done).
        if movedDeviceKey { try? DeviceKeyStore.publish(vaultID: vaultID, host: host, masterKey: masterKey) }
        guard carryingSessions, let masterKey else { return SessionCache.endAll(vaultID: vaultID, host: host) }
        var held = walk.sessionTokens + [configuration.heldSessionToken].compactMap { $0 }
        if configuration.holdsLoginKeyringSession, let kept = LoginKeyring.find(vaultID: vaultID) { held.append(kept.token) }
        return SessionCache.endAll(vaultID: vaultID, host: host, keeping: held, masterKey: masterKey, keyEpoch: keyEpoch,
                                   newDeviceKey: movedDeviceKey)
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

    /// Makes one change to the keyslots (`change` returns the slots it made, with their secrets),
    /// then rotates the master key (as `rekey` does, keeping this machine's device key) when every
    /// keyslot left opens with a secret at hand: one just made, or the passphrase or key file the
    /// vault was opened with; and no item is bound to another machine. Returns whether it rotated:
    /// when it did not, an old copy of the file still opens with a removed or changed secret.
    func changeKeyslots(_ change: (inout WorkingCopy) throws -> [(Keyslot, KeyslotSecret)]) throws -> Bool {
        try requireKeyslotSecret(.changeKeyslots)
        var rotatedKeys: (deviceKey: DeviceKey?, masterKey: MasterKey?)
        let rotated = try transaction { vault in
            let made = try change(&vault)
            guard case .credential(let current) = source, vault.positionsBoundElsewhere.isEmpty else { return false }
            var kept: [KeyslotSecret] = []
            for slot in vault.file.keyslots {
                if let secret = made.first(where: { $0.0 == slot })?.1 {
                    kept.append(secret)
                } else if slot.kind == current.slotKind, case .opened = try slot.open(with: current.secret, vaultID: vault.file.vaultID) {
                    kept.append(KeyslotSecret(kind: slot.kind, secret: current.secret, kdf: slot.kdf))
                } else {
                    return false
                }
            }
            try vault.rekey(keyslots: kept)
            rotatedKeys = (vault.keys.deviceKey, vault.keys.masterKey)
            return true
        }
        if rotated {
            _ = SessionCache.endAll(vaultID: VaultFile.peekVaultID(try readFile()), host: host)
            refreshTPMRecoverySeal(deviceKey: rotatedKeys.deviceKey, masterKey: rotatedKeys.masterKey)
        }
        return rotated
    }

    /// The passphrase or key file the vault is opened with; a session's keys are asked to give way to one.
    func unlockSecretAtHand() throws -> UnlockSecret {
        if case .credential(let secret) = source { return secret }
        guard canAsk else { throw VaultError.rekeyNeedsSecret }
        if case .session = source { configuration.onNotice?(.rekeyAsksForTheSecret) }
        return try withKeys {
            guard case .credential(let secret) = source else { throw VaultError.locked(nil) }
            return secret
        }
    }
}
