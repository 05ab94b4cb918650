/// Why an operation failed in Items/ (export and import, `Transfer`): an export bundle that does not open: damaged, or another credential than the one given.
/// `VaultError.bundle` carries it; the command line words it (`VaultCLI/Render/ErrorMessages+Items.swift`).
public enum BundleError: Equatable, Sendable {
    /// The passphrase or key file given for an export bundle does not open it.
    case wrongBundleCredential(CredentialKind)
    /// The export bundle opens with the other kind of credential than the one given.
    case noBundleKeyslot(CredentialKind)
    /// An export bundle is damaged or not a bundle.
    case damagedBundle(path: String, detail: Damage)

    /// The status (and exit code) of this error.
    public var status: Status {
        switch self {
        case .wrongBundleCredential: return .authFailed
        case .noBundleKeyslot: return .authFailed
        case .damagedBundle: return .decode
        }
    }
}
