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

/// Replacing the vault's keys in a write: a re-key (`Vault.rekey`, a member's removal, fresh keys on
/// the way in), what follows it on this machine, and a keyslot change that rotates the master key
/// when it can. Written with what the vault writes with; the façade checks the keys' authority first.
struct Rekeying {
    let writer: VaultWriter

    private var reader: SnapshotReader { writer.reader }
    private var host: HostContext { writer.host }
    private var configuration: VaultConfiguration { writer.configuration }
    private var source: KeySource { reader.source }
    private func readFile() throws -> FileBytes { try reader.readFile() }

    /// `rekey(kdf:confirm:)`, with `first` applied to the vault in the same write before the keys
    /// are replaced (a full member removed: the re-key must be of the file without its slot), and
    /// the trust key kept when `keepingTrustKey` (replaced otherwise). With `carryingSessions`, the
    /// sessions this command used carry on under the new master key (a member removed: the owner's
    /// own session is not what is revoked); every other session of this machine ends.
    func rekey(
        kdf: Scrypt.Parameters, confirm: (RekeyPlan) throws -> Void, keepingTrustKey: Bool = false,
        carryingSessions: Bool = false, first: (inout WorkingCopy) throws -> Void
    ) throws -> RekeyOutcome {
        let secret = try unlockSecretAtHand()
        var movedDeviceKey = false
        var newMasterKey: MasterKey?
        var outcome: RekeyOutcome
        do {
            outcome = try writer.transaction { vault in
                try first(&vault)
                let (outcome, moved) = try Rekey(
                    secret: secret, kdf: kdf, keepingTrustKey: keepingTrustKey,
                    readWithExposedDeviceKey: writer.reads.usesExposedDeviceKey, host: host
                ).run(on: &vault, confirm: confirm)
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
        outcome.sessionsEnded = try finishRekey(
            movedDeviceKey: movedDeviceKey, masterKey: newMasterKey,
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
        var held = reader.walk.sessionTokens + [configuration.heldSessionToken].compactMap { $0 }
        if configuration.holdsLoginKeyringSession, let kept = LoginKeyring.find(vaultID: vaultID) { held.append(kept.token) }
        return SessionCache.endAll(
            vaultID: vaultID, host: host, keeping: held, masterKey: masterKey, keyEpoch: keyEpoch,
            newDeviceKey: movedDeviceKey)
    }

    /// Makes one change to the keyslots (`change` returns the slots it made, with their secrets),
    /// then rotates the master key (as `rekey` does, keeping this machine's device key) when every
    /// keyslot left opens with a secret at hand: one just made, or the passphrase or key file the
    /// vault was opened with; and no item is bound to another machine. Returns whether it rotated:
    /// when it did not, an old copy of the file still opens with a removed or changed secret.
    func changeKeyslots(_ change: (inout WorkingCopy) throws -> [(Keyslot, KeyslotSecret)]) throws -> Bool {
        var rotatedKeys: (deviceKey: DeviceKey?, masterKey: MasterKey?)
        let rotated = try writer.transaction { vault in
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
            DeviceKeySealing(reader: reader).refreshTPMRecoverySeal(deviceKey: rotatedKeys.deviceKey, masterKey: rotatedKeys.masterKey)
        }
        return rotated
    }

    /// The passphrase or key file the vault is opened with; a session's keys are asked to give way to one.
    func unlockSecretAtHand() throws -> UnlockSecret {
        if case .credential(let secret) = source { return secret }
        guard reader.canAsk else { throw VaultError.rekeyNeedsSecret }
        if case .session = source { configuration.onNotice?(.rekeyAsksForTheSecret) }
        return try reader.withKeys {
            guard case .credential(let secret) = source else { throw VaultError.locked(nil) }
            return secret
        }
    }

    /// Re-keys `renewed` — the whole vault (as `rekey`, keeping the trust key) or the groups given
    /// (as `revoke`) — and, with `freshHistory`, drops their items' revisions and purges their trash
    /// (purge records left, so a merge does not bring it back), with `then` applied to the vault in
    /// the same write (adding the newcomer: its slot is sealed at the write, with the new keys).
    func renewKeys<T>(
        _ renewed: RenewedKeys, freshHistory: Bool, kdf: Scrypt.Parameters, confirm: (RekeyPlan) throws -> Void,
        then: (inout WorkingCopy) throws -> T
    ) throws -> (result: T, renewal: KeyRenewal) {
        var result: T?
        var dropped = (revisions: 0, trash: 0)
        switch renewed {
        case .vault:
            let outcome = try rekey(kdf: kdf, confirm: confirm, keepingTrustKey: true) { vault in
                if freshHistory { dropped = try vault.dropHistory(of: vault.file.groups.map(\.groupID)) }
                result = try then(&vault)
            }
            return (
                try unwrap(result),
                KeyRenewal(
                    renewed: renewed, droppedRevisions: dropped.revisions, purgedTrash: dropped.trash,
                    keyEpoch: outcome.keyEpoch)
            )
        case .groups(let groups):
            let epoch = try writer.transaction { vault -> UInt64 in
                var ids: [GroupID] = []
                for group in groups {
                    guard let id = try vault.groupID(for: group, creating: false) else { throw vault.missingGroup(group) }
                    if !ids.contains(id) { ids.append(id) }
                }
                if freshHistory { dropped = try vault.dropHistory(of: ids) }
                for id in ids { _ = try vault.rotateGroupKey(id, progress: configuration.progress) }
                result = try then(&vault)
                return vault.file.keyEpoch
            }
            return (
                try unwrap(result),
                KeyRenewal(renewed: renewed, droppedRevisions: dropped.revisions, purgedTrash: dropped.trash, keyEpoch: epoch)
            )
        }
    }

    private func unwrap<T>(_ result: T?) throws -> T {
        guard let result else { throw VaultError.changedSinceShown }
        return result
    }
}
