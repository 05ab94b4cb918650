import VaultCore
import VaultSecretService

extension ErrorReport {
    /// The words for the Secret Service backend's errors.
    static func describe(_ error: SecretServiceError) -> ErrorReport {
        let keyringHint =
            "unlock the collection in the desktop session (log in, or open Passwords and Keys), or run the command on a terminal"
        switch error {
        case .libraryMissing(let path, let reason):
            let what =
                path == "libsecret-1.so.0"
                ? "libsecret-1.so.0, which is not installed"
                : "libsecret, and \(quoted(path)) (VAULT_LIBSECRET_PATH) does not load: \(reason)"
            return ErrorReport(
                status: .failure, message: "the secret-service backend needs \(what) (Debian package libsecret-1-0)",
                hint: "install it with 'apt-get install libsecret-1-0', or use the file backend (drop --backend secret-service)")
        case .serviceUnavailable(let cause):
            return ErrorReport(
                status: .failure, message: "no Secret Service answers on the D-Bus session bus: \(words(cause))",
                hint: "log in to a desktop session, or start one with 'dbus-run-session' and 'gnome-keyring-daemon --unlock'")
        case .providedByVault(let processID):
            return ErrorReport(
                status: .failure,
                message: "the desktop keyring on this bus is vault itself ('vault secret-service serve', pid \(processID)): "
                    + "its items are the vault's own",
                hint: "use the file backend (drop --backend secret-service), or run 'vault secret-service disable' and use another keyring")
        case .noSuchCollection(let name):
            return ErrorReport(
                status: .noSuchVault, message: "the desktop keyring has no collection \(quoted(name))",
                hint: "use --collection default, --collection session, or the name of an existing collection")
        case .locked(let collection, let reason):
            return ErrorReport(
                status: .interactionNotAllowed,
                message: "the keyring collection \(quoted(collection)) is locked and vault may not show its unlock prompt here (\(reason))",
                hint: keyringHint)
        case .unlockFailed(let collection, let cause):
            return ErrorReport(
                status: .interactionNotAllowed, message: "the keyring collection \(quoted(collection)) stayed locked: \(words(cause))",
                hint: keyringHint)
        case .failed(let operation, let cause):
            return ErrorReport(
                status: .failure, message: "the desktop keyring could not \(words(operation)): \(words(cause))",
                hint: "check that the keyring daemon (GNOME Keyring, KWallet, KeePassXC) runs and the collection is unlocked")
        }
    }

    /// What was asked of the Secret Service, after "could not ".
    private static func words(_ operation: SecretServiceError.Operation) -> String {
        switch operation {
        case .connect: return "connect"
        case .findCollection(let name): return "find the collection \"\(name)\""
        case .openCollection(let name): return "open the collection \"\(name)\""
        case .listCollections: return "list the collections"
        case .loadCollection: return "load the collection"
        case .searchCollection: return "search the collection"
        case .unlockCollection: return "unlock the collection"
        case .storeItem: return "store the item"
        case .deleteItem: return "delete the item"
        case .changeItemAttributes: return "change the item's attributes"
        case .changeItemLabel: return "change the item's label"
        case .changeItemSecret: return "change the item's secret"
        case .readItemSecret: return "read the item's secret"
        case .storeKeyslotKey: return "store the keyslot key"
        case .readKeyslotKey: return "read the keyslot key"
        case .deleteKeyslotKey: return "delete the keyslot key"
        case .searchKeyring: return "search the keyring"
        }
    }

    /// Why a call failed: libsecret's own words, or what vault found.
    private static func words(_ cause: SecretServiceError.Cause) -> String {
        switch cause {
        case .reported(_, let message): return message
        case .reportedWithoutMessage: return "unknown error"
        case .noService: return "libsecret returned no service"
        case .noSecret: return "the keyring returned no secret"
        case .promptDismissed: return "the unlock prompt was dismissed"
        }
    }
}
