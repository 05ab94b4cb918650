import VaultCore
import VaultSecretService

extension VaultAccess {
    /// The desktop keyring as an unlocker, used when the vault has a desktop-keyring keyslot (`vault
    /// passwd --add-keyring-slot`; the walk passes it over otherwise): a logged-in desktop then unlocks
    /// the vault without a prompt. libsecret is loaded only when the vault has such a slot and its keys are needed. Where a prompt follows,
    /// says why the keyring did not unlock the vault before it.
    func desktopKeyringUnlocker() -> Unlocker {
        let location = self.location
        return .asked(
            AskedUnlocker(.desktopKeyring) {
                let why: String
                do {
                    let keys = try KeyringSlotKeys(environment: invocation.environment, reasonPromptsAreOff: reasonPromptsAreOff)
                    if let key = try keys.key(vaultID: try Vault.identifier(at: location)) { return .desktopKeyring(key) }
                    why = "it holds no key for this vault"
                } catch {
                    why = ErrorReport(error).message
                }
                if reasonPromptsAreOff == nil {
                    invocation.terminal.diagnostics.notice("the desktop keyring did not unlock the vault (\(why))")
                }
                throw UnlockerUnavailable(reason: why)
            })
    }
}
