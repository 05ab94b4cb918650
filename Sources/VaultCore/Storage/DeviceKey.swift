#if canImport(Glibc)
import Glibc
#endif
import VaultCrypto

/// This machine's device key for one vault: 32 random bytes in a 0600 file
/// in the XDG data directory, named by the vault id; never in the vault file,
/// never beside it, never exported.
enum DeviceKey {
    static let size = 32

    /// Where the device key of the vault `vaultID` lives on this machine.
    static func path(vaultID: [UInt8], host: HostContext) -> String {
        host.deviceKeyDirectory + "/" + hex(vaultID) + ".key"
    }

    /// The device key of `vaultID`, or nil when this machine has none yet.
    /// A key an earlier version left beside the vault is moved here on first
    /// use, unless it lies in a git work tree (see `exposedLegacyKey`).
    static func load(vaultID: [UInt8], location: VaultLocation, host: HostContext) throws -> SecretBytes? {
        let path = path(vaultID: vaultID, host: host)
        if FileSystem.exists(path) { return try read(path) }
        guard FileSystem.exists(location.legacyDeviceKeyPath), !GitWorkTree.contains(location.directory) else { return nil }
        let legacy = try read(location.legacyDeviceKeyPath)
        return try store(legacy, at: path)
    }

    /// A device key that an earlier version left beside the vault inside a git
    /// work tree, where it was likely committed: public, so never used as a
    /// device key again, only to move the items it sealed under a new one.
    static func exposedLegacyKey(vaultID: [UInt8], location: VaultLocation, host: HostContext) throws -> SecretBytes? {
        guard !FileSystem.exists(path(vaultID: vaultID, host: host)), FileSystem.exists(location.legacyDeviceKeyPath),
              GitWorkTree.contains(location.directory) else { return nil }
        return try read(location.legacyDeviceKeyPath)
    }

    /// Makes a new device key for `vaultID`; fails if one exists.
    static func create(vaultID: [UInt8], host: HostContext) throws -> SecretBytes {
        try store(SecretBytes(random: size), at: path(vaultID: vaultID, host: host))
    }

    /// Removes the device key of `vaultID` (for `reset`); returns its path when there was one.
    static func remove(vaultID: [UInt8], host: HostContext) -> String? {
        let path = path(vaultID: vaultID, host: host)
        guard FileSystem.exists(path) else { return nil }
        FileSystem.wipeAndRemove(path)
        return path
    }

    private static func read(_ path: String) throws -> SecretBytes {
        let bytes = try FileSystem.read(path, requirePrivate: true, missing: .io(path: path, operation: "open", errno: 2))
        guard bytes.count == size else { throw VaultError.corrupted(path: path, detail: "a device key of \(bytes.count) bytes") }
        return SecretBytes(bytes)
    }

    /// Writes `key` at `path`, or returns the key there when another process was first.
    private static func store(_ key: SecretBytes, at path: String) throws -> SecretBytes {
        try FileSystem.makeDirectory(FileSystem.directoryOf(path))
        do {
            try FileSystem.createExclusive(key.copyBytes(), at: path)
            return key
        } catch VaultError.io(_, _, EEXIST) {
            return try read(path)
        }
    }
}

/// Whether a directory lies inside a git work tree: it or a parent holds `.git`.
enum GitWorkTree {
    static func contains(_ directory: String) -> Bool {
        guard var current = FileSystem.realPath(directory) else { return false }
        while true {
            if FileSystem.exists(current + "/.git") { return true }
            guard current != "/", !current.isEmpty else { return false }
            current = FileSystem.directoryOf(current)
        }
    }
}
