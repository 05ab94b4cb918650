import FoundationEssentials

/// One way to unlock a vault. A `Vault` is given them as an ordered list, cheap ones first, and
/// walks it once, as age's `Decrypt` tries its identities: sessions that have ended and a login
/// keyring that keeps none are passed over before the file is read; the first other one gives the
/// keys; what is asked for (`asked`) is asked only when those keys do not open what is needed.
/// What was passed over is kept (`UnlockAttempt`) and named when nothing opened it.
public enum Unlocker {
    /// The session of a token (`vault unlock`); passed over when it has ended.
    case session(token: String)
    /// The session this login's kernel keyring keeps for the vault; passed over when there is none,
    /// and dropped from the keyring when it has ended.
    case loginKeyring
    /// A passphrase or key file: the master key, from a keyslot. A wrong one is an error, not passed over.
    case credential(UnlockSecret)
    /// A scoped credential (`vault grant`): its groups' items and nothing else.
    case scoped(ScopedCredential)
    /// Age identities: what the member slot sealed to one of them holds.
    case identity([AgeIdentity])
    /// No unlock: what this device's key opens (`always` items) and, after a first unlock since
    /// boot, the after-first-unlock cache. Also what a list that runs out leaves.
    case deviceKey
    /// Asked for only when what came before does not open what is needed.
    case asked(AskedUnlocker)
    /// One that cannot be had here, for a reason the caller gives (a prompt where none may be shown):
    /// named among what was tried, never used.
    case unavailable(UnlockerKind, reason: String)

    var isAsked: Bool {
        if case .asked = self { return true }
        return false
    }
}

/// A credential asked for when needed: a desktop keyring's key, a typed passphrase.
public struct AskedUnlocker {
    /// What is asked, as a failure names it.
    public var kind: UnlockerKind
    /// How many times `ask` may be called when it gives a wrong passphrase (sudo and ssh allow three).
    public var attempts: Int
    /// Gives the credential, or throws `UnlockerUnavailable` to pass on to the next unlocker.
    public var ask: () throws -> UnlockSecret

    /// An unlocker of `kind` that `ask` gives the credential of, `attempts` times at most.
    public init(_ kind: UnlockerKind, attempts: Int = 1, ask: @escaping () throws -> UnlockSecret) {
        self.kind = kind
        self.attempts = attempts
        self.ask = ask
    }
}

/// Thrown by an `AskedUnlocker` that cannot give a credential: the walk records why and goes on.
public struct UnlockerUnavailable: Error {
    /// Why, in the caller's words.
    public var reason: String

    /// Says why, in the caller's words.
    public init(reason: String) {
        self.reason = reason
    }
}

/// The kinds of unlocker, as a failure names what it tried.
public enum UnlockerKind: Equatable, Sendable {
    /// A session token's session.
    case session
    /// The session the login's kernel keyring keeps.
    case loginKeyring
    /// A key file.
    case keyFile
    /// A passphrase file.
    case passphraseFile
    /// The desktop keyring's key for a desktop-keyring keyslot.
    case desktopKeyring
    /// A scoped credential.
    case scopedCredential
    /// Age identities.
    case identity
    /// No unlock: this device's key and the after-first-unlock cache.
    case deviceKey
    /// A typed passphrase.
    case prompt
}

/// An unlocker that was tried and did not open what was needed, and why.
public struct UnlockAttempt: Equatable, Sendable {
    /// Why an unlocker did not open what was needed.
    package enum Outcome: Equatable, Sendable {
        /// There was nothing there (no session kept in the login's keyring).
        case absent
        /// A session that has ended, and how.
        case ended(SessionEnd)
        /// It opened the vault, but not what was needed.
        case notEnough
        /// It could not be had here; the caller's reason.
        case unavailable(String)
    }

    /// The unlocker tried.
    package var unlocker: UnlockerKind
    /// Why it did not open what was needed.
    package var outcome: Outcome

    /// The unlocker `unlocker` did not open what was needed, for `outcome`.
    package init(_ unlocker: UnlockerKind, _ outcome: Outcome) {
        self.unlocker = unlocker
        self.outcome = outcome
    }
}

extension KeySource {
    /// The kind of unlocker these keys came from, as a failure names it.
    var unlockerKind: UnlockerKind {
        switch self {
        case .credential(let secret):
            switch secret.kind {
            case .passphrase: return .passphraseFile
            case .keyFile: return .keyFile
            case .desktopKeyring: return .desktopKeyring
            }
        case .session: return .session
        case .scoped: return .scopedCredential
        case .identity: return .identity
        case .none: return .deviceKey
        }
    }

    /// The unlocker that gives these keys.
    var unlocker: Unlocker {
        switch self {
        case .credential(let secret): return .credential(secret)
        case .session(let token): return .session(token: token)
        case .scoped(let credential): return .scoped(credential)
        case .identity(let identities): return .identity(identities)
        case .none: return .deviceKey
        }
    }
}
