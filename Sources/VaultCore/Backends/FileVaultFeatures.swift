/// What only the vault file offers among the backends: earlier secrets, the trash, the other side
/// of a merge conflict, the names of its groups, and the groups a scoped credential opens.
/// `ItemStore.fileVault` gives it where the store is the vault file and nil where it is not, so
/// each caller refuses the desktop keyring in its own words instead of being told of nothing.
public protocol FileVaultFeatures: AnyObject {
    /// The item matching `query` and its earlier secrets, newest first (`Vault.history(matching:)`).
    func history(matching query: Query) throws -> (attributes: ItemAttributes, revisions: [SecretRevision])
    /// Puts back the secret the item matching `query` held before (`Vault.undo(matching:)`).
    func undo(matching query: Query) throws -> ItemAttributes
    /// The other side of a merge conflict of the item matching `query` (`Vault.otherVersion(matching:conflict:)`).
    func otherVersion(matching query: Query, conflict number: Int?) throws -> (item: Item, conflict: ItemConflict)
    /// The items in the trash the keys at hand open, with their secrets (`Vault.trashedSecrets()`).
    func trashedSecrets() throws -> [Item]
    /// The groups the keys at hand open, and how many they leave unopened (`Vault.groupNames(beforeWriting:)`).
    func groupNames(beforeWriting: Bool) throws -> (groups: [AccessGroup], unopened: Int)
    /// The scoped credential the vault is opened with, if any (`Vault.scopedCredential`).
    var scopedCredential: ScopedCredential? { get }
    /// The variable names the groups' owner allowed, checked under the pin (`Vault.ownerAllowedEnvNames()`).
    func ownerAllowedEnvNames() throws -> [AccessGroup: AllowedEnvNames]?
}
