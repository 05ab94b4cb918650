import FoundationEssentials
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Unlock sessions: the master key (and a device key the TPM seals, so reads under the
/// session need no TPM) sealed under a random token, in a 0600 file in the runtime directory. Neither the file nor the token alone opens
/// anything. The file's modification time is the last use; a session idle
/// longer than its timeout has ended. Sessions live side by side: a new one
/// never ends another.
enum SessionCache {
    static let magic = Array("VSESSN03".utf8)
    static let tokenPrefix = "vs1_"

    /// What a live session holds: the master key, the vault's key epoch when it started, its idle
    /// timeout in seconds, and this machine's device key when the TPM seals it.
    struct Opened {
        let masterKey: MasterKey
        let keyEpoch: UInt64
        var timeout = 0
        var deviceKey: DeviceKey? = nil
    }

    /// The bytes before the sealed key: magic ‖ u32 timeout ‖ u64 key epoch.
    static let headerSize = 8 + 4 + 8

    /// Starts a session holding `masterKey` of a vault at `keyEpoch` (and its sealed `deviceKey`); returns its token.
    static func start(
        masterKey: MasterKey, vaultID: [UInt8], keyEpoch: UInt64, deviceKey: DeviceKey?, timeout: Int,
        host: HostContext
    ) throws -> String {
        let sessionID = SecureRandom.bytes(16)
        let tokenKey = SecretBytes(random: 32)
        try write(
            Opened(masterKey: masterKey, keyEpoch: keyEpoch, deviceKey: deviceKey), sessionID: sessionID, tokenKey: tokenKey,
            vaultID: vaultID,
            timeout: timeout, host: host)
        return tokenPrefix + hex(sessionID + tokenKey.copyBytes())
    }

    /// Gives the live session of `token` a fresh idle timer of `timeout`
    /// seconds; throws `sessionEnded` when it has ended.
    static func extend(token: String, vaultID: [UInt8], timeout: Int, host: HostContext) throws {
        let opened = try open(token: token, vaultID: vaultID, host: host)
        let (sessionID, tokenKey) = try parse(token)
        try write(opened, sessionID: sessionID, tokenKey: tokenKey, vaultID: vaultID, timeout: timeout, host: host)
    }

    private static func write(
        _ session: Opened, sessionID: [UInt8], tokenKey: SecretBytes, vaultID: [UInt8],
        timeout: Int, host: HostContext
    ) throws {
        var w = ByteWriter()
        w.raw(magic)
        w.u32(UInt32(timeout))
        w.u64(session.keyEpoch)
        let header = w.bytes
        let sealed = try SealedSession.seal(
            masterKey: session.masterKey, deviceKey: session.deviceKey, header: header, tokenKey: tokenKey,
            sessionID: sessionID, vaultID: vaultID)
        let path = try filePath(vaultID: vaultID, sessionID: sessionID, host: host)
        try FileSystem.writeAtomically(header + sealed, to: path, directory: host.runtimeDirectory)
        try touch(path, at: host.now())
    }

    /// The master key of a live session and its key epoch, refreshing its idle timer.
    /// `extendingIdleTime` false leaves the session's last use as it was: a reader that records
    /// nothing (`git diff`'s text conversion) must not keep a session alive.
    static func open(token: String, vaultID: [UInt8], host: HostContext, extendingIdleTime: Bool = true) throws -> Opened {
        let (sessionID, tokenKey) = try parse(token)
        let path = try filePath(vaultID: vaultID, sessionID: sessionID, host: host)
        guard let bytes = try? FileSystem.read(path, requirePrivate: true, missing: .sessionEnded(.unknown)),
            bytes.count > headerSize, Array(bytes[0..<magic.count]) == magic
        else {
            throw VaultError.sessionEnded(.unknown)
        }
        let timeout = Double(bytes[magic.count..<magic.count + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        if host.now().timeIntervalSince(try lastUse(path)) > timeout {
            FileSystem.wipeAndRemove(path)
            throw VaultError.sessionEnded(.expired)
        }
        let header = Array(bytes[0..<headerSize])
        guard
            let keys = SealedSession.open(
                Array(bytes[headerSize...]), header: header, tokenKey: tokenKey, sessionID: sessionID,
                vaultID: vaultID)
        else {
            throw VaultError.sessionEnded(.unknown)
        }
        if extendingIdleTime { try? touch(path, at: host.now()) }
        return Opened(
            masterKey: keys.masterKey, keyEpoch: header[(magic.count + 4)...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) },
            timeout: Int(timeout), deviceKey: keys.deviceKey)
    }

    /// Ends the session of `token`; false when it had already ended.
    @discardableResult
    static func end(token: String, vaultID: [UInt8], host: HostContext) throws -> Bool {
        let (sessionID, _) = try parse(token)
        let path = try filePath(vaultID: vaultID, sessionID: sessionID, host: host)
        guard FileSystem.exists(path) else { return false }
        FileSystem.wipeAndRemove(path)
        return true
    }

    /// Ends every session of the vault but those of `kept` (tokens), which carry on under the same
    /// token with `masterKey` at `keyEpoch`, their idle timeout as it was (and no device key when
    /// `newDeviceKey`: the TPM unseals the new one). Returns how many sessions ended.
    static func endAll(
        vaultID: [UInt8], host: HostContext, keeping kept: [String], masterKey: MasterKey, keyEpoch: UInt64,
        newDeviceKey: Bool
    ) -> Int {
        let live = Set(kept).compactMap { token in (try? open(token: token, vaultID: vaultID, host: host)).map { (token, $0) } }
        let ended = endAll(vaultID: vaultID, host: host) - live.count
        for (token, session) in live {
            guard let (sessionID, tokenKey) = try? parse(token) else { continue }
            let carried = Opened(masterKey: masterKey, keyEpoch: keyEpoch, deviceKey: newDeviceKey ? nil : session.deviceKey)
            try? write(carried, sessionID: sessionID, tokenKey: tokenKey, vaultID: vaultID, timeout: session.timeout, host: host)
        }
        return ended
    }

    /// Ends every session of the vault; returns how many there were.
    static func endAll(vaultID: [UInt8], host: HostContext) -> Int {
        let prefix = hex(vaultID) + "."
        let names = FileSystem.list(host.runtimeDirectory).filter { $0.hasPrefix(prefix) && $0.hasSuffix(".session") }
        for name in names { FileSystem.wipeAndRemove(host.runtimeDirectory + "/" + name) }
        return names.count
    }

    /// When the session of `token` ends if left idle, or nil when it has ended.
    static func expiry(token: String, vaultID: [UInt8], host: HostContext) -> Date? {
        guard let (sessionID, _) = try? parse(token),
            let path = try? filePath(vaultID: vaultID, sessionID: sessionID, host: host),
            let bytes = try? FileSystem.read(path, requirePrivate: true, missing: .sessionEnded(.unknown)),
            bytes.count > headerSize, let used = try? lastUse(path)
        else { return nil }
        let timeout = Double(bytes[magic.count..<magic.count + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let end = used.addingTimeInterval(timeout)
        return end > host.now() ? end : nil
    }

    private static func parse(_ token: String) throws -> (sessionID: [UInt8], key: SecretBytes) {
        guard token.hasPrefix(tokenPrefix), let bytes = unhex(String(token.dropFirst(tokenPrefix.count))), bytes.count == 48 else {
            throw VaultError.sessionEnded(.malformed)
        }
        return (Array(bytes[0..<16]), SecretBytes(bytes[16...]))
    }

    private static func filePath(vaultID: [UInt8], sessionID: [UInt8], host: HostContext) throws -> String {
        try host.preparedRuntimeDirectory() + "/" + hex(vaultID) + "." + hex(sessionID) + ".session"
    }

    private static func lastUse(_ path: String) throws -> Date {
        var info = stat()
        guard stat(path, &info) == 0 else { throw VaultError.sessionEnded(.unknown) }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    private static func touch(_ path: String, at date: Date) throws {
        let seconds = date.timeIntervalSince1970
        var times = [
            timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9)),
            timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        ]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw VaultError.io(path: path, operation: .touch, errno: errno) }
    }
}

// The files of machine-local grants (`SealedGrants`): written atomically, read only when private to the user.
extension SealedGrants {
    /// Seals one grant per group of `file` (its `classes`' base keys) from a full ring, and writes it at `path`.
    static func write(
        from keys: KeyRing, file: VaultFile, classes: [Accessibility], magic: [UInt8], key: SecretBytes,
        path: String, directory: String
    ) throws {
        try FileSystem.writeAtomically(
            try seal(from: keys, file: file, classes: classes, magic: magic, key: key), to: path, directory: directory)
    }

    /// The grants at `path`, or nil when there are none that open with `key`.
    static func read(magic: [UInt8], key: SecretBytes, vaultID: [UInt8], path: String) -> [GroupGrant]? {
        guard let bytes = try? FileSystem.read(path, requirePrivate: true, missing: .sessionEnded(.unknown)) else { return nil }
        return open(bytes, magic: magic, key: key, vaultID: vaultID)
    }
}

/// The after-first-unlock cache: the keys of the after-first-unlock (and
/// always) classes of every group, sealed under a key derived from the device
/// key and this boot's id. Any unlock writes it; `vault lock --all` and a
/// reboot (a new boot id) end it.
enum AfterFirstUnlockCache {
    static let magic = Array("VAFU0002".utf8)
    static let classes: [Accessibility] = [.afterFirstUnlock, .afterFirstUnlockThisDeviceOnly, .always, .alwaysThisDeviceOnly]

    /// Writes the cache from a full ring; does nothing without a device key or boot id.
    static func write(from keys: KeyRing, file: VaultFile, host: HostContext) throws {
        guard let deviceKey = keys.deviceKey, let bootID = host.bootID() else { return }
        try SealedGrants.write(
            from: keys, file: file, classes: classes, magic: magic, key: sealKey(deviceKey, bootID, keys.vaultID),
            path: try path(keys.vaultID, host), directory: host.runtimeDirectory)
    }

    /// The cached grants, or nil when there is no cache for this boot.
    static func read(vaultID: [UInt8], deviceKey: DeviceKey?, host: HostContext) -> [GroupGrant]? {
        guard let deviceKey, let bootID = host.bootID(), let path = try? path(vaultID, host) else { return nil }
        return SealedGrants.read(magic: magic, key: sealKey(deviceKey, bootID, vaultID), vaultID: vaultID, path: path)
    }

    /// Whether a cache for this boot exists and opens.
    static func isPresent(vaultID: [UInt8], deviceKey: DeviceKey?, host: HostContext) -> Bool {
        read(vaultID: vaultID, deviceKey: deviceKey, host: host) != nil
    }

    static func remove(vaultID: [UInt8], host: HostContext) {
        if let path = try? path(vaultID, host), FileSystem.exists(path) { FileSystem.wipeAndRemove(path) }
    }

    private static func sealKey(_ deviceKey: DeviceKey, _ bootID: String, _ vaultID: [UInt8]) -> SecretBytes {
        KeyRing.derive(deviceKey.secret, .afterFirstUnlock, Array(bootID.utf8), vaultID: vaultID)
    }

    private static func path(_ vaultID: [UInt8], _ host: HostContext) throws -> String {
        try host.preparedRuntimeDirectory() + "/" + hex(vaultID) + ".afu"
    }
}

/// This machine's device grants of a v2 vault: what the device key alone
/// opens (the `always` classes of every group), beside the device key in the
/// XDG data directory, never in the vault file (which a team shares and
/// merges). The owner's unlock on this machine writes them.
enum DeviceGrants {
    static let magic = Array("VDEVGR02".utf8)

    static func path(vaultID: [UInt8], host: HostContext) -> String {
        host.deviceKeyDirectory + "/" + hex(vaultID) + ".grants"
    }

    /// Writes the grants from a full ring whose device key is the vault's.
    static func write(from keys: KeyRing, file: VaultFile, host: HostContext) throws {
        guard let deviceKey = keys.deviceKey else { return }
        try SealedGrants.write(
            from: keys, file: file, classes: Accessibility.deviceClasses, magic: magic,
            key: deviceKey.wrapKey(vaultID: keys.vaultID).secret,
            path: path(vaultID: keys.vaultID, host: host), directory: host.deviceKeyDirectory)
    }

    /// The grants sealed under `deviceKey`, or nil.
    static func read(vaultID: [UInt8], deviceKey: DeviceKey?, host: HostContext) -> [GroupGrant]? {
        guard let deviceKey else { return nil }
        return SealedGrants.read(
            magic: magic, key: deviceKey.wrapKey(vaultID: vaultID).secret, vaultID: vaultID,
            path: path(vaultID: vaultID, host: host))
    }

    /// Whether grants that match the file's group key checks are there.
    static func areCurrent(for file: VaultFile, deviceKey: DeviceKey?, host: HostContext) -> Bool {
        guard let grants = read(vaultID: file.vaultID, deviceKey: deviceKey, host: host) else { return false }
        return grants.count == file.groups.count
            && zip(grants, file.groups).allSatisfy { $0.groupID == $1.groupID && $0.keyCheck == $1.keyCheck }
    }
}

func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
}

func unhex(_ text: String) -> [UInt8]? {
    let chars = Array(text.utf8)
    guard chars.count % 2 == 0 else { return nil }
    func value(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: return nil
        }
    }
    var out: [UInt8] = []
    var i = 0
    while i < chars.count {
        guard let high = value(chars[i]), let low = value(chars[i + 1]) else { return nil }
        out.append(high << 4 | low)
        i += 2
    }
    return out
}
