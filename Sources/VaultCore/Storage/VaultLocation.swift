/// Where a vault lives: the vault file and the files kept beside it.
public struct VaultLocation: Equatable, Sendable {
    /// The vault file.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The default location: `${XDG_DATA_HOME:-~/.local/share}/vault/default.vault`,
    /// overridden by `VAULT_PATH`.
    public static func resolve(explicitPath: String?, environment: [String: String]) -> VaultLocation {
        if let path = explicitPath ?? environment["VAULT_PATH"], !path.isEmpty {
            return VaultLocation(path: path)
        }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            dataHome = (environment["HOME"] ?? "/") + "/.local/share"
        }
        return VaultLocation(path: dataHome + "/vault/default.vault")
    }

    /// Whether the vault file exists.
    public var exists: Bool { FileSystem.exists(path) }

    /// The directory that holds the vault.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    /// The sidecar lock file: writers lock it, never the vault, whose inode the rename swaps.
    public var lockPath: String { path + ".lock" }

    /// This machine's device key, shared by the vaults of one directory; never in the vault file.
    public var deviceKeyPath: String { directory + "/device.key" }
}
