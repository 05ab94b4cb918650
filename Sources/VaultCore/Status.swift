/// The outcome of a vault operation, as the Keychain names it. Each status
/// carries its OSStatus and the exit code `vault` returns for it, which
/// follows macOS `security` (OSStatus & 0xFF) so scripts can port.
public enum Status: CaseIterable, Sendable {
    /// It worked (errSecSuccess, exit 0).
    case success
    /// A general failure with no Keychain counterpart: I/O errors, unsafe file permissions.
    case failure
    /// A bad command line or value (exit 2).
    case usage
    /// No item matches (errSecItemNotFound, exit 44).
    case itemNotFound
    /// The item's group, service and account exist already (errSecDuplicateItem, exit 45).
    case duplicateItem
    /// A wrong passphrase or credential (errSecAuthFailed, exit 51).
    case authFailed
    /// Locked, and no way to ask for a credential (errSecInteractionNotAllowed, exit 36).
    case interactionNotAllowed
    /// The keys at hand do not cover the access group (errSecMissingEntitlement, exit 30).
    case missingEntitlement
    /// No vault file where one was expected (errSecNoSuchKeychain, exit 50).
    case noSuchVault
    /// A vault exists already where one was to be created (errSecDuplicateKeychain, exit 48).
    case duplicateVault
    /// A damaged, tampered or unreadable vault file or input (errSecDecode, exit 93).
    case decode
    /// A vault file older than this machine has seen: rolled back (errSecInvalidKeychain, exit 49).
    case invalidKeychain
    /// The person at the terminal declined (errSecUserCanceled, exit 128).
    case userCanceled
    /// The TPM that seals this machine's device key is not available (errSecNotAvailable, exit 53).
    case notAvailable
    /// The TPM refuses to unseal this machine's device key: its state changed, or it is another TPM
    /// (errSecVerifyFailed, exit 32).
    case verifyFailed
    /// The TPM's dictionary-attack lockout refuses every PIN for now (no Keychain counterpart, exit 54).
    case tpmLockout

    /// The Keychain's OSStatus for this outcome (0 where it has none).
    public var osStatus: Int32 {
        switch self {
        case .success: return 0
        case .failure: return 0
        case .usage: return 0
        case .itemNotFound: return -25300
        case .duplicateItem: return -25299
        case .authFailed: return -25293
        case .interactionNotAllowed: return -25308
        case .missingEntitlement: return -34018
        case .noSuchVault: return -25294
        case .duplicateVault: return -25296
        case .decode: return -26275
        case .invalidKeychain: return -25295
        case .userCanceled: return -128
        case .notAvailable: return -25291
        case .verifyFailed: return -67808
        case .tpmLockout: return 0
        }
    }

    /// The process exit code for this outcome.
    public var exitCode: Int32 {
        switch self {
        case .success: return 0
        case .failure: return 1
        case .usage: return 2
        case .tpmLockout: return 54
        default: return osStatus & 0xFF
        }
    }

    /// The Keychain constant's name, for docs and `--json` errors.
    package var keychainName: String {
        switch self {
        case .success: return "errSecSuccess"
        case .failure: return "-"
        case .usage: return "-"
        case .itemNotFound: return "errSecItemNotFound"
        case .duplicateItem: return "errSecDuplicateItem"
        case .authFailed: return "errSecAuthFailed"
        case .interactionNotAllowed: return "errSecInteractionNotAllowed"
        case .missingEntitlement: return "errSecMissingEntitlement"
        case .noSuchVault: return "errSecNoSuchKeychain"
        case .duplicateVault: return "errSecDuplicateKeychain"
        case .decode: return "errSecDecode"
        case .invalidKeychain: return "errSecInvalidKeychain"
        case .userCanceled: return "errSecUserCanceled"
        case .notAvailable: return "errSecNotAvailable"
        case .verifyFailed: return "errSecVerifyFailed"
        case .tpmLockout: return "-"
        }
    }
}
