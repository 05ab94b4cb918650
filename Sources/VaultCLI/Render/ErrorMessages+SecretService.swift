import VaultCore
import VaultSecretService

extension ErrorReport {
    /// The words for the Secret Service backend's errors.
    static func describe(_ error: SecretServiceError) -> ErrorReport {
        let keyringHint = "unlock the collection in the desktop session (log in, or open Passwords and Keys), or run the command on a terminal"
        switch error {
        case .libraryMissing(let path, let reason):
            let what = path == "libsecret-1.so.0" ? "libsecret-1.so.0, which is not installed" : "libsecret, and \(quoted(path)) (VAULT_LIBSECRET_PATH) does not load: \(reason)"
            return ErrorReport(status: .failure, message: "the secret-service backend needs \(what) (Debian package libsecret-1-0)",
                               hint: "install it with 'apt-get install libsecret-1-0', or use the file backend (drop --backend secret-service)")
        case .serviceUnavailable(let detail):
            return ErrorReport(status: .failure, message: "no Secret Service answers on the D-Bus session bus: \(detail)",
                               hint: "log in to a desktop session, or start one with 'dbus-run-session' and 'gnome-keyring-daemon --unlock'")
        case .noSuchCollection(let name):
            return ErrorReport(status: .noSuchVault, message: "the desktop keyring has no collection \(quoted(name))",
                               hint: "use --collection default, --collection session, or the name of an existing collection")
        case .locked(let collection, let reason):
            return ErrorReport(status: .interactionNotAllowed,
                               message: "the keyring collection \(quoted(collection)) is locked and vault may not show its unlock prompt here (\(reason))",
                               hint: keyringHint)
        case .unlockFailed(let collection, let detail):
            return ErrorReport(status: .interactionNotAllowed, message: "the keyring collection \(quoted(collection)) stayed locked: \(detail)",
                               hint: keyringHint)
        case .failed(let operation, let detail):
            return ErrorReport(status: .failure, message: "the desktop keyring could not \(operation): \(detail)",
                               hint: "check that the keyring daemon (GNOME Keyring, KWallet, KeePassXC) runs and the collection is unlocked")
        }
    }
}
