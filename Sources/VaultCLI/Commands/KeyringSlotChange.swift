import VaultCore
import VaultCrypto
import VaultSecretService

/// `vault passwd --add-keyring-slot` and `--remove-keyring-slot`: a random key
/// in the desktop keyring's default collection that opens the vault file.
enum KeyringSlotChange {
    /// Stores a new random key in the keyring, then adds the keyslot it opens;
    /// if the vault refuses the change, the key is taken out of the keyring again.
    static func add(to vault: Vault, access: VaultAccess) throws {
        guard !Vault.hasKeyringSlot(at: vault.location) else {
            throw UsageError(
                "this vault already has a desktop-keyring keyslot",
                hint: "remove it first with 'vault passwd --remove-keyring-slot'")
        }
        let keys = try KeyringSlotKeys(environment: access.invocation.environment, reasonPromptsAreOff: access.reasonPromptsAreOff)
        let vaultID = try Vault.identifier(at: vault.location)
        let key = SecretBytes(Array(("vault-keyring-v1:" + Base64.encode(SecureRandom.bytes(32))).utf8))
        try keys.store(key, vaultID: vaultID, path: vault.location.path)
        do {
            try vault.addKeyringSlot(key)
        } catch {
            _ = try? keys.remove(vaultID: vaultID)
            throw error
        }
        access.invocation.terminal.say("added a desktop-keyring keyslot; a logged-in desktop now unlocks this vault")
    }

    /// Removes the keyslot, then the key from the keyring (a keyring that cannot
    /// be reached leaves its now useless key behind, and says so).
    static func remove(from vault: Vault, access: VaultAccess) throws {
        let vaultID = try Vault.identifier(at: vault.location)
        let rotated = try vault.removeKeyringSlot()
        let terminal = access.invocation.terminal
        if !rotated { PasswdCommand.warnNotRotated(terminal, old: "the keyring's key") }
        do {
            let keys = try KeyringSlotKeys(environment: access.invocation.environment, reasonPromptsAreOff: access.reasonPromptsAreOff)
            try keys.remove(vaultID: vaultID)
            terminal.say("removed the desktop-keyring keyslot and its key")
        } catch {
            terminal.say("removed the desktop-keyring keyslot; its key stays in the keyring (\(ErrorReport(error).message))")
        }
    }
}
