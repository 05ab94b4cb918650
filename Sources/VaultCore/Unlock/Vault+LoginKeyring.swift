import VaultCrypto

/// Unlock sessions kept in the login's kernel session keyring (`LoginKeyring`), so every process
/// of the login reads without VAULT_SESSION: what `unlock` and `init` keep, and how `run` keeps
/// its child out of them.
extension Vault {
    /// Keeps the session of `token` in this login's kernel keyring, for `timeout` idle seconds
    /// (replacing one kept before). Throws `LoginKeyringProblem` where the keyring cannot keep it.
    package func keepInLoginKeyring(sessionToken token: String, timeout: Int) throws {
        try LoginKeyring.keep(token: token, vaultID: try vaultID(), timeout: timeout)
    }

    /// Why this login's kernel keyring could not keep a session, or nil when it could; keeps nothing.
    package static func loginKeyringProblem() -> LoginKeyringProblem? {
        do {
            try LoginKeyring.check()
            return nil
        } catch {
            return error as? LoginKeyringProblem ?? .noLoginSessionKeyring
        }
    }

    /// The token of the live session this login's keyring keeps for the vault, or nil; refreshes nothing.
    package func loginKeyringToken() -> String? {
        guard let vaultID = try? vaultID(), let kept = LoginKeyring.find(vaultID: vaultID),
              SessionCache.expiry(token: kept.token, vaultID: vaultID, host: host) != nil else { return nil }
        return kept.token
    }

    /// Gives the calling thread, and the processes it starts from now on, a new empty session
    /// keyring: they cannot possess the sessions the login's keyring keeps (`vault run`'s child).
    /// Throws `LoginKeyringProblem` when the keyring calls work but this one fails.
    package static func leaveLoginKeyring() throws {
        try LoginKeyring.leave()
    }

    /// Starts a session with the master key of a vault just created and keeps it in this login's
    /// keyring; where the keyring cannot keep it, ends that session again and throws `LoginKeyringProblem`.
    static func startLoginSession(of vault: some OpenVault, timeout: Int, host: HostContext) throws {
        guard let masterKey = vault.keys.masterKey else { return }
        let token = try SessionCache.start(masterKey: masterKey, vaultID: vault.file.vaultID, keyEpoch: vault.file.keyEpoch,
                                           deviceKey: try sessionDeviceKey(of: vault, host: host), timeout: timeout, host: host)
        do {
            try LoginKeyring.keep(token: token, vaultID: vault.file.vaultID, timeout: timeout)
        } catch {
            _ = try? SessionCache.end(token: token, vaultID: vault.file.vaultID, host: host)
            throw error
        }
    }
}
