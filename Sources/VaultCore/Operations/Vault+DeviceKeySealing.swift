import VaultCrypto

/// How this machine keeps a vault's device key.
public enum DeviceKeyProtection: Equatable, Sendable {
    /// This machine has no device key for the vault (device-bound items do not open here).
    case none
    /// A clear 0600 file in the data directory.
    case file
    /// Sealed by the TPM, under these PCRs (sha256 bank) and, when `pin`, a PIN.
    case tpm(pcrs: [UInt8], pin: Bool)
}

/// What `sealDeviceKey` did.
public enum DeviceKeySealOutcome: Equatable, Sendable {
    /// The clear device key is now sealed by the TPM; its file is wiped.
    case sealed
    /// It was sealed already; nothing changed.
    case alreadySealed
    /// It was sealed again, under the PCRs' values now (and the PIN given).
    case resealed
}

// Moving this machine's device key of a vault into the TPM and back (`vault device-key`).
// None of these ever makes a new device key: a key the TPM refuses stays refused, and the
// items bound to it stay as they are, until the TPM opens it again.
extension Vault {
    /// How this machine keeps the vault's device key.
    public func deviceKeyProtection() throws -> DeviceKeyProtection {
        let vaultID = try vaultID()
        if let sealed = try DeviceKey.sealed(vaultID: vaultID, host: host) { return .tpm(pcrs: sealed.pcrs, pin: sealed.hasPIN) }
        return FileSystem.isRegularFile(DeviceKey.path(vaultID: vaultID, host: host)) ? .file : .none
    }

    /// Seals this machine's device key by the host's TPM (`HostContext.tpm`) under its PCRs and
    /// `pin`, and wipes the clear file. A key sealed already is left as it is, unless `reseal`:
    /// then it is sealed again, which needs an unlock and a device key the TPM (or the
    /// session) opens now. Throws `VaultError.tpm` (nothing changed) when the TPM refuses,
    /// `noDeviceKey` when this machine has none for the vault, `locked` for a re-seal without an unlock.
    public func sealDeviceKey(reseal: Bool, pin: SecretBytes?) throws -> DeviceKeySealOutcome {
        let vaultID = try vaultID()
        guard host.tpm != nil else { throw VaultError.tpm(.noTPM) }
        if try DeviceKey.sealed(vaultID: vaultID, host: host) != nil {
            guard reseal else { return .alreadySealed }
            let key = try deviceKeyWithUnlock()
            try DeviceKey.seal(key, vaultID: vaultID, host: host, pin: pin)
            return .resealed
        }
        let path = DeviceKey.path(vaultID: vaultID, host: host)
        guard let key = try DeviceKey.load(vaultID: vaultID, location: location, host: host), FileSystem.isRegularFile(path) else {
            throw VaultError.noDeviceKey
        }
        try DeviceKey.seal(key, vaultID: vaultID, host: host, pin: pin)
        return .sealed
    }

    /// Moves this machine's device key out of the TPM into a clear 0600 file again; needs an
    /// unlock. Returns false when it was not sealed. Throws `VaultError.tpm` when the TPM refuses
    /// it (nothing changed), `locked` without an unlock.
    public func unsealDeviceKeyToFile() throws -> Bool {
        let vaultID = try vaultID()
        guard try DeviceKey.sealed(vaultID: vaultID, host: host) != nil else { return false }
        try DeviceKey.unsealToFile(try deviceKeyWithUnlock(), vaultID: vaultID, host: host)
        return true
    }

    /// The device key, from a read that holds the master key (asking for an unlock if need be),
    /// and only when it is the vault's.
    private func deviceKeyWithUnlock() throws -> SecretBytes {
        try withKeys {
            let vault = try readSnapshot()
            guard vault.keys.masterKey != nil else { throw VaultError.locked(nil) }
            if let refusal = deviceKeyRefusal { throw VaultError.tpm(refusal) }
            guard vault.deviceMatches, let key = vault.keys.deviceKey else { throw VaultError.noDeviceKey }
            return key
        }
    }

    /// This machine's device key of `vaultID` for what reads it without needing it (status,
    /// lock): nil, with why, when the TPM refuses it.
    func deviceKeyIfItOpens(vaultID: [UInt8]) throws -> (key: SecretBytes?, refusal: TPMFailure?) {
        do {
            return (try DeviceKey.load(vaultID: vaultID, location: location, host: host), nil)
        } catch VaultError.tpm(let refusal) {
            return (nil, refusal)
        }
    }
}
