import VaultCore

/// What a failure to unlock says it tried: one line per unlocker, in the order tried, with why it did
/// not open what was needed.
enum UnlockAttemptText {
    /// The detail lines of a locked failure.
    static func lines(_ tried: [UnlockAttempt]) -> [String] {
        tried.map { "tried \(name($0.unlocker)): \(why($0))" }
    }

    private static func name(_ kind: UnlockerKind) -> String {
        switch kind {
        case .session: return "VAULT_SESSION"
        case .loginKeyring: return "the login's kernel keyring"
        case .keyFile: return "the key file"
        case .passphraseFile: return "the passphrase file"
        case .desktopKeyring: return "the desktop keyring"
        case .scopedCredential: return "the scoped credential"
        case .identity: return "the identity"
        case .deviceKey: return "this device's key"
        case .prompt: return "a passphrase prompt"
        }
    }

    private static func why(_ attempt: UnlockAttempt) -> String {
        switch attempt.outcome {
        case .absent: return attempt.unlocker == .loginKeyring ? "it keeps no session for this vault" : "there is none"
        case .ended(.expired): return "the session has expired"
        case .ended(.unknown): return "the session has ended or belongs to another vault"
        case .ended(.rekeyed): return "the vault was re-keyed after the session started"
        case .ended(.malformed): return "it does not hold a vault session token"
        case .notEnough:
            return attempt.unlocker == .deviceKey ? "it opens only items that need no unlock" : "it does not open this"
        case .unavailable(let reason): return attempt.unlocker == .prompt ? "vault may not prompt here (\(reason))" : reason
        }
    }
}
