import VaultCrypto

/// What an unlock leaves on this machine for reads without one: the after-first-unlock cache and
/// this device's grants.
enum MachineGrants {
    /// Any unlock on this machine leaves the after-first-unlock cache for this boot and (v2) this
    /// device's grants; a change rewrites both (groups and keys may be new).
    static func refresh(from vault: some OpenVault, onlyIfMissing: Bool, host: HostContext) {
        guard vault.keys.isFull, vault.deviceMatches, vault.damagedGroups.isEmpty else { return }
        let keyID = vault.file.vaultID
        if !onlyIfMissing || !AfterFirstUnlockCache.isPresent(vaultID: keyID, deviceKey: vault.keys.deviceKey, host: host) {
            try? AfterFirstUnlockCache.write(from: vault.keys, file: vault.file, host: host)
        }
        if vault.file.version >= 2,
            !onlyIfMissing || !DeviceGrants.areCurrent(for: vault.file, deviceKey: vault.keys.deviceKey, host: host)
        {
            try? DeviceGrants.write(from: vault.keys, file: vault.file, host: host)
        }
    }
}
