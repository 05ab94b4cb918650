import FoundationEssentials
import VaultCrypto

/// Unlock sessions, locking and status.
extension Vault {
    /// The idle timeout of a session when none is given: 15 minutes.
    public static let defaultSessionTimeout = 15 * 60

    /// Unlocks the vault (asking if need be) and starts a session that ends
    /// after `timeout` seconds without use; returns its token. Also leaves the
    /// after-first-unlock cache for this boot.
    public func startSession(timeout: Int = Vault.defaultSessionTimeout) throws -> String {
        try withKeys {
            let vault = try readSnapshot()
            guard let masterKey = vault.keys.masterKey else { throw VaultError.locked(nil) }
            refreshMachineGrants(vault, onlyIfMissing: false)
            return try SessionCache.start(masterKey: masterKey, vaultID: vault.file.vaultID, keyEpoch: vault.file.keyEpoch,
                                          deviceKey: try Vault.sessionDeviceKey(of: vault, host: host), timeout: timeout, host: host)
        }
    }

    /// The device key a session of `vault` carries: only one the TPM seals, since a clear one is a file read away anyway.
    static func sessionDeviceKey(of vault: some OpenVault, host: HostContext) throws -> DeviceKey? {
        try DeviceKeyStore.sealed(vaultID: vault.file.vaultID, host: host) != nil ? vault.keys.deviceKey : nil
    }

    /// Gives the live session of `token` a fresh idle timeout of `timeout`
    /// seconds, asking for nothing; false when that session has ended.
    package func extendSession(token: String, timeout: Int) throws -> Bool {
        do {
            try SessionCache.extend(token: token, vaultID: try vaultID(), timeout: timeout, host: host)
            return true
        } catch VaultError.sessionEnded {
            return false
        }
    }

    /// Whether the session of `token` is live: not idle past its timeout, not locked. Asks for nothing.
    package func sessionIsLive(token: String) -> Bool {
        guard let vaultID = try? vaultID() else { return false }
        return SessionCache.expiry(token: token, vaultID: vaultID, host: host) != nil
    }

    /// What `lock` ended.
    package struct LockOutcome: Equatable, Sendable {
        /// How many unlock sessions ended.
        package var sessionsEnded: Int
        /// Whether an after-first-unlock cache was there and is gone.
        package var afterFirstUnlockEnded: Bool
        /// Whether this login's keyring kept a session key, now removed.
        package var loginKeyringKeyRemoved = false
    }

    /// Ends the session of `token` and (with `loginKeyring`) the one this login's keyring
    /// keeps, removing its key; with `all`, every session of this vault and the after-first-unlock
    /// cache too. Needs no unlock.
    package func lock(token: String?, all: Bool, loginKeyring: Bool = false) throws -> LockOutcome {
        let vaultID = try self.vaultID()
        var outcome = LockOutcome(sessionsEnded: 0, afterFirstUnlockEnded: false)
        let kept = loginKeyring ? LoginKeyring.find(vaultID: vaultID) : nil
        if let kept { outcome.loginKeyringKeyRemoved = LoginKeyring.remove(kept) }
        if all {
            outcome.sessionsEnded = SessionCache.endAll(vaultID: vaultID, host: host)
        } else {
            for ended in Set([token, kept?.token].compactMap { $0 }) where try SessionCache.end(token: ended, vaultID: vaultID, host: host) {
                outcome.sessionsEnded += 1
            }
        }
        if all {
            outcome.afterFirstUnlockEnded = AfterFirstUnlockCache.isPresent(vaultID: vaultID, deviceKey: try deviceKeyIfItOpens(of: readFile()).key,
                                                                            host: host)
            AfterFirstUnlockCache.remove(vaultID: vaultID, host: host)
        }
        return outcome
    }

    /// Where the session a command would use lives.
    package enum SessionPlace: String, Sendable {
        /// The token in VAULT_SESSION.
        case environment
        /// This login's kernel keyring (`vault unlock`, `vault init`).
        case loginKeyring = "kernel-keyring"
    }

    /// What `vault status` shows; read without any unlock.
    package struct StatusReport: Sendable {
        /// When the session of the token given ends if left idle; nil when there is none or it has ended.
        package var sessionExpiry: Date?
        /// Where the live session is, nil when there is none.
        package var sessionPlace: SessionPlace?
        /// Whether the after-first-unlock cache of this boot is present (after-first-unlock items open without an unlock).
        package var afterFirstUnlock: Bool
        /// Whether this machine's device key is the vault's (device-bound items open here).
        package var onItsDevice: Bool
        /// How this machine keeps the vault's device key (a file, or sealed by the TPM).
        package var deviceKey: DeviceKeyProtection
        /// Why the TPM did not unseal the device key, when it did not.
        package var deviceKeyRefusal: TPMFailure?
        /// The kinds of the vault's keyslots, in file order.
        package var keyslots: [CredentialKind]
        /// Items by group name (or "#id" where this device cannot read the name) and class.
        package var counts: [ItemCount]
    }

    /// Items of one group and class.
    package struct ItemCount: Equatable, Sendable {
        /// The group's name, or "#id" where this device cannot read it.
        package var group: String
        /// The class.
        package var accessibility: Accessibility
        /// How many items of that group and class.
        package var count: Int
    }

    /// The names of the groups a member's identity opens, by id: the identity
    /// is given on this call, so naming its groups asks for nothing. Empty for other keys.
    private func memberGroupNames() throws -> [GroupID: String] {
        guard case .identity = source else { return [:] }
        return try withKeys { try readSnapshot(checking: .lookupsOnly).keys.groups.mapValues(\.group.name) }
    }

    /// The vault's state without unlocking it: session (of `sessionToken`, else with `loginKeyring`
    /// the one this login's keyring keeps), after-first-unlock cache, keyslots, and item counts by group and class.
    package func status(sessionToken: String?, loginKeyring: Bool = false) throws -> StatusReport {
        let bytes = try readFile()
        let file: VaultFile
        do {
            file = try VaultFile.decode(bytes).file
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: location.path, detail: error.damage)
        }
        let (deviceKey, refusal) = try deviceKeyIfItOpens(of: bytes)
        let partial = try? Snapshot.openPartial(bytes, deviceKey: deviceKey,
                                                 grants: DeviceGrants.read(vaultID: file.vaultID, deviceKey: deviceKey, host: host) ?? [],
                                                 path: location.path)
        let memberNames = (try? memberGroupNames()) ?? [:]
        var counts: [ItemCount] = []
        for group in file.groups {
            let name = partial?.keys.groups[group.groupID]?.group.name
                ?? memberNames[group.groupID]
                ?? scopedCredential?.grants.first(where: { $0.groupID == group.groupID })?.group.name
                ?? "#\(group.groupID)"
            for accessibility in Accessibility.allCases {
                let count = file.index.filter { $0.groupID == group.groupID && $0.classID == accessibility.fileID }.count
                if count > 0 { counts.append(ItemCount(group: name, accessibility: accessibility, count: count)) }
            }
        }
        let sessionExpiry = sessionToken.flatMap { SessionCache.expiry(token: $0, vaultID: file.vaultID, host: host) }
        let keptExpiry = sessionToken == nil && loginKeyring
            ? LoginKeyring.find(vaultID: file.vaultID).flatMap { SessionCache.expiry(token: $0.token, vaultID: file.vaultID, host: host) }
            : nil
        return StatusReport(
            sessionExpiry: sessionExpiry ?? keptExpiry,
            sessionPlace: sessionExpiry != nil ? .environment : keptExpiry != nil ? .loginKeyring : nil,
            afterFirstUnlock: AfterFirstUnlockCache.isPresent(vaultID: file.vaultID, deviceKey: deviceKey, host: host),
            onItsDevice: partial?.deviceMatches ?? false,
            deviceKey: try deviceKeyProtection(),
            deviceKeyRefusal: refusal,
            keyslots: file.keyslots.map(\.kind.credentialKind),
            counts: counts)
    }

    func vaultID() throws -> [UInt8] {
        let bytes = try readFile()
        let id = VaultFile.peekVaultID(bytes)
        guard !id.isEmpty else { throw VaultError.corrupted(path: location.path, detail: .violates(.fileTooShort)) }
        return id
    }
}
