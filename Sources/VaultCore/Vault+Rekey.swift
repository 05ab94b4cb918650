import FoundationEssentials
import VaultCrypto

/// What a re-key cannot carry over, shown to the user before anything changes.
public struct RekeyPlan: Sendable, Equatable {
    /// Keyslots whose secret is not at hand: they are dropped (re-add them with `passwd` afterwards).
    public var droppedKeyslots: [CredentialKind]
    /// Items bound to another machine's device key, which cannot be re-sealed here: they are dropped.
    public var itemsBoundElsewhere: [Vault.ItemCount]

    /// Whether the re-key drops nothing.
    public var dropsNothing: Bool { droppedKeyslots.isEmpty && itemsBoundElsewhere.isEmpty }
}

/// What a re-key did.
public struct RekeyOutcome: Sendable, Equatable {
    /// The key epoch the vault is at now.
    public var keyEpoch: UInt64
    /// How many items were re-sealed under the new keys.
    public var resealed: Int
    /// How many unlock sessions of this machine it ended.
    public var sessionsEnded: Int
    /// What it dropped, as shown before.
    public var dropped: RekeyPlan
}

extension Vault {
    /// Replaces every key of the vault: a new master key, class and group keys,
    /// every item re-sealed, the key epoch raised. The keyslot that the unlock
    /// secret at hand opens is re-made with it (asking for it when the keys at
    /// hand are a session's and there is a way to ask); other keyslots are
    /// dropped, and items bound to another machine cannot be re-sealed: when
    /// either applies, `confirm` is shown the plan first and may throw to
    /// change nothing. Ends every session, the after-first-unlock cache and
    /// every scoped credential (grant them again); the vault id stays. One
    /// atomic write: a crash leaves the old or the new vault.
    public func rekey(kdf: Scrypt.Parameters = .interactive, confirm: (RekeyPlan) throws -> Void) throws -> RekeyOutcome {
        try requireOwner("re-key the vault")
        let secret = try unlockSecretAtHand()
        return try transaction { vault in
            let plan = try rekeyPlan(vault, keeping: secret)
            if !plan.dropsNothing { try confirm(plan) }
            vault.remove(at: vault.positionsBoundElsewhere)
            let resealed = vault.file.index.count
            try vault.rekey(keyslots: [KeyslotSecret(kind: secret.slotKind, secret: secret.secret, kdf: kdf)])
            return RekeyOutcome(keyEpoch: vault.file.keyEpoch, resealed: resealed,
                                sessionsEnded: SessionCache.endAll(vaultID: vault.file.vaultID, host: host), dropped: plan)
        }
    }

    /// Changes the passphrase, rotating the master key when every keyslot that
    /// remains opens with a secret at hand (the new passphrase, and the key file
    /// or passphrase the vault was unlocked with) and no item is bound to another
    /// machine. Returns whether the master key was rotated; when it was not, an
    /// old copy of the file still opens with the old passphrase until `rekey`.
    @discardableResult
    public func changePassphrase(to newPassphrase: SecretBytes, kdf: Scrypt.Parameters = .interactive) throws -> Bool {
        try transaction { vault in
            try vault.replacePassphrase(with: newPassphrase, kdf: kdf)
            guard case .credential(let current) = source, vault.positionsBoundElsewhere.isEmpty else { return false }
            var kept = [KeyslotSecret(kind: .passphrase, secret: newPassphrase, kdf: kdf)]
            for slot in vault.file.keyslots where slot.kind != .passphrase {
                guard slot.kind == current.slotKind, case .opened = try slot.open(with: current.secret, vaultID: vault.file.vaultID) else {
                    return false
                }
                kept.append(KeyslotSecret(kind: current.slotKind, secret: current.secret, kdf: kdf))
            }
            try vault.rekey(keyslots: kept)
            _ = SessionCache.endAll(vaultID: vault.file.vaultID, host: host)
            return true
        }
    }

    private func rekeyPlan(_ vault: OpenVault, keeping secret: UnlockSecret) throws -> RekeyPlan {
        var opened = false
        var dropped: [CredentialKind] = []
        for slot in vault.file.keyslots {
            if !opened, slot.kind == secret.slotKind, case .opened = try slot.open(with: secret.secret, vaultID: vault.file.vaultID) {
                opened = true
            } else {
                dropped.append(slot.kind.credentialKind)
            }
        }
        var counts: [Vault.ItemCount] = []
        for position in vault.positionsBoundElsewhere {
            let entry = vault.file.index[position]
            guard let accessibility = Accessibility(fileID: entry.classID) else { continue }
            let name = vault.keys.groups[entry.groupID]?.group.name ?? "#\(entry.groupID)"
            if let at = counts.firstIndex(where: { $0.group == name && $0.accessibility == accessibility }) {
                counts[at].count += 1
            } else {
                counts.append(Vault.ItemCount(group: name, accessibility: accessibility, count: 1))
            }
        }
        return RekeyPlan(droppedKeyslots: dropped, itemsBoundElsewhere: counts)
    }

    /// The passphrase or key file the vault is opened with; a session's keys are asked to give way to one.
    private func unlockSecretAtHand() throws -> UnlockSecret {
        if case .credential(let secret) = source { return secret }
        guard canAsk else { throw VaultError.rekeyNeedsSecret }
        return try withKeys {
            guard case .credential(let secret) = source else { throw VaultError.locked(nil) }
            return secret
        }
    }
}
