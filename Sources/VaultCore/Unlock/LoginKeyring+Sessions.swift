import VaultCrypto

/// Unlock sessions kept in the login's kernel session keyring (`LoginKeyring`), so every process
/// of the login reads without VAULT_SESSION: what `init` keeps, and whether the keyring can.
extension LoginKeyring {
    /// Why this login's kernel keyring could not keep a session, or nil when it could; keeps nothing.
    static func problem() -> LoginKeyringProblem? {
        do {
            try check()
            return nil
        } catch {
            return error as? LoginKeyringProblem ?? .noLoginSessionKeyring
        }
    }

    /// Starts a session with the master key of a vault just created and keeps it in this login's
    /// keyring; where the keyring cannot keep it, ends that session again and throws `LoginKeyringProblem`.
    static func startSession(of vault: some OpenVault, timeout: Int, host: HostContext) throws {
        guard let masterKey = vault.keys.masterKey else { return }
        let token = try VaultSessions.start(from: vault, masterKey: masterKey, timeout: timeout, host: host)
        do {
            try keep(token: token, vaultID: vault.file.vaultID, timeout: timeout)
        } catch {
            _ = try? SessionCache.end(token: token, vaultID: vault.file.vaultID, host: host)
            throw error
        }
    }
}
