import VaultCore
import VaultSecretService

extension VaultAccess {
    /// `ask` with the desktop keyring tried first when the vault has a
    /// desktop-keyring keyslot (`vault passwd --add-keyring-slot`): a logged-in
    /// desktop then unlocks the vault without a prompt. libsecret is loaded
    /// only when the vault has such a slot and its keys are needed.
    func keyringFirst(then ask: (() throws -> UnlockSecret)?) -> (() throws -> UnlockSecret)? {
        let location = self.location
        guard Vault.hasKeyringSlot(at: location) else { return ask }
        return {
            let why: String
            do {
                let keys = try KeyringSlotKeys(environment: invocation.environment, reasonPromptsAreOff: reasonPromptsAreOff)
                if let key = try keys.key(vaultID: try Vault.identifier(at: location)) { return .desktopKeyring(key) }
                why = "it holds no key for this vault"
            } catch {
                why = ErrorReport(error).message
            }
            if let ask {
                invocation.terminal.writeErr("vault: the desktop keyring did not unlock the vault (\(why))\n")
                return try ask()
            }
            throw CommandFailure(.interactionNotAllowed, "the vault is locked, the desktop keyring did not unlock it (\(why)), and vault may not prompt here (\(reasonPromptsAreOff ?? "no terminal"))",
                                 hint: "unlock the desktop keyring, or give --passphrase-file FILE or --key-file FILE")
        }
    }
}
