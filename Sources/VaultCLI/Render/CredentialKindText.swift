import VaultCore

extension CredentialKind {
    /// The kind's name in messages, `status` and JSON output: "passphrase", "key file", "desktop keyring".
    var name: String {
        switch self {
        case .passphrase: "passphrase"
        case .keyFile: "key file"
        case .desktopKeyring: "desktop keyring"
        }
    }
}
