import VaultCore

/// The words for Sealed/'s errors.
extension ErrorReport {
    /// A BundleError in words.
    static func describe(_ error: BundleError) -> ErrorReport {
        let status = error.status
        switch error {
        case .wrongBundleCredential(let kind):
            return ErrorReport(status: status, message: "the bundle \(kind == .keyFile ? "key file" : "passphrase") does not open the export bundle; nothing was imported",
                               hint: kind == .keyFile ? "give the key file the bundle was exported with: --bundle-key-file FILE"
                                   : "give the passphrase the bundle was exported with: --bundle-passphrase-file FILE, or leave it out to be asked")
        case .noBundleKeyslot(let kind):
            let other = kind == .keyFile ? "a passphrase: give --bundle-passphrase-file FILE, or leave it out to be asked" : "a key file: give --bundle-key-file FILE"
            return ErrorReport(status: status, message: "the export bundle does not open with a \(kind == .keyFile ? "key file" : "passphrase"); nothing was imported",
                               hint: "it was exported with \(other)")
        case .damagedBundle(let path, let detail):
            return ErrorReport(status: status, message: "the export bundle \(quoted(path)) is damaged: \(detail)",
                               hint: "nothing was imported; export it again from the vault it came from")
        }
    }
}
