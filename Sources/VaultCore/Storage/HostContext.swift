import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// What vault reads from the machine besides the vault: the time, the boot
/// id and where per-user runtime files go. Tests inject their own.
public struct HostContext: Sendable {
    /// The time now: created and modified dates, expiry, session timeouts.
    package var now: @Sendable () -> Date
    /// This boot's id (`/proc/sys/kernel/random/boot_id`), nil where there is none.
    package var bootID: @Sendable () -> String?
    /// The directory for session and after-first-unlock caches.
    package var runtimeDirectory: String
    /// The directory for this machine's device keys, one per vault id: kept
    /// across reboots, never beside a vault file.
    package var deviceKeyDirectory: String
    /// The directory for what this machine remembers of each vault (the
    /// counters it has seen, against rollback): kept across reboots, never beside a vault file.
    package var stateDirectory: String
    /// This machine's TPM, when one is configured or found: device keys are then sealed by it
    /// (`DeviceKeyStore`). Nil: device keys are plain 0600 files, and a sealed one does not open.
    package var tpm: TPMAccess?

    /// - Parameters:
    ///   - deviceKeyDirectory: defaults to `device-keys` in the runtime directory (for tests).
    ///   - stateDirectory: defaults to `state` in the runtime directory (for tests).
    package init(
        now: @escaping @Sendable () -> Date, bootID: @escaping @Sendable () -> String?, runtimeDirectory: String,
        deviceKeyDirectory: String? = nil, stateDirectory: String? = nil
    ) {
        self.now = now
        self.bootID = bootID
        self.runtimeDirectory = runtimeDirectory
        self.deviceKeyDirectory = deviceKeyDirectory ?? runtimeDirectory + "/device-keys"
        self.stateDirectory = stateDirectory ?? runtimeDirectory + "/state"
    }

    /// The real machine: runtime files in `$XDG_RUNTIME_DIR/vault` (without it, see
    /// `fallbackRuntimeDirectory`), device keys in
    /// `${XDG_DATA_HOME:-~/.local/share}/vault/device-keys`, counters seen in
    /// `${XDG_STATE_HOME:-~/.local/state}/vault`.
    public static func live(environment: [String: String]) -> HostContext {
        let state = stateHome(environment: environment) + "/vault"
        let runtime: String
        if let base = environment["XDG_RUNTIME_DIR"], base.hasPrefix("/") {
            runtime = base + "/vault"
        } else {
            runtime = fallbackRuntimeDirectory(stateDirectory: state)
        }
        return HostContext(
            now: clock(environment: environment), bootID: { HostContext.readBootID() }, runtimeDirectory: runtime,
            deviceKeyDirectory: dataHome(environment: environment) + "/vault/device-keys", stateDirectory: state)
    }

    /// The runtime directory without `XDG_RUNTIME_DIR`: `/tmp/vault-UID`, made 0700 here when
    /// missing, while it is a directory of ours that nobody else may enter; otherwise (another
    /// user made it first, or put a link there) `runtime` in the state directory, which no other
    /// user can make or hold, and that one from then on: a squatter who removes the directory
    /// and makes it again never splits one user's sessions and writer locks between two places.
    static func fallbackRuntimeDirectory(stateDirectory: String) -> String {
        let own = stateDirectory + "/runtime"
        if FileSystem.exists(own) { return own }
        let shared = "/tmp/vault-\(getuid())"
        // mkdir first, then look: a directory this call made stays ours (/tmp is sticky).
        mkdir(shared, 0o700)
        if privateDirectoryProblem(shared, followingLinks: false) == nil { return shared }
        try? FileSystem.makeDirectory(own)
        return own
    }

    /// Why `path` cannot hold runtime files, or nil when it can: it must be a directory that this
    /// user owns and nobody else may enter; a link counts only when `followingLinks`.
    static func privateDirectoryProblem(_ path: String, followingLinks: Bool) -> VaultError? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
            return VaultError.io(path: path, operation: .stat, errno: errno)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return VaultError.io(path: path, operation: .useAsDirectory, errno: ENOTDIR) }
        guard info.st_uid == getuid() else { return VaultError.ownedByAnotherUser(path: path, owner: info.st_uid) }
        guard info.st_mode & 0o077 == 0 else { return VaultError.insecurePermissions(path: path, mode: UInt32(info.st_mode & 0o777)) }
        return nil
    }

    /// `$XDG_STATE_HOME`, or `~/.local/state` when it is unset or relative.
    static func stateHome(environment: [String: String]) -> String {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg }
        return (environment["HOME"] ?? "/") + "/.local/state"
    }

    /// `$XDG_DATA_HOME`, or `~/.local/share` when it is unset or relative.
    static func dataHome(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg }
        return (environment["HOME"] ?? "/") + "/.local/share"
    }

    /// The system clock; in debug builds (the ones the tests run), a fixed
    /// time when VAULT_TEST_NOW holds Unix seconds, so tests of expiry and
    /// session timeouts need not wait (docs/CLI.md). Release builds ignore it.
    /// It moves only the time of checks a caller could fool anyway by faking
    /// its own clock (expiry of items and credentials, session idle time) and
    /// the dates vault writes; no key depends on the time.
    private static func clock(environment: [String: String]) -> @Sendable () -> Date {
        #if DEBUG
        if let text = environment["VAULT_TEST_NOW"], !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let seconds = Int64(text)
        {
            let fixed = Date(timeIntervalSince1970: Double(seconds))
            return { fixed }
        }
        #endif
        return { Date() }
    }

    private static func readBootID() -> String? {
        guard
            let bytes = try? FileSystem.read(
                "/proc/sys/kernel/random/boot_id", requirePrivate: false,
                missing: .io(path: "boot_id", operation: .open, errno: ENOENT))
        else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return text.isEmpty ? nil : text
    }

    /// The runtime directory, created 0700 if missing; refused when another
    /// user owns it (`ownedByAnotherUser`) or others may enter it (`insecurePermissions`:
    /// a shared /tmp must not leak sessions).
    package func preparedRuntimeDirectory() throws -> String {
        try FileSystem.makeDirectory(runtimeDirectory)
        if let problem = HostContext.privateDirectoryProblem(runtimeDirectory, followingLinks: true) { throw problem }
        return runtimeDirectory
    }
}
