/// Why the Secret Service backend could not do what was asked. Errors carry
/// the facts; the command line writes the words (ErrorMessages+SecretService.swift).
public enum SecretServiceError: Error, Equatable {
    /// libsecret could not be loaded: the path tried and dlopen's reason.
    case libraryMissing(path: String, reason: String)
    /// No Secret Service answers on the session bus (no D-Bus session, no keyring daemon).
    case serviceUnavailable(Cause)
    /// The Secret Service on the bus is vault's own provider (`vault secret-service serve`, this process id):
    /// the keyring backend would keep the vault's items, or its keyslot key, in the vault itself.
    case providedByVault(processID: UInt32)
    /// No collection has this alias, label or object-path name.
    case noSuchCollection(String)
    /// The collection is locked and vault may not show the keyring's unlock prompt (the caller's reason why not).
    case locked(collection: String, reason: String)
    /// The keyring's unlock prompt was dismissed or could not be shown.
    case unlockFailed(collection: String, Cause)
    /// A call to the Secret Service failed.
    case failed(Operation, Cause)

    /// What was asked of the Secret Service.
    public enum Operation: Equatable, Sendable {
        /// Connecting to the service.
        case connect
        /// Finding a collection by its alias, or opening one by its object path (its name as given).
        case findCollection(String), openCollection(String)
        /// Listing the collections; loading, searching or unlocking one.
        case listCollections, loadCollection, searchCollection, unlockCollection
        /// Storing, deleting an item; changing its attributes, label or secret; reading its secret.
        case storeItem, deleteItem, changeItemAttributes, changeItemLabel, changeItemSecret, readItemSecret
        /// Storing, reading, deleting a vault's keyslot key; searching the keyring for one.
        case storeKeyslotKey, readKeyslotKey, deleteKeyslotKey, searchKeyring
    }

    /// Why a call failed.
    public enum Cause: Equatable, Sendable {
        /// libsecret's GError: its kind, from its domain and code, and its own message, as it gave it.
        case reported(LibSecretErrorKind, message: String)
        /// libsecret reported an error without a message.
        case reportedWithoutMessage
        /// libsecret returned no service and no error.
        case noService
        /// The keyring returned no secret for an item it listed.
        case noSecret
        /// The keyring's unlock prompt was dismissed.
        case promptDismissed
    }
}
