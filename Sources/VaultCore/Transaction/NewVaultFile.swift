import FoundationEssentials
import VaultCrypto

/// The writer of a file that is not there yet: `create` and `copy`'s new vault.
enum NewVaultFile {
    /// Writes the vault `make` builds, given a fresh vault id and a device key made for it, as a new
    /// file at `location`, under the writer lock of its directory; throws `vaultExists` when one is there.
    static func write(
        at location: VaultLocation, host: HostContext,
        make: (_ vaultID: [UInt8], _ deviceKey: DeviceKey) throws -> WorkingCopy
    ) throws -> WorkingCopy {
        try FileSystem.makeDirectory(location.directory)
        let lock = try LockFile(path: try VaultWriter.writerLockPath(of: location, host: host))
        defer { withExtendedLifetime(lock) {} }
        guard try !location.exists else { throw VaultError.vaultExists(path: location.path) }
        let vaultID = SecureRandom.bytes(VaultFile.idSize)
        // Where the host has a TPM, only the device key's seals are written (its recovery seal needs the new master key).
        let sealing = host.tpm != nil
        let deviceKey = sealing ? DeviceKey.random() : try DeviceKeyStore.create(vaultID: vaultID, host: host)
        var vault = try make(vaultID, deviceKey)
        if sealing { try DeviceKeyStore.seal(deviceKey, vaultID: vaultID, host: host, pin: nil, masterKey: vault.keys.masterKey) }
        try FileSystem.writeAtomically(try vault.encode(), to: location.path, directory: location.directory)
        SeenCounters.update(vaultID: vaultID, host: host) { [vault] _ in
            SeenCounters(of: vault.file, groups: vault.groupsVerifiedByWriteKey)
        }
        try? DeviceGrants.write(from: vault.keys, file: vault.file, host: host)
        return vault
    }
}
