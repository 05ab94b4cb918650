/// What makes a value one the vault does not accept (`VaultError.invalidValue`): the facts, never
/// the words, which the command line writes.
public enum InvalidValue: Equatable, Sendable {
    /// A member name that breaks the rules of group names.
    case memberName(String)
    /// A member of this name exists.
    case memberNameTaken(String)
    /// The recipient is already the member's of this name.
    case recipientTaken(member: String)
    /// The vault holds `limit` members already.
    case tooManyMembers(limit: Int)
    /// A member asked for `count` groups, more than a member slot holds (`limit`).
    case tooManyMemberGroups(count: Int, limit: Int)
    /// A read-only member asked for without groups (a full member holds every write key).
    case readOnlyMemberWithoutGroups
    /// A credential asked for `count` groups, more than one covers (`limit`).
    case tooManyCredentialGroups(count: Int, limit: Int)
    /// The vault holds `limit` keyslots already.
    case tooManyKeyslots(limit: Int)
    /// The vault has a desktop-keyring keyslot already.
    case keyringSlotExists
    /// The key file opens the vault already.
    case keyFileAlreadyOpens
    /// A passphrase keyslot removal asked of a vault that has none.
    case noPassphraseToRemove
    /// An empty service name.
    case emptyService
    /// An attribute (by its stored name: `service`, `account`, a text field's name) over `limit` bytes.
    case attributeTooLarge(name: String, size: Int, limit: Int)
    /// A secret (with its sealed fields) of `size` bytes, over `limit`.
    case secretTooLarge(size: Int, limit: Int)
    /// A sealed field given to a store that keeps none beside the secret (the desktop keyring).
    case sealedFieldUnsupported(SealedField)
}

/// Why a key file cannot be used (`VaultError.invalidKeyFile`).
public enum KeyFileProblem: Equatable, Sendable {
    /// It holds `size` bytes, fewer than `minimum`.
    case tooShort(size: Int, minimum: Int)
    /// It holds more than `limit` bytes.
    case tooLong(limit: Int)
}
