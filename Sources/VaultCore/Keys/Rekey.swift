import FoundationEssentials
import VaultCrypto

/// The re-key of a working copy in memory, for a write to make (`Vault.rekey`, a merge's join):
/// `confirm` shown what it drops first (keyslots other than `secret`'s, items it cannot re-seal
/// here), a new device key made pending when this machine's is the vault's.
struct Rekey {
    /// The passphrase or key file whose keyslot is made again under the new master key.
    let secret: UnlockSecret
    let kdf: Scrypt.Parameters
    /// Whether the trust key is kept (replaced otherwise).
    let keepingTrustKey: Bool
    /// Whether the working copy was read with a device key from a git work tree: moving off it
    /// made a new one in this write already, so no other is made.
    let readWithExposedDeviceKey: Bool
    let host: HostContext

    /// Re-keys `vault`; returns what it did and whether it made a new device key pending.
    func run(on vault: inout WorkingCopy, confirm: (RekeyPlan) throws -> Void) throws -> (RekeyOutcome, movedDeviceKey: Bool) {
        let plan = try Rekey.plan(vault, keeping: secret)
        if !plan.dropsNothing { try confirm(plan) }
        vault.remove(at: vault.positionsBoundElsewhere)
        if secret.slotKind != .passphrase {
            vault.remove(
                at: vault.file.index.indices.filter { vault.file.index[$0].classID == Accessibility.whenPasscodeSetThisDeviceOnly.fileID })
        }
        let newDeviceKey =
            vault.deviceMatches && !readWithExposedDeviceKey
            ? try DeviceKeyStore.createPending(vaultID: vault.file.vaultID, host: host) : nil
        let resealed = vault.file.index.count
        try vault.rekey(
            keyslots: [KeyslotSecret(kind: secret.slotKind, secret: secret.secret, kdf: kdf)], newDeviceKey: newDeviceKey,
            keepingTrustKey: keepingTrustKey)
        return (RekeyOutcome(keyEpoch: vault.file.keyEpoch, resealed: resealed, sessionsEnded: 0, dropped: plan), newDeviceKey != nil)
    }

    /// What re-keying `vault` with only `secret`'s keyslot kept drops.
    static func plan(_ vault: some OpenVault, keeping secret: UnlockSecret) throws -> RekeyPlan {
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
        let boundElsewhere = Set(vault.positionsBoundElsewhere)
        let needingPassphrase =
            secret.slotKind == .passphrase
            ? 0
            : vault.file.index.indices.count {
                vault.file.index[$0].classID == Accessibility.whenPasscodeSetThisDeviceOnly.fileID && !boundElsewhere.contains($0)
            }
        return RekeyPlan(droppedKeyslots: dropped, itemsBoundElsewhere: counts, itemsNeedingPassphrase: needingPassphrase)
    }
}
