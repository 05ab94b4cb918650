#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// This machine's device key for one vault: 32 random bytes in a 0600 file
/// in the XDG data directory, named by the vault id; never in the vault file,
/// never beside it, never exported. Where the machine has a TPM, the file holds
/// the key sealed by it instead (`SealedDeviceKey`), and the clear key lives only
/// in memory (and in a live session's file, sealed under its token).
enum DeviceKeyStore {
    static let size = 32

    /// Where the device key of the vault `vaultID` lives on this machine.
    static func path(vaultID: [UInt8], host: HostContext) -> String {
        host.deviceKeyDirectory + "/" + hex(vaultID) + ".key"
    }

    /// The device key of `vaultID` where this machine keeps it, or nil: read only, never copied or
    /// published from elsewhere (what a reader that records nothing may use).
    static func readIfPresent(vaultID: [UInt8], host: HostContext) -> DeviceKey? {
        let path = path(vaultID: vaultID, host: host)
        return FileSystem.exists(path) ? try? read(path, exposed: false) : nil
    }

    /// The device key of `vaultID`, or nil when this machine has none yet.
    /// A sealed key is unsealed by the TPM (`VaultError.tpm` when it refuses), and must be the
    /// one `isTheVaults` says the vault is sealed under (`.notThisVaultsSeal` otherwise).
    /// A key an earlier version left beside the vault is copied here on first
    /// use, unless it lies in a git work tree (see `exposedLegacyKey`).
    static func load(
        vaultID: [UInt8], location: VaultLocation, host: HostContext,
        isTheVaults: (DeviceKey) -> Bool
    ) throws -> DeviceKey? {
        let path = path(vaultID: vaultID, host: host)
        // Both exist only after a crash while moving between them: the clear key is the one.
        if FileSystem.exists(path) { return try read(path, exposed: false) }
        let sealedPath = SealedDeviceKey.path(vaultID: vaultID, host: host)
        if FileSystem.exists(sealedPath) {
            let key = try SealedDeviceKey.read(sealedPath).unseal(tpm: host.tpm)
            // Only this machine's TPM opens it, yet it may seal another key: another vault's seal put in
            // its place, or this vault's from before a re-key. Taken for "another device", a re-key would drop the items.
            guard isTheVaults(key) else { throw VaultError.tpm(.notThisVaultsSeal) }
            return key
        }
        guard FileSystem.exists(location.legacyDeviceKeyPath), !GitWorkTree.contains(location.directory) else { return nil }
        let legacy = try read(location.legacyDeviceKeyPath, exposed: false)
        return try store(legacy, at: path)
    }

    /// A device key that an earlier version left beside the vault inside a git
    /// work tree, where it was likely committed: public, so only read (by
    /// every clone alike) until the owner's next change moves the vault off it.
    /// Its mode is not checked (a checkout makes it 0644), but it must be a
    /// regular file: a link committed in its place is never followed.
    static func exposedLegacyKey(vaultID: [UInt8], location: VaultLocation, host: HostContext) throws -> DeviceKey? {
        guard !FileSystem.exists(path(vaultID: vaultID, host: host)), FileSystem.exists(location.legacyDeviceKeyPath),
            GitWorkTree.contains(location.directory)
        else { return nil }
        return try read(location.legacyDeviceKeyPath, exposed: true)
    }

    /// Where a new device key waits while the vault is re-sealed under it: it
    /// becomes the device key (`publish`) only once the vault write is done.
    static func pendingPath(vaultID: [UInt8], host: HostContext) -> String {
        path(vaultID: vaultID, host: host) + ".pending"
    }

    /// Makes a new device key for `vaultID` at its pending path (replacing an
    /// unpublished one an earlier, failed attempt left).
    static func createPending(vaultID: [UInt8], host: HostContext) throws -> DeviceKey {
        let pending = pendingPath(vaultID: vaultID, host: host)
        if FileSystem.isRegularFile(pending) { FileSystem.remove(pending) }
        return try store(.random(), at: pending)
    }

    /// Makes the pending key of `vaultID` its device key, sealed by the TPM when the key it
    /// replaces was (with a recovery seal when `masterKey`, the vault's now, is given). When the TPM
    /// does not seal it, the new key stays a clear file and the old seals are removed (they seal a
    /// key the vault no longer uses).
    static func publish(vaultID: [UInt8], host: HostContext, masterKey: MasterKey? = nil) throws {
        let pending = pendingPath(vaultID: vaultID, host: host)
        let path = path(vaultID: vaultID, host: host)
        guard rename(pending, path) == 0 else {
            throw VaultError.io(path: pending, operation: .rename, errno: errno)
        }
        FileSystem.syncDirectory(host.deviceKeyDirectory)
        let sealedPath = SealedDeviceKey.path(vaultID: vaultID, host: host)
        guard FileSystem.isRegularFile(sealedPath) else { return }
        do {
            let old = try SealedDeviceKey.read(sealedPath)
            var pin: SecretBytes?
            if old.hasPIN { pin = try host.tpm?.askPIN?() }
            try seal(try read(path, exposed: false), vaultID: vaultID, host: host, pin: pin, masterKey: masterKey)
        } catch {
            FileSystem.wipeAndRemove(sealedPath)
            FileSystem.remove(TPMRecoverySeal.path(vaultID: vaultID, host: host))
            throw error
        }
    }

    /// Whether the device key of `vaultID` is kept sealed by the TPM (and how).
    static func sealed(vaultID: [UInt8], host: HostContext) throws -> SealedDeviceKey? {
        let sealedPath = SealedDeviceKey.path(vaultID: vaultID, host: host)
        guard FileSystem.exists(sealedPath), !FileSystem.exists(path(vaultID: vaultID, host: host)) else { return nil }
        return try SealedDeviceKey.read(sealedPath)
    }

    /// Seals `key`, the device key of `vaultID`, with the host's TPM, and with `masterKey` its
    /// recovery seal too (`TPMRecoverySeal`; without it, a recovery seal left is removed: it may
    /// seal another key); checks the TPM opens both, keeps them (replacing earlier ones), and only
    /// then wipes the clear key file. Throws `VaultError.tpm` (nothing changed) when the TPM does not seal or open them.
    static func seal(_ key: DeviceKey, vaultID: [UInt8], host: HostContext, pin: SecretBytes?, masterKey: MasterKey?) throws {
        guard let tpm = host.tpm else { throw VaultError.tpm(.noTPM) }
        let sealed: SealedDeviceKey
        var recovery: TPMRecoverySeal?
        do {
            sealed = try SealedDeviceKey.seal(key, tpm: tpm, pin: pin)
            guard try tpm.sealer.unseal(sealed.blob, pcrs: sealed.pcrs, pin: pin).constantTimeEquals(key.secret) else {
                throw TPMFailure.failed(step: .unsealing, code: 0)
            }
            recovery = try masterKey.map { try checkedRecoverySeal(key, masterKey: $0, pin: pin, vaultID: vaultID, tpm: tpm) }
        } catch let failure as TPMFailure {
            throw VaultError.tpm(failure)
        }
        try FileSystem.makeDirectory(host.deviceKeyDirectory)
        let recoveryPath = TPMRecoverySeal.path(vaultID: vaultID, host: host)
        if let recovery {
            try FileSystem.writeAtomically(recovery.encoded(), to: recoveryPath, directory: host.deviceKeyDirectory)
        } else if FileSystem.isRegularFile(recoveryPath) {
            FileSystem.wipeAndRemove(recoveryPath)
        }
        try FileSystem.writeAtomically(
            sealed.encoded(), to: SealedDeviceKey.path(vaultID: vaultID, host: host),
            directory: host.deviceKeyDirectory)
        let path = path(vaultID: vaultID, host: host)
        if FileSystem.isRegularFile(path) { FileSystem.wipeAndRemove(path) }
        FileSystem.syncDirectory(host.deviceKeyDirectory)
    }

    /// Seals `key` again as the recovery seal of `vaultID`'s device key, for `masterKey` (the vault's
    /// after a rotation) and `pin` (the PCR-bound seal's); the PCR-bound seal stays as it is.
    /// Throws `VaultError.tpm` (nothing changed) when the TPM does not seal or open it.
    static func resealRecovery(_ key: DeviceKey, vaultID: [UInt8], host: HostContext, pin: SecretBytes?, masterKey: MasterKey) throws {
        guard let tpm = host.tpm else { throw VaultError.tpm(.noTPM) }
        let recovery: TPMRecoverySeal
        do {
            recovery = try checkedRecoverySeal(key, masterKey: masterKey, pin: pin, vaultID: vaultID, tpm: tpm)
        } catch let failure as TPMFailure {
            throw VaultError.tpm(failure)
        }
        try FileSystem.writeAtomically(
            recovery.encoded(), to: TPMRecoverySeal.path(vaultID: vaultID, host: host), directory: host.deviceKeyDirectory)
    }

    /// The recovery seal of `key`, once the TPM has opened it again.
    private static func checkedRecoverySeal(
        _ key: DeviceKey, masterKey: MasterKey, pin: SecretBytes?, vaultID: [UInt8],
        tpm: TPMAccess
    ) throws -> TPMRecoverySeal {
        let made = try TPMRecoverySeal.seal(key, masterKey: masterKey, pin: pin, vaultID: vaultID, tpm: tpm)
        guard try made.unseal(masterKey: masterKey, pin: pin, vaultID: vaultID, sealer: tpm.sealer) == key else {
            throw TPMFailure.failed(step: .unsealing, code: 0)
        }
        return made
    }

    /// Keeps `key`, the device key of `vaultID`, as a clear 0600 file again, and removes its seal and recovery seal.
    static func unsealToFile(_ key: DeviceKey, vaultID: [UInt8], host: HostContext) throws {
        try FileSystem.writeAtomically(key.secret.copyBytes(), to: path(vaultID: vaultID, host: host), directory: host.deviceKeyDirectory)
        FileSystem.remove(TPMRecoverySeal.path(vaultID: vaultID, host: host))
        FileSystem.remove(SealedDeviceKey.path(vaultID: vaultID, host: host))
        FileSystem.syncDirectory(host.deviceKeyDirectory)
    }

    /// After a re-key that failed: the pending key it made is published when the vault in place
    /// is sealed under it (the write landed before the failure), and removed otherwise.
    static func settlePending(vaultID: [UInt8], host: HostContext, isTheVaults: (DeviceKey) -> Bool) {
        let pending = pendingPath(vaultID: vaultID, host: host)
        guard FileSystem.isRegularFile(pending) else { return }
        if let key = try? read(pending, exposed: false), isTheVaults(key) {
            try? publish(vaultID: vaultID, host: host)
        } else {
            FileSystem.remove(pending)
        }
    }

    /// The pending key of `vaultID` when one is left and `isTheVaults` says the
    /// vault is sealed under it (a crash between the vault write and `publish`):
    /// it is published now. Nil otherwise.
    static func resumePending(vaultID: [UInt8], host: HostContext, isTheVaults: (DeviceKey) -> Bool) throws -> DeviceKey? {
        let pending = pendingPath(vaultID: vaultID, host: host)
        guard FileSystem.isRegularFile(pending), let key = try? read(pending, exposed: false), isTheVaults(key) else { return nil }
        try publish(vaultID: vaultID, host: host)
        return key
    }

    /// Makes a new device key for `vaultID` in a 0600 file. Fails if a key file exists.
    static func create(vaultID: [UInt8], host: HostContext) throws -> DeviceKey {
        try store(.random(), at: path(vaultID: vaultID, host: host))
    }

    /// Removes the device key of `vaultID`, this device's grants of it and a key left pending (for `reset`);
    /// returns the key's path when there was one.
    static func remove(vaultID: [UInt8], host: HostContext) -> String? {
        for path in [DeviceGrants.path(vaultID: vaultID, host: host), pendingPath(vaultID: vaultID, host: host)]
        where FileSystem.isRegularFile(path) {
            FileSystem.wipeAndRemove(path)
        }
        var removed: String?
        for path in [
            TPMRecoverySeal.path(vaultID: vaultID, host: host), SealedDeviceKey.path(vaultID: vaultID, host: host),
            path(vaultID: vaultID, host: host)
        ] where FileSystem.isRegularFile(path) {
            FileSystem.wipeAndRemove(path)
            removed = path
        }
        return removed
    }

    /// Reads a device key file without following a link; an `exposed` one may be readable by others.
    private static func read(_ path: String, exposed: Bool) throws -> DeviceKey {
        guard FileSystem.isRegularFile(path) else { throw VaultError.symbolicLink(path: path) }
        let bytes = try FileSystem.read(path, requirePrivate: !exposed, missing: .io(path: path, operation: .open, errno: 2))
        guard bytes.count == size else { throw VaultError.corrupted(path: path, detail: .count(.deviceKeyBytes, bytes.count)) }
        return DeviceKey(SecretBytes(bytes))
    }

    /// Writes `key` at `path`, or returns the key there when another process was first.
    private static func store(_ key: DeviceKey, at path: String) throws -> DeviceKey {
        try FileSystem.makeDirectory(FileSystem.directoryOf(path))
        do {
            try FileSystem.createExclusive(key.secret.copyBytes(), at: path)
            return key
        } catch VaultError.storage(.io(_, _, EEXIST)) {
            return try read(path, exposed: false)
        }
    }
}
