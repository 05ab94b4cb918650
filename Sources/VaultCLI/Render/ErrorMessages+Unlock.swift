import VaultCore

/// The words for Unlock/'s errors.
extension ErrorReport {
    /// A UnlockError in words.
    static func describe(_ error: UnlockError) -> ErrorReport {
        let status = error.status
        switch error {
        case .wrongCredential(.passphrase):
            return ErrorReport(
                status: status, message: "wrong passphrase",
                hint: "try again, or unlock with --key-file if the vault has a key-file keyslot")
        case .wrongCredential(.keyFile):
            return ErrorReport(
                status: status, message: "the key file does not open this vault",
                hint: "point --key-file (or VAULT_KEY_FILE) at the key file this vault was set up with")
        case .wrongCredential(.desktopKeyring):
            return ErrorReport(
                status: status, message: "the key in the desktop keyring does not open this vault",
                hint: "unlock with the passphrase, then run 'vault passwd --add-keyring-slot' again")
        case .noKeyslot(.desktopKeyring):
            return ErrorReport(
                status: status, message: "this vault has no desktop-keyring keyslot",
                hint: "add one with 'vault passwd --add-keyring-slot'")
        case .noKeyslot(let kind):
            let other = kind == .passphrase ? "--key-file" : "--passphrase-file or the passphrase prompt"
            return ErrorReport(status: status, message: "this vault has no \(kind.name) keyslot", hint: "unlock it with \(other)")
        case .rekeyNeedsSecret:
            return ErrorReport(
                status: status, message: "re-keying needs the passphrase or key file itself, not an unlock session or an identity",
                hint: "run it at a terminal to be asked, or give --passphrase-file or --key-file")
        case .invalidKeyFile(let path, let problem):
            return ErrorReport(
                status: status, message: "cannot use \(quoted(path)) as a credential: \(words(problem))",
                hint: "point the option at the right file, or create a key file with 'vault init --key-file FILE'")
        case .noMemberSlot(let recipients):
            return ErrorReport(
                status: status,
                message: "no member slot of the vault opens with the identity given (recipient \(recipients.joined(separator: ", ")))",
                hint:
                    "ask the vault's owner to run 'vault member add NAME \(recipients.first ?? "age1…")', or check VAULT_IDENTITY and --vault"
            )
        case .unrecognizedCredential(let length):
            return ErrorReport(
                status: status,
                message: "cannot use the credential given (\(length) characters, not shown): no such file, and not a credential's text",
                hint: makerHint(.credential) + "; a path is shown in messages only when it starts with / or ./")
        case .lastKeyslot:
            return ErrorReport(
                status: status, message: "that would remove the last way to unlock the vault",
                hint: "add another first, e.g. 'vault passwd --add-key-file FILE'")
        case .locked(let accessibility?, let tried):
            return ErrorReport(
                status: status, message: "the vault is locked and items of class \(quoted(accessibility.rawValue)) need an unlock",
                details: UnlockAttemptText.lines(tried), hint: unlockHint)
        case .locked(nil, let tried):
            return ErrorReport(
                status: status, message: "the vault is locked and this command needs it unlocked",
                details: UnlockAttemptText.lines(tried), hint: unlockHint)
        case .sessionEnded(.expired):
            return ErrorReport(status: status, message: "the unlock session in VAULT_SESSION has expired", hint: unlockHint)
        case .sessionEnded(.unknown):
            return ErrorReport(
                status: status, message: "the unlock session in VAULT_SESSION has ended or belongs to another vault",
                hint: unlockHint)
        case .sessionEnded(.rekeyed):
            return ErrorReport(
                status: status, message: "the unlock session ended: the vault was re-keyed after it started",
                hint: unlockHint)
        case .sessionEnded(.malformed):
            return ErrorReport(
                status: status, message: "VAULT_SESSION does not hold a vault session token",
                hint: "set it from 'vault unlock --raw', or unset it")
        case .damagedCredential(let source, let detail):
            return ErrorReport(
                status: status, message: "the credential in \(quoted(source)) is damaged: \(detail)",
                hint: "copy it again from the output of 'vault grant', or ask the vault's owner for a new one")
        case .credentialExpired(let date):
            return ErrorReport(
                status: status, message: "the credential expired on \(DateText.iso(date))",
                hint: "ask the vault's owner for a new one: vault grant --group GROUP --out FILE")
        case .credentialRevoked(let group):
            return ErrorReport(
                status: status, message: "the credential for group \(quoted(group.name)) was revoked",
                hint: "ask the vault's owner for a new one: vault grant --group \(shellQuoted(group.name)) --out FILE")
        case .credentialForAnotherVault:
            return ErrorReport(
                status: status, message: "the credential was granted for another vault",
                hint: "use it with the vault it came from (--vault PATH or VAULT_PATH), or get a grant from this one")
        case .outsideCredential(let group, let covered):
            return ErrorReport(
                status: status,
                message:
                    "the credential does not cover group \(quoted(group.name)); it covers \(covered.map { quoted($0.name) }.joined(separator: ", "))",
                hint: Suggestion.closest(
                    to: group.name, among: covered.map(\.name).filter { Suggestion.distance(group.name, $0) < max(2, group.name.count / 2) }
                ).map { "did you mean \(quoted($0))? (--group \(shellQuoted($0)))" }
                    ?? "name one of its groups, or ask for a grant with --group \(shellQuoted(group.name))")
        case .readOnlyCredential:
            return ErrorReport(
                status: status, message: "the credential is read-only and cannot change items",
                hint: "ask the vault's owner for a grant without --read-only, or make the change with the passphrase")
        case .credentialPredatesConversion:
            return ErrorReport(
                status: status,
                message: "the credential was granted before the vault was converted to format v2: it reads, and cannot change items",
                hint: "ask the vault's owner to grant it again ('vault grant')")
        case .ownerOnly(let action):
            return ErrorReport(
                status: status, message: "a scoped credential cannot \(words(action))",
                hint: "unset VAULT_CREDENTIAL (or drop --credential) and unlock with the passphrase or key file")
        case .passcodeNotSet:
            return ErrorReport(
                status: status, message: "this class needs a passphrase and the vault has none",
                hint: "set one with 'vault passwd --new-passphrase-file FILE' first")
        }
    }

    private static let unlockHint =
        "unlock with 'eval \"$(vault unlock --export)\"', or " + CommandFailure.credentialWays
}
