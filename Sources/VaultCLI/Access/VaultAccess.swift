import VaultCore
import VaultCrypto

/// How a command reaches the vault: which file, with which keys, and whether
/// it may prompt (see `vault()` for the order); when a needed key cannot be
/// had and vault may not prompt, exit 36 at once.
struct VaultAccess {
    var invocation: Invocation

    init(_ invocation: Invocation) {
        self.invocation = invocation
    }

    var arguments: ParsedArguments { invocation.arguments }
    var environment: [String: String] { invocation.environment }

    var settings: Settings { Settings(invocation) }

    /// A file to open instead of the one the settings name (the merge driver's `%A`).
    var overriddenLocation: VaultLocation?

    /// Why the program that runs vault forbids a prompt (kubectl's `interactiveMode: Never`, an AWS
    /// SDK's `credential_process`), or nil: then vault never prompts, even with a terminal.
    var promptsForbiddenByCaller: String?

    /// Asks the passphrase some other way than the terminal (the Secret Service provider's prompt
    /// program), or nil; asked before a prompt, after a named credential.
    var askedPassphrase: (() throws -> SecretBytes)?

    /// --vault or VAULT_PATH, else the default vault.
    var location: VaultLocation {
        overriddenLocation ?? VaultLocation.resolve(explicitPath: try? settings.value(GlobalOptions.vault.name), environment: environment)
    }

    /// The machine as vault sees it, with the TPM that seals its device keys (`TPMSettings`).
    func host() throws -> HostContext {
        var host = HostContext.live(environment: environment)
        host.tpm = try TPMSettings(invocation).tpmAccess(invocation, mayPrompt: reasonPromptsAreOff == nil)
        return host
    }

    /// Why vault may not prompt here, or nil when it may.
    var reasonPromptsAreOff: String? {
        if let reason = reasonInteractionIsForbidden { return reason }
        if !invocation.terminal.hasControllingTerminal { return "no terminal" }
        return nil
    }

    /// Why the caller said it cannot interact (--no-interaction,
    /// VAULT_NO_INTERACTION, CI), or nil; unlike `reasonPromptsAreOff`, a
    /// missing terminal is not a reason, since an editor may open a window.
    var reasonInteractionIsForbidden: String? {
        if let promptsForbiddenByCaller { return promptsForbiddenByCaller }
        if arguments.flag(GlobalOptions.noInteraction.name) { return "--no-interaction" }
        if settings.isOn(GlobalOptions.noInteraction.name) { return "VAULT_NO_INTERACTION is set" }
        if settings.isOn(variable: .ci) { return "CI is set" }
        return nil
    }

    /// Whether sessions live in the login's kernel keyring too: not under CI (runner jobs often
    /// share one user) nor with --no-keyring or VAULT_NO_KEYRING.
    var usesLoginKeyring: Bool {
        !settings.isOn(GlobalOptions.noKeyring.name) && !settings.isOn(variable: .ci)
    }

    /// The key file named by --key-file or VAULT_KEY_FILE (no config key: it cannot fail).
    var keyFilePath: String? { try? settings.value(GlobalOptions.keyFile.name) }

    /// The passphrase file named by --passphrase-file or VAULT_PASSPHRASE_FILE.
    var passphraseFilePath: String? { try? settings.value(GlobalOptions.passphraseFile.name) }

    /// The credential named by options or the environment, if any.
    func namedCredential(flagsOnly: Bool) throws -> UnlockSecret? {
        let keyFile = flagsOnly ? arguments.value(GlobalOptions.keyFile.name) : keyFilePath
        let passphraseFile = flagsOnly ? arguments.value(GlobalOptions.passphraseFile.name) : passphraseFilePath
        if let path = keyFile, !path.isEmpty { return .keyFile(try KeyFile.read(path: path)) }
        if let path = passphraseFile, !path.isEmpty { return .passphrase(try PassphraseFile.read(path: path)) }
        return nil
    }

    /// The credential for this call: named, or typed at a prompt; exit 36 when neither may be had.
    func credential() throws -> UnlockSecret {
        if let named = try namedCredential(flagsOnly: false) { return named }
        if let askedPassphrase { return .passphrase(try askedPassphrase()) }
        if let reason = reasonPromptsAreOff { throw CommandFailure.interactionNotAllowed(reason: reason) }
        guard let typed = try invocation.terminal.readHidden(prompt: "Passphrase for \(location.path): ") else {
            throw CommandFailure.interactionNotAllowed(reason: "no terminal")
        }
        return .passphrase(SecretBytes(typed))
    }

    /// The scoped credential named by --credential, or (unless `flagsOnly`) by
    /// VAULT_CREDENTIAL: a path, the credential's text, or its base64 (see `ScopedCredential.load`).
    func scopedCredential(flagsOnly: Bool) throws -> ScopedCredential? {
        if let value = nonEmpty(arguments.value(GlobalOptions.credential.name)) {
            if !KeyFile.exists(path: value) {
                invocation.terminal.diagnostics.warning(
                    "a credential given on the command line is visible to every process of this machine (ps); put it in VAULT_CREDENTIAL or in a file"
                )
            }
            return try ScopedCredential.load(value, source: "--credential")
        }
        guard !flagsOnly, let value = try settings.fromEnvironmentOrConfig(GlobalOptions.credential.name) else { return nil }
        return try ScopedCredential.load(value, source: EnvironmentVariable.vaultCredential.name)
    }

    /// The identities named by --identity (`flagsOnly`), or also by VAULT_IDENTITY or the config
    /// key identity; never the default identity file (docs/TEAMS.md: an identity is used only when named).
    /// Its text is refused on the command line and in the config (exit 2).
    func namedIdentities(flagsOnly: Bool) throws -> [AgeIdentity]? {
        let given =
            flagsOnly
            ? nonEmpty(arguments.value(GlobalOptions.identity.name)).map { ($0, SettingSource.option(GlobalOptions.identity.name)) }
            : try settings.sourcedValue(GlobalOptions.identity.name, given: arguments.value(GlobalOptions.identity.name))
        guard case let (value, source)? = given, !value.isEmpty else { return nil }
        try IdentitySetting.refuseTextOutsideItsVariable(value, source: source)
        // The variable's value may be the identity's text, which a message never shows.
        return try IdentityFile.load(value, source: source == IdentitySetting.variable ? source.described : quoted(value))
    }

    /// The session token in VAULT_SESSION, if any.
    var sessionToken: String? {
        settings.value(variable: .vaultSession)
    }

    /// The vault with its keys (see `unlockers(for:)`) and its configuration (see `configuration`).
    /// Fails early when the vault does not exist, before asking for anything.
    /// - Parameters:
    ///   - progress: the line that shows how far the vault's long operations have come, if one may show.
    ///   - revisionsKept: how many earlier secrets a change keeps (`update --keep`); nil for the default.
    func vault(progress: ProgressLine? = nil, revisionsKept: Int? = nil) throws -> Vault {
        try requireFileBackend()
        let location = try existingLocation()
        return Vault(
            location: location, unlockers: try unlockers(for: .command), host: try host(),
            configuration: try configuration(progress: progress, revisionsKept: revisionsKept))
    }

    /// What the vault is told when it is made, resolved here once: notices on stderr, the team log
    /// shown at a prompt, the check of the history since the last checked commit, and from options, environment and config what
    /// the user accepts (--accept-rollback, --accept-log) and pins (trash-days, --min-epoch, --trust).
    private func configuration(progress: ProgressLine?, revisionsKept: Int?) throws -> Vault.Configuration {
        let reason = reasonPromptsAreOff
        let environment = invocation.environment
        var configuration = Vault.Configuration(
            progress: progress.map { line in { line.update(done: $0, total: $1) } },
            onNotice: writeNotice,
            acceptRollback: arguments.flag(GlobalOptions.acceptRollback.name),
            acceptTeamLog: arguments.flag(GlobalOptions.acceptLog.name),
            reviewTeamLog: { [invocation] review in
                try TeamLogReviewText.ask(review, terminal: invocation.terminal, promptsOff: reason != nil)
            },
            checkBeforeChanging: { vault in
                try vault.requireCheckedHistory { lastChecked in
                    let path = vault.location.path
                    guard let repository = try? GitRepository.containing(path, environment: environment),
                        let relative = try? repository.relativePath(of: path)
                    else { return }
                    try TeamLogHistory(repository: repository, paths: [relative])
                        .requireHeadHolds(
                            "HEAD", path: relative, shown: path, since: lastChecked.map { [$0] } ?? [], finding: .beforeChanging)
                }
            },
            revisionsKept: revisionsKept)
        if let days = try settings.trashDays() { configuration.trashDays = days }
        if let epoch = try settings.minimumEpoch() { configuration.minimumEpoch = epoch }
        configuration.trustedFingerprint = try pinnedTrust()
        configuration.heldSessionToken = sessionToken
        configuration.holdsLoginKeyringSession = usesLoginKeyring
        configuration.acceptedMembers = Set(
            arguments.values(GlobalOptions.acceptMember.name).flatMap { $0.split(separator: ",").map(String.init) })
        return configuration
    }

    /// Writes a vault's notice to stderr.
    private var writeNotice: (VaultNotice) -> Void {
        { [invocation] in invocation.terminal.diagnostics.write(NoticeText.describe($0)) }
    }

    /// The trust fingerprint pinned by --trust, VAULT_TRUST or the config, if any; a malformed one is an error.
    func pinnedTrust() throws -> String? {
        guard let text = try settings.value(GlobalOptions.trust.name) else { return nil }
        guard let fingerprint = parsedTrustFingerprint(text) else {
            throw VaultError.invalidTrustFingerprint(
                source: arguments.value(GlobalOptions.trust.name) != nil ? "the --trust value" : "VAULT_TRUST or the config key trust")
        }
        return fingerprint
    }

    /// The vault's location, once it is known to exist (`noSuchVault` otherwise).
    private func existingLocation() throws -> VaultLocation {
        let location = self.location
        guard try location.exists else { throw VaultError.noSuchVault(path: location.path) }
        return location
    }

    /// The vault as shell completion opens it: with only what opens at once —
    /// a session (VAULT_SESSION or the login's keyring), a key file, a scoped credential, or no unlock at all — and
    /// never a prompt, the desktop keyring or a passphrase file (its scrypt
    /// takes about a second at every TAB). With `pinningTrust`, a member's identity reads under the
    /// trust fingerprint pinned (`pinnedTrust()`); without, it reads nothing.
    func vaultOpeningAtOnce(pinningTrust: Bool = false) throws -> Vault {
        try requireFileBackend()
        let location = try existingLocation()
        return Vault(
            location: location, unlockers: try unlockers(for: .atOnce), host: try host(),
            configuration: Vault.Configuration(trustedFingerprint: pinningTrust ? try pinnedTrust() : nil))
    }

    /// The item store the command works on: the vault file, or the desktop keyring (see `backend()`).
    /// Item commands (not previews, maintenance or completion) first run the
    /// first-run wipe the config asks for (`first-run-marker`). `progress` and `revisionsKept` are
    /// the vault file's (see `vault(progress:revisionsKept:)`): the keyring reports no progress and keeps no history.
    func store(progress: ProgressLine? = nil, revisionsKept: Int? = nil) throws -> ItemStore {
        if try backend() == .secretService { return try secretServiceStore() }
        let vault = try self.vault(progress: progress, revisionsKept: revisionsKept)
        // The configured first-run wipe never asks, so no --yes is needed.
        try FirstRun.applyConfigured(
            try invocation.config(), vault: vault,
            run: WipeRun(invocation: invocation, access: self, confirmed: false), terminal: invocation.terminal)
        return vault
    }

    /// The credential of an export bundle: --bundle-key-file (created when
    /// missing and `creating`), --bundle-passphrase-file, or a prompt (twice when `creating`).
    func bundleCredential(_ options: BundleCredentialOptions, creating: Bool) throws -> UnlockSecret {
        let hint = "give --bundle-passphrase-file FILE or --bundle-key-file FILE"
        if let path = nonEmpty(options.keyFile) {
            if creating, !KeyFile.exists(path: path) { return .keyFile(try KeyFile.create(path: path)) }
            return .keyFile(try KeyFile.read(path: path, kind: .bundleKeyFile))
        }
        if let path = nonEmpty(options.passphraseFile) { return .passphrase(try PassphraseFile.read(path: path)) }
        if creating { return .passphrase(try newPassphrase(fromFile: nil, purpose: "Passphrase for the bundle", hint: hint)) }
        if let reason = reasonPromptsAreOff {
            throw CommandFailure(
                .interactionNotAllowed, "no bundle passphrase given, and vault may not prompt here (\(reason))", hint: hint)
        }
        guard let typed = try invocation.terminal.readHidden(prompt: "Passphrase for the bundle: ") else {
            throw CommandFailure.interactionNotAllowed(reason: "no terminal")
        }
        return .passphrase(SecretBytes(typed))
    }

    /// The vault opened with a credential, for commands that start from one
    /// (unlock): a named one, or a passphrase typed at the prompt (three tries).
    func vaultWithCredential() throws -> Vault {
        try requireFileBackend()
        let location = try existingLocation()
        return Vault(
            location: location, unlockers: try unlockers(for: .unlock), host: try host(),
            configuration: Vault.Configuration(onNotice: writeNotice))
    }

    /// Reads a new passphrase: from a file, or typed twice on the terminal.
    func newPassphrase(
        fromFile path: String?, purpose: String,
        hint: String = "init takes --passphrase-file FILE or --key-file FILE; passwd takes --new-passphrase-file FILE"
    ) throws -> SecretBytes {
        if let path {
            let passphrase = try PassphraseFile.read(path: path)
            warnIfWeak(passphrase)
            return passphrase
        }
        if let reason = reasonPromptsAreOff {
            throw CommandFailure(.interactionNotAllowed, "no new passphrase given, and vault may not prompt here (\(reason))", hint: hint)
        }
        guard let first = try invocation.terminal.readHidden(prompt: "\(purpose): "),
            let second = try invocation.terminal.readHidden(prompt: "\(purpose) (again): ")
        else {
            throw CommandFailure.interactionNotAllowed(reason: "no terminal")
        }
        guard first == second else {
            throw CommandFailure(.usage, "the two passphrases differ", hint: "run the command again and type the same passphrase twice")
        }
        guard !first.isEmpty else {
            throw CommandFailure(.usage, "the passphrase is empty", hint: "type a passphrase, or use --key-file for a key file")
        }
        let passphrase = SecretBytes(first)
        if warnIfWeak(passphrase) {
            guard let answer = try invocation.terminal.readLine(prompt: PassphraseStrengthText.question + " [y/N] "),
                ["y", "yes"].contains(answer.lowercased())
            else { throw PassphraseStrengthText.declined }
        }
        return passphrase
    }

    /// Says on stderr, in one line, that `passphrase` is below the strength floor;
    /// returns whether it is (so a terminal can be asked whether to keep it).
    @discardableResult
    private func warnIfWeak(_ passphrase: SecretBytes) -> Bool {
        let strength = PassphraseStrength(passphrase)
        guard strength.isWeak else { return false }
        invocation.terminal.diagnostics.warning(PassphraseStrengthText.warning(strength))
        return true
    }
}

/// `value`, or nil when it is unset or empty (an empty setting counts as unset).
func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
}
