import VaultCore
import VaultCrypto

/// How a command reaches the vault: which file, with which credential, and
/// whether it may prompt. The credential comes from, in order: --key-file,
/// VAULT_KEY_FILE, --passphrase-file, VAULT_PASSPHRASE_FILE, a no-echo prompt
/// on the terminal — and when none may be used, exit 36 at once.
struct VaultAccess {
    var invocation: Invocation

    init(_ invocation: Invocation) {
        self.invocation = invocation
    }

    private var arguments: ParsedArguments { invocation.arguments }
    private var environment: [String: String] { invocation.environment }

    var location: VaultLocation {
        VaultLocation.resolve(explicitPath: arguments.value("vault"), environment: environment)
    }

    /// Why vault may not prompt here, or nil when it may.
    var reasonPromptsAreOff: String? {
        if arguments.flag("no-interaction") { return "--no-interaction" }
        if isSet(environment["VAULT_NO_INTERACTION"]) { return "VAULT_NO_INTERACTION is set" }
        if isSet(environment["CI"]) { return "CI is set" }
        if !invocation.terminal.hasControllingTerminal { return "no terminal" }
        return nil
    }

    /// The key file named by --key-file or VAULT_KEY_FILE.
    var keyFilePath: String? { nonEmpty(arguments.value("key-file")) ?? nonEmpty(environment["VAULT_KEY_FILE"]) }

    /// The passphrase file named by --passphrase-file or VAULT_PASSPHRASE_FILE.
    var passphraseFilePath: String? {
        nonEmpty(arguments.value("passphrase-file")) ?? nonEmpty(environment["VAULT_PASSPHRASE_FILE"])
    }

    /// The credential that unlocks the vault for this call.
    func credential() throws -> Credential {
        if let path = keyFilePath { return .keyFile(try KeyFile.read(path: path)) }
        if let path = passphraseFilePath { return .passphrase(try PassphraseFile.read(path: path)) }
        if let reason = reasonPromptsAreOff { throw CommandFailure.interactionNotAllowed(reason: reason) }
        guard let typed = invocation.terminal.readHidden(prompt: "Passphrase for \(location.path): ") else {
            throw CommandFailure.interactionNotAllowed(reason: "no terminal")
        }
        return .passphrase(SecretBytes(typed))
    }

    /// The vault, unlocked with this call's credential. Fails early when the
    /// vault does not exist, before asking for a passphrase.
    func vault() throws -> Vault {
        let location = self.location
        guard location.exists else { throw VaultError.noSuchVault(path: location.path) }
        return Vault(location: location, credential: try credential())
    }

    /// The item store the command works on: the vault file (the only backend so far).
    func store() throws -> ItemStore {
        try vault()
    }

    /// Reads a new passphrase: from a file, or typed twice on the terminal.
    func newPassphrase(fromFile path: String?, purpose: String) throws -> SecretBytes {
        if let path { return try PassphraseFile.read(path: path) }
        if let reason = reasonPromptsAreOff { throw CommandFailure.interactionNotAllowed(reason: reason) }
        guard let first = invocation.terminal.readHidden(prompt: "\(purpose): "),
              let second = invocation.terminal.readHidden(prompt: "\(purpose) (again): ") else {
            throw CommandFailure.interactionNotAllowed(reason: "no terminal")
        }
        guard first == second else {
            throw CommandFailure(.usage, "the two passphrases differ", hint: "run the command again and type the same passphrase twice")
        }
        guard !first.isEmpty else {
            throw CommandFailure(.usage, "the passphrase is empty", hint: "type a passphrase, or use --key-file for a key file")
        }
        return SecretBytes(first)
    }

    private func isSet(_ value: String?) -> Bool {
        guard let value else { return false }
        return !["", "0", "false", "no"].contains(value.lowercased())
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
