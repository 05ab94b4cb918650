import FoundationEssentials
import VaultCrypto

/// The unlock sessions of one vault on this machine (`SessionCache`), and the one this login's
/// keyring keeps (`LoginKeyring`): starting, extending, ending them. What the façade's
/// `startSession`, `extendSession`, `sessionIsLive`, `lock` and `loginKeyringToken` hand over.
struct VaultSessions {
    /// The vault's id, read from its file.
    let vaultID: [UInt8]
    let host: HostContext

    /// Starts a session with the master key `vault` opened with, that ends after `timeout` idle seconds; returns its token.
    static func start(from vault: some OpenVault, masterKey: MasterKey, timeout: Int, host: HostContext) throws -> String {
        try SessionCache.start(
            masterKey: masterKey, vaultID: vault.file.vaultID, keyEpoch: vault.file.keyEpoch,
            deviceKey: try deviceKey(of: vault, host: host), timeout: timeout, host: host)
    }

    /// The device key a session of `vault` carries: only one the TPM seals, since a clear one is a file read away anyway.
    static func deviceKey(of vault: some OpenVault, host: HostContext) throws -> DeviceKey? {
        try DeviceKeyStore.sealed(vaultID: vault.file.vaultID, host: host) != nil ? vault.keys.deviceKey : nil
    }

    /// Gives the live session of `token` a fresh idle timeout; false when that session has ended.
    func extend(token: String, timeout: Int) throws -> Bool {
        do {
            try SessionCache.extend(token: token, vaultID: vaultID, timeout: timeout, host: host)
            return true
        } catch VaultError.unlock(.sessionEnded) {
            return false
        }
    }

    /// Whether the session of `token` is live: not idle past its timeout, not locked.
    func isLive(token: String) -> Bool {
        SessionCache.expiry(token: token, vaultID: vaultID, host: host) != nil
    }

    /// Ends the session of `token` and (with `loginKeyring`) the one this login's keyring keeps,
    /// removing its key; with `all`, every session and the after-first-unlock cache, whose presence
    /// is told with this machine's device key (`deviceKey`, read only then).
    func lock(token: String?, all: Bool, loginKeyring: Bool, deviceKey: () throws -> DeviceKey?) throws -> LockOutcome {
        var outcome = LockOutcome(sessionsEnded: 0, afterFirstUnlockEnded: false)
        let kept = loginKeyring ? LoginKeyring.find(vaultID: vaultID) : nil
        if let kept { outcome.loginKeyringKeyRemoved = LoginKeyring.remove(kept) }
        if all {
            outcome.sessionsEnded = SessionCache.endAll(vaultID: vaultID, host: host)
        } else {
            for ended in Set([token, kept?.token].compactMap { $0 }) where try SessionCache.end(token: ended, vaultID: vaultID, host: host)
            {
                outcome.sessionsEnded += 1
            }
        }
        if all {
            outcome.afterFirstUnlockEnded = AfterFirstUnlockCache.isPresent(vaultID: vaultID, deviceKey: try deviceKey(), host: host)
            AfterFirstUnlockCache.remove(vaultID: vaultID, host: host)
        }
        return outcome
    }

    /// The token of the live session this login's keyring keeps for the vault, or nil; refreshes nothing.
    func loginKeyringToken() -> String? {
        guard let kept = LoginKeyring.find(vaultID: vaultID), isLive(token: kept.token) else { return nil }
        return kept.token
    }
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

extension StatusReport {
    /// The state of the vault file `file` (its bytes `bytes`, at `path`) without unlocking it: the
    /// session of `sessionToken` (else with `loginKeyring` the one this login's keyring keeps), the
    /// after-first-unlock cache, keyslots, and item counts by group and class, the groups named as
    /// this machine's grants, `memberNames` (a member identity's) or `scoped` (a credential's) name them.
    init(
        of file: VaultFile, bytes: FileBytes, path: String, host: HostContext, deviceKey: (key: DeviceKey?, refusal: TPMFailure?),
        protection: DeviceKeyProtection, memberNames: [GroupID: String], scoped: ScopedCredential?,
        sessionToken: String?, loginKeyring: Bool
    ) {
        let partial = try? Snapshot.openPartial(
            bytes, deviceKey: deviceKey.key,
            grants: DeviceGrants.read(vaultID: file.vaultID, deviceKey: deviceKey.key, host: host) ?? [],
            path: path)
        var counts: [ItemCount] = []
        for group in file.groups {
            let name =
                partial?.keys.groups[group.groupID]?.group.name
                ?? memberNames[group.groupID]
                ?? scoped?.grants.first(where: { $0.groupID == group.groupID })?.group.name
                ?? "#\(group.groupID)"
            for accessibility in Accessibility.allCases {
                let count = file.index.filter { $0.groupID == group.groupID && $0.classID == accessibility.fileID }.count
                if count > 0 { counts.append(ItemCount(group: name, accessibility: accessibility, count: count)) }
            }
        }
        let sessionExpiry = sessionToken.flatMap { SessionCache.expiry(token: $0, vaultID: file.vaultID, host: host) }
        let keptExpiry =
            sessionToken == nil && loginKeyring
            ? LoginKeyring.find(vaultID: file.vaultID).flatMap { SessionCache.expiry(token: $0.token, vaultID: file.vaultID, host: host) }
            : nil
        self.init(
            sessionExpiry: sessionExpiry ?? keptExpiry,
            sessionPlace: sessionExpiry != nil ? .environment : keptExpiry != nil ? .loginKeyring : nil,
            afterFirstUnlock: AfterFirstUnlockCache.isPresent(vaultID: file.vaultID, deviceKey: deviceKey.key, host: host),
            onItsDevice: partial?.deviceMatches ?? false,
            deviceKey: protection,
            deviceKeyRefusal: deviceKey.refusal,
            keyslots: file.keyslots.map(\.kind.credentialKind),
            counts: counts)
    }
}
