/// --bundle-key-file and --bundle-passphrase-file, as `export` and `import`
/// hold them: what seals or opens a bundle (`VaultAccess.bundleCredential`).
struct BundleCredentialOptions: Sendable {
    var keyFile: String?
    var passphraseFile: String?

    init(_ options: OptionReader) {
        keyFile = options.value(ExportArguments.bundleKeyFile)
        passphraseFile = options.value(ExportArguments.bundlePassphraseFile)
    }

    /// The first of them given, for a command that has no bundle to seal or open.
    var firstGiven: OptionName? {
        [(ExportArguments.bundlePassphraseFile.name, passphraseFile != nil), (ExportArguments.bundleKeyFile.name, keyFile != nil)].first(
            where: \.1)?.0
    }
}
