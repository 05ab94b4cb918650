/// Where a vault lives. Only the vault file is kept at this path: the device
/// key, sessions and caches are machine-local and live in the XDG directories
/// (see `HostContext`), so a vault may sit in a git work tree.
public struct VaultLocation: Equatable, Sendable {
    /// The vault file. A symbolic link is resolved once, here, so writes
    /// replace the real file and the link survives.
    public let path: String

    /// The vault file at `path` (a symbolic link resolved).
    public init(path: String) {
        self.path = FileSystem.resolvingSymbolicLink(path)
    }

    /// `explicitPath`, or the default location:
    /// `${XDG_DATA_HOME:-~/.local/share}/vault/default.vault`.
    public static func resolve(explicitPath: String?, environment: [String: String]) -> VaultLocation {
        if let path = explicitPath, !path.isEmpty {
            return VaultLocation(path: path)
        }
        return VaultLocation(path: HostContext.dataHome(environment: environment) + "/vault/default.vault")
    }

    /// Whether the vault file exists: false when nothing is at the path. Throws
    /// `notARegularFile` when something else is there (a directory, a FIFO, a device), found
    /// without opening it, so a FIFO named as the vault never leaves a command waiting.
    public var exists: Bool {
        get throws { try FileSystem.regularFileExists(path) }
    }

    /// The directory that holds the vault.
    package var directory: String { FileSystem.directoryOf(path) }

    /// Where earlier versions kept the device key: beside the vault, shared
    /// by the vaults of one directory. Read once to move it (see `DeviceKeyStore`).
    var legacyDeviceKeyPath: String { directory + "/device.key" }

    /// Where earlier versions kept their lock file; removed by writers.
    var legacyLockPath: String { path + ".lock" }
}
