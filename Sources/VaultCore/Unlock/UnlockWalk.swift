import FoundationEssentials

/// Where a vault stands in its ordered list of unlockers (`Unlocker`), walked once per process:
/// the keys at hand, the unlocker to try next, and what was tried. The only state of unlocking
/// that changes; `Vault` holds one and sets no keys itself (`Unlock/UnlockWalk+Asking.swift` moves it).
final class UnlockWalk {
    /// The ways to unlock, in the order tried.
    let unlockers: [Unlocker]
    /// The index in `unlockers` of the next one to try.
    private(set) var next = 0
    /// Whether `keys` hold the keys of an unlocker yet (the login's keyring waits for the vault's id).
    private(set) var hasChosen = false
    /// The keys at hand: the unlocker in use.
    private(set) var keys: KeySource = .none
    /// How many times the keys were set: a snapshot read at another count was read with other keys.
    private(set) var choice = 0
    /// The unlockers that did not open what was needed, in order.
    private(set) var tried: [UnlockAttempt] = []
    /// The session of the login's keyring the keys at hand came from, if they did: each use gives it a fresh idle timeout.
    private(set) var loginKeyringSession: LoginKeyring.Kept?
    /// The tokens of every session whose keys were at hand in this walk (a variable's, the login keyring's).
    private(set) var sessionTokens: [String] = []

    init(_ unlockers: [Unlocker]) {
        self.unlockers = unlockers
    }

    /// The unlockers not tried yet.
    var left: ArraySlice<Unlocker> { unlockers[next...] }

    /// Takes the next unlocker: the caller tries it (`use`, `record`).
    func takeNext() -> Unlocker? {
        guard next < unlockers.count else { return nil }
        defer { next += 1 }
        return unlockers[next]
    }

    /// Moves to the next unlocker usable without asking, stopping (with no unlock) before one that
    /// asks; a list that runs out leaves no unlock. Without `vaultID` (before the file is read) it
    /// stops before the login's keyring, choosing nothing.
    func chooseNext(vaultID: [UInt8]?) {
        use(.none, chosen: false)
        while let unlocker = unlockers[next...].first {
            switch unlocker {
            case .asked, .unavailable:
                hasChosen = true
                return
            case .session(let token): use(.session(token))
            case .loginKeyring:
                guard let vaultID else { return }
                guard let kept = keptLoginSession(vaultID: vaultID) else {
                    next += 1
                    continue
                }
                use(.session(kept.token), fromLoginKeyring: kept)
            case .credential(let secret): use(.credential(secret))
            case .scoped(let credential): use(.scoped(credential))
            case .identity(let identities): use(.identity(identities))
            case .deviceKey: use(.none)
            }
            next += 1
            return
        }
        hasChosen = true
    }

    /// The session this login's keyring keeps for the vault, recording its absence as tried.
    private func keptLoginSession(vaultID: [UInt8]) -> LoginKeyring.Kept? {
        do {
            let kept = try LoginKeyring.search(vaultID: vaultID)
            if kept == nil { tried.append(UnlockAttempt(.loginKeyring, .absent)) }
            return kept
        } catch {
            // No keyring to look in here (`unlock` said so once): nothing was tried.
            return nil
        }
    }

    /// Makes `keys` the keys at hand (chosen, unless `chosen` is false), from the login's keyring when `fromLoginKeyring` is given.
    func use(_ keys: KeySource, fromLoginKeyring kept: LoginKeyring.Kept? = nil, chosen: Bool = true) {
        self.keys = keys
        if case .session(let token) = keys { sessionTokens.append(token) }
        loginKeyringSession = kept
        hasChosen = chosen
        choice += 1
    }

    /// Records an unlocker that did not open what was needed.
    func record(_ attempt: UnlockAttempt) {
        tried.append(attempt)
    }

    /// The session at hand has ended: recorded as tried (and dropped from the login's keyring when
    /// it came from there), so the next `chooseNext` passes on.
    func sessionEnded(_ end: SessionEnd) {
        tried.append(UnlockAttempt(loginKeyringSession != nil ? .loginKeyring : .session, .ended(end)))
        if let kept = loginKeyringSession { LoginKeyring.remove(kept) }
        loginKeyringSession = nil
        hasChosen = false
    }

    /// What the keys at hand are, as a failure names them.
    var kindInUse: UnlockerKind { loginKeyringSession != nil ? .loginKeyring : keys.unlockerKind }
}
