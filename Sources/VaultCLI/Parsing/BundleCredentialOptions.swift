/// --bundle-key-file and --bundle-passphrase-file, as `export` and `import`
/// hold them: what seals or opens a bundle (`VaultAccess.bundleCredential`).
struct BundleCredentialOptions: Sendable {
    var keyFile: String?
    var passphraseFile: String?

    init(_ options: OptionReader) {
        keyFile = options.value(.bundleKeyFile)
        passphraseFile = options.value(.bundlePassphraseFile)
    }

    /// The first of them given, for a command that has no bundle to seal or open.
    var firstGiven: OptionName? {
        [(OptionName.bundlePassphraseFile, passphraseFile != nil), (.bundleKeyFile, keyFile != nil)].first(where: \.1)?.0
    }
}
