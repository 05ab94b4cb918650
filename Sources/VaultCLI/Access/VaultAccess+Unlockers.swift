import VaultCore

/// What a list of unlockers is for. There is one list, in one order (`VaultAccess.unlockers(for:)`);
/// a purpose leaves some out, and never reorders the rest.
enum UnlockPurpose {
    /// A command's read or write: every unlocker. The only purpose that takes step 1 of the list, a
    /// credential named by an option before any named in the environment whatever their kinds; the
    /// others go by kind from step 2, a key file given in the environment before a scoped
    /// credential given as an option.
    case command
    /// Shell completion and git's textconv: only what opens at once, and nothing asked for — no
    /// passphrase file (its scrypt takes about a second at every TAB), no desktop keyring, no
    /// prompt, no note of an empty VAULT_CREDENTIAL; a session in VAULT_SESSION, when there is one,
    /// with the device key only; an identity that does not load passed over.
    case atOnce
    /// `vault unlock`, which starts a session from the master key: a key file or passphrase file
    /// (named by an option or the environment), else the device key and a typed passphrase; no
    /// session, scoped credential or identity. Where vault may not prompt, exit 36 at once.
    case unlock
}

extension VaultAccess {
    /// The ways to unlock, in the one order the vault tries them (docs/ARCHITECTURE.md, "The
    /// command-line edge"):
    /// 1. a credential named by an option: key file, passphrase file, scoped credential, identity;
    /// 2. with no session in VAULT_SESSION, a credential named as a setting — by an option, else
    ///    the environment (or, for a scoped credential or an identity, the config) — in the same
    ///    order of kinds; a credential of 1 or 2 is then the only unlocker: it never falls back;
    /// 3. a note that VAULT_CREDENTIAL is set but empty, the session in VAULT_SESSION, the session
    ///    the login's kernel keyring keeps (`usesLoginKeyring`), the default identity file when it
    ///    opens a member slot of this vault (`defaultMemberIdentity`), then no unlock at all
    ///    (always and after-first-unlock items open);
    /// 4. asked for when that is not enough: with a session, the key file or passphrase file the
    ///    environment names; else the desktop keyring's slot, then a prompt where prompts are allowed.
    /// `purpose` leaves some out (`UnlockPurpose`).
    func unlockers(for purpose: UnlockPurpose) throws -> [Unlocker] {
        let session = sessionToken.map { Unlocker.session(token: $0) }
        if purpose == .atOnce, let session { return [session, .deviceKey] }
        if purpose == .command, let named = try namedUnlocker(flagsOnly: true, for: purpose) { return [named] }
        if session == nil || purpose == .unlock, let named = try namedUnlocker(flagsOnly: false, for: purpose) { return [named] }
        // `vault unlock` with nothing named and no prompt: the error `credential()` gives, before the vault is read.
        if purpose == .unlock, reasonPromptsAreOff != nil { return [.credential(try credential())] }
        var found: [Unlocker?] = []
        if purpose == .command {
            // An empty VAULT_CREDENTIAL is usually a CI secret that was never set: named among what was tried.
            found.append(
                settings.isEmptyButSet(variable: .vaultCredential)
                    ? .unavailable(
                        .scopedCredential, reason: "VAULT_CREDENTIAL is set but empty; set it to what 'vault grant' wrote, or unset it")
                    : nil)
        }
        if purpose != .unlock {
            let member = try purpose == .atOnce ? (try? defaultMemberIdentity()) ?? nil : defaultMemberIdentity()
            found += [session, usesLoginKeyring ? .loginKeyring : nil, member]
        }
        found.append(.deviceKey)
        if purpose == .atOnce { return found.compactMap { $0 } }
        if purpose == .command, sessionToken != nil, keyFilePath != nil || passphraseFilePath != nil {
            // The credential VAULT_KEY_FILE or VAULT_PASSPHRASE_FILE names, read only when the session is not enough.
            found.append(.asked(AskedUnlocker(keyFilePath != nil ? .keyFile : .passphraseFile) { try self.credential() }))
            return found.compactMap { $0 }
        }
        if purpose == .command { found.append(desktopKeyringUnlocker()) }
        found.append(
            reasonPromptsAreOff.map { .unavailable(.prompt, reason: $0) }
                ?? .asked(AskedUnlocker(.prompt, attempts: VaultAccess.passphraseAttempts, ask: passphrasePrompt())))
        return found.compactMap { $0 }
    }

    /// The credential named by options (`flagsOnly`), or by options, the environment or the config,
    /// that `purpose` takes: a key file, a passphrase file, a scoped credential, an identity, in that order.
    private func namedUnlocker(flagsOnly: Bool, for purpose: UnlockPurpose) throws -> Unlocker? {
        let keyFile = flagsOnly ? arguments.value(GlobalOptions.keyFile.name) : keyFilePath
        if let path = nonEmpty(keyFile) { return .credential(.keyFile(try KeyFile.read(path: path))) }
        if purpose != .atOnce, let named = try namedCredential(flagsOnly: flagsOnly) { return .credential(named) }
        guard purpose != .unlock else { return nil }
        if let scoped = try scopedCredential(flagsOnly: flagsOnly) { return .scoped(scoped) }
        let identities =
            try purpose == .atOnce ? (try? namedIdentities(flagsOnly: flagsOnly)) ?? nil : namedIdentities(flagsOnly: flagsOnly)
        return identities.map { .identity($0) }
    }

    /// The identity at the default path (`~/.config/vault/identity.txt`, where `identity new` writes
    /// it) when nothing was named and it opens a member slot of this vault: a member's first `get` in
    /// a fresh clone reads with it, as sops reads its default age keys file. Tried after the
    /// sessions, so an owner's live session wins. A file that does not load, or opens no slot here
    /// (the owner's own identity, another vault's member), is passed over: the prompt then says so.
    func defaultMemberIdentity() throws -> Unlocker? {
        let path = IdentityFile.defaultPath(environment: environment)
        guard KeyFile.exists(path: path), let identities = try? IdentityFile.load(path, source: quoted(path)),
            try Vault(location: location, keys: .none, host: host()).memberSlotOpens(with: identities)
        else { return nil }
        return .identity(identities)
    }

    /// Tries of a typed passphrase, as sudo and ssh allow.
    static let passphraseAttempts = 3

    /// The passphrase prompt as an unlocker's `ask`: a call after the first follows a wrong
    /// passphrase, and says so; the first says when the session in VAULT_SESSION has ended.
    private func passphrasePrompt() -> () throws -> UnlockSecret {
        let calls = CallCount()
        return {
            calls.value += 1
            if calls.value > 1 { invocation.terminal.diagnostics.notice("wrong passphrase; try again") }
            if calls.value == 1, let token = sessionToken,
                !Vault(location: location, keys: .none, host: HostContext.live(environment: environment)).sessionIsLive(token: token)
            {
                invocation.terminal.diagnostics.notice(
                    "the unlock session in VAULT_SESSION has ended; type the passphrase, or start a new session with 'vault unlock'")
            }
            // An identity lying where `identity new` writes it that opens no member slot here is said once.
            let identityPath = IdentityFile.defaultPath(environment: environment)
            if calls.value == 1, KeyFile.exists(path: identityPath), (try? defaultMemberIdentity()).flatMap({ $0 }) == nil {
                invocation.terminal.diagnostics.notice(UnnamedIdentityText.beforePrompt(path: identityPath))
            }
            return try self.credential()
        }
    }
}

/// How many times a prompt has been called.
private final class CallCount {
    var value = 0
}
