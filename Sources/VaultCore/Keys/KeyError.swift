/// Why an operation failed in Keys/: this machine's device key: missing, elsewhere, or its TPM seal refused.
/// `VaultError.keys` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Keys.swift`).
public enum KeyError: Equatable, Sendable {
    /// An item is device-bound and this machine's device key is not the one it was sealed with.
    case boundToAnotherDevice(group: AccessGroup, accessibility: Accessibility)
    /// This machine's device key is sealed by its TPM, and the TPM did not seal or unseal it.
    case tpm(TPMFailure)
    /// This machine has no device key for the vault (it was made elsewhere), so there is none to seal or move.
    case noDeviceKey

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .boundToAnotherDevice: return .decode
        case .tpm(let failure): return failure.status
        case .noDeviceKey: return .itemNotFound
        }
    }
}
