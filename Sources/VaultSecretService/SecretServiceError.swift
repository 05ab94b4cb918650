/// Why the Secret Service backend could not do what was asked. Errors carry
/// the facts; the command line writes the words (ErrorMessages+SecretService.swift).
public enum SecretServiceError: Error, Equatable {
    /// libsecret could not be loaded: the path tried and dlopen's reason.
    case libraryMissing(path: String, reason: String)
    /// No Secret Service answers on the session bus (no D-Bus session, no keyring daemon).
    case serviceUnavailable(detail: String)
    /// No collection has this alias, label or object-path name.
    case noSuchCollection(String)
    /// The collection is locked and vault may not show the keyring's unlock prompt (the reason why not).
    case locked(collection: String, reason: String)
    /// The keyring's unlock prompt was dismissed or could not be shown.
    case unlockFailed(collection: String, detail: String)
    /// A call to the Secret Service failed.
    case failed(operation: String, detail: String)
}
