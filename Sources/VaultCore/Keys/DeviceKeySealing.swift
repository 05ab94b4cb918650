import VaultCrypto

/// How this machine keeps a vault's device key.
package enum DeviceKeyProtection: Equatable, Sendable {
    /// This machine has no device key for the vault (device-bound items do not open here).
    case none
    /// A clear 0600 file in the data directory.
    case file
    /// Sealed by the TPM, under these PCRs (sha256 bank) and, when `pin`, a PIN.
    case tpm(pcrs: [UInt8], pin: Bool)
}

/// What `sealDeviceKey` did.
package enum DeviceKeySealOutcome: Equatable, Sendable {
    /// The clear device key is now sealed by the TPM; its file is wiped.
    case sealed
    /// It was sealed already; nothing changed.
    case alreadySealed
    /// It was sealed again, under the PCRs' values now (and the PIN given).
    case resealed
}

/// Moving this machine's device key of a vault into the TPM and back (`vault device-key`), read
/// with what the vault reads with. None of these ever makes a new device key: a key the TPM refuses
/// stays refused, and the items bound to it stay as they are, until the TPM opens it again.
struct DeviceKeySealing {
    let reader: SnapshotReader

    var location: VaultLocation { reader.location }
    var host: HostContext { reader.host }

    private func vaultID() throws -> [UInt8] { try reader.vaultID() }
    private func readFile() throws -> FileBytes { try reader.readFile() }

    /// How this machine keeps the vault's device key.
    func protection() throws -> DeviceKeyProtection {
        let vaultID = try vaultID()
        if let sealed = try DeviceKeyStore.sealed(vaultID: vaultID, host: host) { return .tpm(pcrs: sealed.pcrs, pin: sealed.hasPIN) }
        return FileSystem.isRegularFile(DeviceKeyStore.path(vaultID: vaultID, host: host)) ? .file : .none
    }

    /// Seals this machine's device key by the host's TPM (`HostContext.tpm`) under its PCRs and
    /// `pin`, with its recovery seal beside (`TPMRecoverySeal`), and wipes the clear file; both need
    /// an unlock. A key sealed already is left as it is, unless `reseal`: then it is sealed again,
    /// with a device key the TPM (or the session) opens now, or, when the TPM refuses it for a
    /// change of the PCRs, the one the recovery seal gives for the master key. Throws `VaultError.tpm`
    /// (nothing changed) when the TPM refuses, `noDeviceKey` when this machine has none for the
    /// vault, `locked` without an unlock.
    func seal(reseal: Bool, pin: SecretBytes?) throws -> DeviceKeySealOutcome {
        let vaultID = try vaultID()
        guard host.tpm != nil else { throw VaultError.tpm(.noTPM) }
        let wasSealed = try DeviceKeyStore.sealed(vaultID: vaultID, host: host) != nil
        if wasSealed, !reseal { return .alreadySealed }
        if !wasSealed, !FileSystem.isRegularFile(DeviceKeyStore.path(vaultID: vaultID, host: host)),
            !FileSystem.isRegularFile(location.legacyDeviceKeyPath)
        {
            throw VaultError.noDeviceKey
        }
        let keys = try keysWithUnlock(recovering: wasSealed)
        try DeviceKeyStore.seal(keys.deviceKey, vaultID: vaultID, host: host, pin: pin, masterKey: keys.masterKey)
        return wasSealed ? .resealed : .sealed
    }

    /// Moves this machine's device key out of the TPM into a clear 0600 file again; needs an
    /// unlock. Returns false when it was not sealed. Throws `VaultError.tpm` when the TPM refuses
    /// it (nothing changed), `locked` without an unlock.
    func unsealToFile() throws -> Bool {
        let vaultID = try vaultID()
        guard try DeviceKeyStore.sealed(vaultID: vaultID, host: host) != nil else { return false }
        try DeviceKeyStore.unsealToFile(try keysWithUnlock(recovering: false).deviceKey, vaultID: vaultID, host: host)
        return true
    }

    /// The master key and the device key, from a read that holds the master key (asking for an
    /// unlock if need be), the device key only when it is the vault's. When the TPM refuses the
    /// device key and `recovering`, it comes from the recovery seal. Without an unlock, `locked`
    /// (not the TPM's refusal: the unlock comes first).
    private func keysWithUnlock(recovering: Bool) throws -> (masterKey: MasterKey, deviceKey: DeviceKey) {
        try reader.withKeysAsking {
            let vault = try reader.readSnapshot()
            guard let masterKey = vault.keys.masterKey else { throw VaultError.locked(nil) }
            if let refusal = reader.reads.deviceKeyRefusal {
                guard recovering else { throw VaultError.tpm(refusal) }
                return (masterKey, try recoveredDeviceKey(masterKey: masterKey, vaultID: vault.file.vaultID, refusal: refusal))
            }
            guard vault.deviceMatches, let key = vault.keys.deviceKey else { throw VaultError.noDeviceKey }
            return (masterKey, key)
        }
    }

    /// The device key from its recovery seal, opened with `masterKey`, after the PCR-bound seal was
    /// refused for `refusal`. Only a change of the PCRs, a seal that is not the vault's (another
    /// vault's, or one from before a re-key) and a seal from another TPM (which the recovery seal
    /// cannot open either) are recovered; a missing or stale recovery seal (the master key rotated
    /// since) throws `refusal` without asking the TPM, so it spends no lockout try.
    private func recoveredDeviceKey(masterKey: MasterKey, vaultID: [UInt8], refusal: TPMFailure) throws -> DeviceKey {
        switch refusal {
        case .stateChanged, .notThisVaultsSeal, .anotherTPM: break
        default: throw VaultError.tpm(refusal)
        }
        let path = TPMRecoverySeal.path(vaultID: vaultID, host: host)
        guard let tpm = host.tpm, FileSystem.isRegularFile(path) else { throw VaultError.tpm(refusal) }
        let recovery = try TPMRecoverySeal.read(path)
        guard recovery.isOf(masterKey: masterKey, vaultID: vaultID) else { throw VaultError.tpm(refusal) }
        let key: DeviceKey
        do {
            var pin: SecretBytes?
            if recovery.hasPIN {
                guard let ask = tpm.askPIN else { throw TPMFailure.pinNeeded }
                pin = try ask()
            }
            key = try recovery.unseal(masterKey: masterKey, pin: pin, vaultID: vaultID, sealer: tpm.sealer)
        } catch let failure as TPMFailure {
            throw VaultError.tpm(failure)
        }
        guard Snapshot.isDeviceKey(key, of: try readFile()) else { throw VaultError.tpm(refusal) }
        return key
    }

    /// After the master key rotated (a passphrase change): the recovery seal, when there is one, is
    /// made again for the new key, so it still opens after a change of the PCRs. Best effort: a
    /// stale one is known by its check and never spends a lockout try.
    func refreshTPMRecoverySeal(deviceKey: DeviceKey?, masterKey: MasterKey?) {
        guard let deviceKey, let masterKey, let vaultID = try? vaultID(),
            FileSystem.isRegularFile(TPMRecoverySeal.path(vaultID: vaultID, host: host)),
            let sealed = try? DeviceKeyStore.sealed(vaultID: vaultID, host: host)
        else { return }
        let pin = sealed.hasPIN ? try? host.tpm?.askPIN?() : nil
        guard !sealed.hasPIN || pin != nil else { return }
        try? DeviceKeyStore.resealRecovery(deviceKey, vaultID: vaultID, host: host, pin: pin, masterKey: masterKey)
    }

    /// This machine's device key of the vault in `bytes` for what reads it without needing it
    /// (status, lock): nil, with why, when the TPM refuses it or its seal is not the vault's.
    func keyIfItOpens(of bytes: FileBytes) throws -> (key: DeviceKey?, refusal: TPMFailure?) {
        do {
            return (
                try DeviceKeyStore.load(
                    vaultID: VaultFile.peekVaultID(bytes), location: location, host: host,
                    isTheVaults: { Snapshot.isDeviceKey($0, of: bytes) }), nil
            )
        } catch VaultError.keys(.tpm(let refusal)) {
            return (nil, refusal)
        }
    }
}
