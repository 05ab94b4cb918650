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

    private var arguments: ParsedArguments { invocation.arguments }
    private var environment: [String: String] { invocation.environment }

    private var settings: Settings { Settings(invocation) }

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
        overriddenLocation ?? VaultLocation.resolve(explicitPath: try? settings.value(.vault), environment: environment)
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
        if arguments.flag(.noInteraction) { return "--no-interaction" }
        if settings.isOn(.noInteraction) { return "VAULT_NO_INTERACTION is set" }
        if Settings.isSet(environment["CI"]) { return "CI is set" }
        return nil
    }

    /// Whether sessions live in the login's kernel keyring too: not under CI (runner jobs often
    /// share one user) nor with --no-keyring or VAULT_NO_KEYRING.
    var usesLoginKeyring: Bool {
        !settings.isOn(.noKeyring) && !Settings.isSet(environment["CI"])
    }

    /// The key file named by --key-file or VAULT_KEY_FILE (no config key: it cannot fail).
    var keyFilePath: String? { try? settings.value(.keyFile) }

    /// The passphrase file named by --passphrase-file or VAULT_PASSPHRASE_FILE.
    var passphraseFilePath: String? { try? settings.value(.passphraseFile) }

    /// The credential named by options or the environment, if any.
    private func namedCredential(flagsOnly: Bool) throws -> UnlockSecret? {
        let keyFile = flagsOnly ? arguments.value(.keyFile) : keyFilePath
        let passphraseFile = flagsOnly ? arguments.value(.passphraseFile) : passphraseFilePath
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
    private func scopedCredential(flagsOnly: Bool) throws -> ScopedCredential? {
        if let value = nonEmpty(arguments.value(.credential)) {
            if !KeyFile.exists(path: value) {
                invocation.terminal.writeErr("vault: warning: a credential given on the command line is visible to every process of this machine (ps); put it in VAULT_CREDENTIAL or in a file\n")
            }
            return try ScopedCredential.load(value, source: "--credential")
        }
        guard !flagsOnly, let value = try settings.fromEnvironmentOrConfig(.credential) else { return nil }
        return try ScopedCredential.load(value, source: "VAULT_CREDENTIAL")
    }

    /// The identities named by --identity (`flagsOnly`), or also by VAULT_IDENTITY or the config
    /// key identity; never the default identity file (docs/TEAMS.md: an identity is used only when named).
    /// Its text is refused on the command line and in the config (exit 2).
    func namedIdentities(flagsOnly: Bool) throws -> [AgeIdentity]? {
        let value: String
        let source: String
        if let given = nonEmpty(arguments.value(.identity)) {
            (value, source) = (given, "the --identity value")
        } else if !flagsOnly, let found = nonEmpty(try settings.value(.identity)) {
            let variable = environment["VAULT_IDENTITY"].flatMap(nonEmpty)
            (value, source) = (found, variable != nil ? "VAULT_IDENTITY" : "the config key identity")
        } else {
            return nil
        }
        // Text on the command line is in every user's `ps` and in shell history; the config file need not be private.
        if IdentityFile.isText(value), source != "VAULT_IDENTITY" {
            throw UsageError("\(source) holds an identity's text; there it is readable by others",
                             hint: "put the identity in a file only you can read and name the file, or put its text in VAULT_IDENTITY")
        }
        return try IdentityFile.load(value, source: source == "the --identity value" || source == "the config key identity" ? quoted(value) : source)
    }

    /// The session token in VAULT_SESSION, if any.
    var sessionToken: String? {
        guard let token = environment["VAULT_SESSION"], !token.isEmpty else { return nil }
        return token
    }

    /// The vault with its keys (see `unlockers()`) and its configuration (see `configuration`).
    /// Fails early when the vault does not exist, before asking for anything.
    /// - Parameters:
    ///   - progress: the line that shows how far the vault's long operations have come, if one may show.
    ///   - revisionsKept: how many earlier secrets a change keeps (`update --keep`); nil for the default.
    func vault(progress: ProgressLine? = nil, revisionsKept: Int? = nil) throws -> Vault {
        try requireFileBackend()
        let location = try existingLocation()
        return Vault(location: location, unlockers: try unlockers(), host: try host(),
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
            acceptRollback: arguments.flag(.acceptRollback),
            acceptTeamLog: arguments.flag(.acceptLog),
            reviewTeamLog: { [invocation] review in try TeamLogReviewText.ask(review, terminal: invocation.terminal, promptsOff: reason != nil) },
            checkBeforeChanging: { vault in
                try vault.requireCheckedHistory { lastChecked in
                    let path = vault.location.path
                    guard let repository = try? GitRepository.containing(path, environment: environment),
                          let relative = try? repository.relativePath(of: path) else { return }
                    try TeamLogHistory(repository: repository, paths: [relative])
                        .requireHeadHolds("HEAD", path: relative, shown: path, since: lastChecked.map { [$0] } ?? [], finding: .beforeChanging)
                }
            },
            revisionsKept: revisionsKept)
        if let text = try invocation.config().value("trash-days") {
            guard let days = Int(text), days >= 0, days <= 36_500 else {
                throw UsageError("the config key trash-days holds \(quoted(text)), not a number of days", hint: "write trash-days = 30 (0 to 36500) in \(quoted(try invocation.config().path))")
            }
            configuration.trashDays = days
        }
        if let text = try settings.value(.minEpoch) {
            guard let epoch = UInt64(text) else {
                throw UsageError("the minimum key epoch \(quoted(text)) is not a whole number", hint: "give the epoch 'vault verify' prints, e.g. --min-epoch 3")
            }
            configuration.minimumEpoch = epoch
        }
        configuration.trustedFingerprint = try pinnedTrust()
        configuration.heldSessionToken = sessionToken
        configuration.holdsLoginKeyringSession = usesLoginKeyring
        configuration.acceptedMembers = Set(arguments.values(.acceptMember).flatMap { $0.split(separator: ",").map(String.init) })
        return configuration
    }

    /// Writes a vault's notice to stderr.
    private var writeNotice: (VaultNotice) -> Void {
        { [invocation] in invocation.terminal.writeErr(NoticeText.describe($0)) }
    }

    /// The trust fingerprint pinned by --trust, VAULT_TRUST or the config, if any; a malformed one is an error.
    func pinnedTrust() throws -> String? {
        guard let text = try settings.value(.trust) else { return nil }
        guard let fingerprint = parsedTrustFingerprint(text) else {
            throw VaultError.invalidTrustFingerprint(source: arguments.value(.trust) != nil ? "the --trust value" : "VAULT_TRUST or the config key trust")
        }
        return fingerprint
    }

    /// The vault's location, once it is known to exist (`noSuchVault` otherwise).
    private func existingLocation() throws -> VaultLocation {
        let location = self.location
        guard try location.exists else { throw VaultError.noSuchVault(path: location.path) }
        return location
    }

    /// The ways to unlock, in the order the vault tries them: a credential named by an option wins
    /// (key file, passphrase file, scoped credential, identity), then the session in VAULT_SESSION,
    /// then a credential or identity named in the environment (or, for an identity, the config),
    /// then the session the login's kernel keyring keeps (`usesLoginKeyring`), then the default identity
    /// file when it opens a member slot of this vault (`defaultMemberIdentity`), then no unlock at all
    /// (always and after-first-unlock items open), then, when that is not enough, the desktop
    /// keyring's slot and a prompt where prompts are allowed. A named credential is the only
    /// unlocker: it never falls back to another.
    func unlockers() throws -> [Unlocker] {
        if let named = try namedCredential(flagsOnly: true) { return [.credential(named)] }
        if let scoped = try scopedCredential(flagsOnly: true) { return [.scoped(scoped)] }
        if let identities = try namedIdentities(flagsOnly: true) { return [.identity(identities)] }
        let session = sessionToken.map { Unlocker.session(token: $0) }
        if session == nil, let named = try unlockerNamedInEnvironment() { return [named] }
        let loginKeyring: Unlocker? = usesLoginKeyring ? .loginKeyring : nil
        // An empty VAULT_CREDENTIAL is usually a CI secret that was never set: named among what was tried.
        let emptyCredential: Unlocker? = environment["VAULT_CREDENTIAL"] == ""
            ? .unavailable(.scopedCredential, reason: "VAULT_CREDENTIAL is set but empty; set it to what 'vault grant' wrote, or unset it") : nil
        let found = [emptyCredential, session, loginKeyring, try defaultMemberIdentity(), .deviceKey].compactMap { $0 }
        if sessionToken != nil, keyFilePath != nil || passphraseFilePath != nil {
            // The credential VAULT_KEY_FILE or VAULT_PASSPHRASE_FILE names, read only when the session is not enough.
            return found + [.asked(AskedUnlocker(keyFilePath != nil ? .keyFile : .passphraseFile) { try self.credential() })]
        }
        let prompt: Unlocker = reasonPromptsAreOff.map { .unavailable(.prompt, reason: $0) }
            ?? .asked(AskedUnlocker(.prompt, attempts: VaultAccess.passphraseAttempts, ask: passphrasePrompt()))
        return found + [desktopKeyringUnlocker(), prompt]
    }

    /// The identity at the default path (`~/.config/vault/identity.txt`, where `identity new` writes
    /// it) when nothing was named and it opens a member slot of this vault: a member's first `get` in
    /// a fresh clone reads with it, as sops reads its default age keys file. Tried after the
    /// sessions, so an owner's live session wins. A file that does not load, or opens no slot here
    /// (the owner's own identity, another vault's member), is passed over: the prompt then says so.
    private func defaultMemberIdentity() throws -> Unlocker? {
        let path = IdentityFile.defaultPath(environment: environment)
        guard KeyFile.exists(path: path), let identities = try? IdentityFile.load(path, source: quoted(path)),
              try Vault(location: location, keys: .none, host: host()).memberSlotOpens(with: identities) else { return nil }
        return .identity(identities)
    }

    /// A key file, passphrase file, scoped credential or identity named in the environment or config.
    private func unlockerNamedInEnvironment() throws -> Unlocker? {
        if let named = try namedCredential(flagsOnly: false) { return .credential(named) }
        if let scoped = try scopedCredential(flagsOnly: false) { return .scoped(scoped) }
        if let identities = try namedIdentities(flagsOnly: false) { return .identity(identities) }
        return nil
    }

    /// Tries of a typed passphrase, as sudo and ssh allow.
    static let passphraseAttempts = 3

    /// The passphrase prompt as an unlocker's `ask`: a call after the first follows a wrong
    /// passphrase, and says so; the first says when the session in VAULT_SESSION has ended.
    private func passphrasePrompt() -> () throws -> UnlockSecret {
        let calls = CallCount()
        return {
            calls.value += 1
            if calls.value > 1 { invocation.terminal.writeErr("vault: wrong passphrase; try again\n") }
            if calls.value == 1, let token = sessionToken,
               !Vault(location: location, keys: .none, host: HostContext.live(environment: environment)).sessionIsLive(token: token) {
                invocation.terminal.writeErr("vault: the unlock session in VAULT_SESSION has ended; type the passphrase, or start a new session with 'vault unlock'\n")
            }
            // An identity lying where `identity new` writes it that opens no member slot here is said once.
            let identityPath = IdentityFile.defaultPath(environment: environment)
            if calls.value == 1, KeyFile.exists(path: identityPath), (try? defaultMemberIdentity()).flatMap({ $0 }) == nil {
                invocation.terminal.writeErr(UnnamedIdentityText.beforePrompt(path: identityPath))
            }
            return try self.credential()
        }
    }

    /// The vault as shell completion opens it: with only what opens at once —
    /// a session (VAULT_SESSION or the login's keyring), a key file, a scoped credential, or no unlock at all — and
    /// never a prompt, the desktop keyring or a passphrase file (its scrypt
    /// takes about a second at every TAB). With `pinningTrust`, a member's identity reads under the
    /// trust fingerprint pinned (`pinnedTrust()`); without, it reads nothing.
    func vaultOpeningAtOnce(pinningTrust: Bool = false) throws -> Vault {
        try requireFileBackend()
        let location = try existingLocation()
        return Vault(location: location, unlockers: try unlockersOpeningAtOnce(), host: try host(),
                     configuration: Vault.Configuration(trustedFingerprint: pinningTrust ? try pinnedTrust() : nil))
    }

    private func unlockersOpeningAtOnce() throws -> [Unlocker] {
        if let token = sessionToken { return [.session(token: token), .deviceKey] }
        if let path = keyFilePath { return [.credential(.keyFile(try KeyFile.read(path: path)))] }
        if let scoped = try scopedCredential(flagsOnly: false) { return [.scoped(scoped)] }
        if let identities = try? namedIdentities(flagsOnly: false) { return [.identity(identities)] }
        let member = try? defaultMemberIdentity()
        return [usesLoginKeyring ? .loginKeyring : nil, member ?? nil, .deviceKey].compactMap { $0 }
    }

    /// The item store the command works on: the vault file, or the desktop keyring (see `backend()`).
    /// Item commands (not previews, maintenance or completion) first run the
    /// first-run wipe the config asks for (`first-run-marker`). `progress` and `revisionsKept` are
    /// the vault file's (see `vault(progress:revisionsKept:)`): the keyring reports no progress and keeps no history.
    func store(progress: ProgressLine? = nil, revisionsKept: Int? = nil) throws -> ItemStore {
        if try backend() == .secretService { return try secretServiceStore() }
        let vault = try self.vault(progress: progress, revisionsKept: revisionsKept)
        // The configured first-run wipe never asks, so no --yes is needed.
        try FirstRun.applyConfigured(try invocation.config(), vault: vault,
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
            throw CommandFailure(.interactionNotAllowed, "no bundle passphrase given, and vault may not prompt here (\(reason))", hint: hint)
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
        let unlockers: [Unlocker]
        if keyFilePath == nil, passphraseFilePath == nil, reasonPromptsAreOff == nil {
            unlockers = [.deviceKey, .asked(AskedUnlocker(.prompt, attempts: VaultAccess.passphraseAttempts, ask: passphrasePrompt()))]
        } else {
            unlockers = [.credential(try credential())]
        }
        return Vault(location: location, unlockers: unlockers, host: try host(), configuration: Vault.Configuration(onNotice: writeNotice))
    }

    /// Reads a new passphrase: from a file, or typed twice on the terminal.
    func newPassphrase(fromFile path: String?, purpose: String,
                       hint: String = "init takes --passphrase-file FILE or --key-file FILE; passwd takes --new-passphrase-file FILE") throws -> SecretBytes {
        if let path {
            let passphrase = try PassphraseFile.read(path: path)
            warnIfWeak(passphrase)
            return passphrase
        }
        if let reason = reasonPromptsAreOff {
            throw CommandFailure(.interactionNotAllowed, "no new passphrase given, and vault may not prompt here (\(reason))", hint: hint)
        }
        guard let first = try invocation.terminal.readHidden(prompt: "\(purpose): "),
              let second = try invocation.terminal.readHidden(prompt: "\(purpose) (again): ") else {
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
                  ["y", "yes"].contains(answer.lowercased()) else { throw PassphraseStrengthText.declined }
        }
        return passphrase
    }

    /// Says on stderr, in one line, that `passphrase` is below the strength floor;
    /// returns whether it is (so a terminal can be asked whether to keep it).
    @discardableResult
    private func warnIfWeak(_ passphrase: SecretBytes) -> Bool {
        let strength = PassphraseStrength(passphrase)
        guard strength.isWeak else { return false }
        invocation.terminal.writeErr(PassphraseStrengthText.warning(strength))
        return true
    }
}

/// `value`, or nil when it is unset or empty (an empty setting counts as unset).
func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
}

/// How many times a prompt has been called.
private final class CallCount {
    var value = 0
}
