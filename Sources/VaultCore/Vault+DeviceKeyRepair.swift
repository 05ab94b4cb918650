import VaultCrypto

/// Something vault did on its own during an operation that the user should
/// know about; the command line prints it.
public enum VaultNotice: Equatable, Sendable {
    /// A device key that an earlier version kept beside the vault, inside a
    /// git work tree, was replaced by a new one in the XDG data directory, and
    /// `resealed` device-bound items were sealed again under it. `removedPath`
    /// is the old key's path when vault removed it (kept when other vaults in
    /// that directory may still need it).
    case deviceKeyReplaced(oldPath: String, removed: Bool, resealed: Int)
}

extension Vault {
    /// Moves the vault off a device key that lies in a git work tree (earlier
    /// versions kept it beside the vault, and `git add -A` committed it): a
    /// new device key in the XDG data directory, the always-class keys
    /// re-wrapped and every device-bound item re-sealed under it, in one
    /// atomic write under the writer lock. The old key is removed unless
    /// another vault in the directory may still use it. Needs the master key.
    func replaceExposedDeviceKey(_ exposed: SecretBytes, masterKey: SecretBytes) throws -> OpenVault {
        try withWriterLock {
            let bytes = try readFile()
            let vaultID = VaultFile.peekVaultID(bytes)
            let current = try OpenVault.open(bytes, masterKey: masterKey, deviceKey: exposed, path: location.path)
            let newKey = try DeviceKey.create(vaultID: vaultID, host: host)
            let (moved, resealed) = try current.rebound(toDeviceKey: newKey)
            try FileSystem.writeAtomically(try moved.encode(), to: location.path, directory: location.directory)
            let oldPath = location.legacyDeviceKeyPath
            let vaultName = String(location.path.split(separator: "/").last ?? "")
            let sharesDirectory = FileSystem.list(location.directory).contains { $0.hasSuffix(".vault") && $0 != vaultName }
            if !sharesDirectory { FileSystem.wipeAndRemove(oldPath) }
            onNotice?(.deviceKeyReplaced(oldPath: oldPath, removed: !sharesDirectory, resealed: resealed))
            return moved
        }
    }
}
