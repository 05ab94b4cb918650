/// The outcome of a vault operation, as the Keychain names it. Each status
/// carries its OSStatus and the exit code `vault` returns for it, which
/// follows macOS `security` (OSStatus & 0xFF) so scripts can port.
public enum Status: CaseIterable, Sendable {
    case success
    /// A general failure with no Keychain counterpart: I/O errors, unsafe file permissions.
    case failure
    case usage
    case itemNotFound
    case duplicateItem
    case authFailed
    case interactionNotAllowed
    case missingEntitlement
    case noSuchVault
    case duplicateVault
    case decode

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
        }
    }

    /// The process exit code for this outcome.
    public var exitCode: Int32 {
        switch self {
        case .success: return 0
        case .failure: return 1
        case .usage: return 2
        default: return osStatus & 0xFF
        }
    }

    /// The Keychain constant's name, for docs and `--json` errors.
    public var keychainName: String {
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
        }
    }
}
