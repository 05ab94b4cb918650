import FoundationEssentials
import VaultCrypto

// Walking the unlockers (`Unlocker`): the one place that decides which keys a vault is read with.
extension Vault {
    /// The keys to read the vault of `vaultID` with: the unlocker in use, else the next one that
    /// can be used without asking. Sessions are opened here, before the file is read; one that has
    /// ended is recorded as tried and passed over. Returns the opened session when the keys are one.
    func keysForReading(vaultID: [UInt8]) throws -> SessionCache.Opened? {
        while true {
            if !walk.hasChosen { walk.chooseNext(vaultID: vaultID) }
            guard case .session(let token) = walk.keys else { return nil }
            do {
                return try SessionCache.open(token: token, vaultID: vaultID, host: host)
            } catch VaultError.unlock(.sessionEnded(let end)) {
                walk.sessionEnded(end)
            }
        }
    }

    /// Whether an unlocker is left that asks for a credential.
    var canAsk: Bool { walk.left.contains(where: canBeAsked) }

    /// Whether the walk would ask `unlocker`: an asked one, but the desktop keyring's only when the
    /// vault has a desktop-keyring keyslot — known from the file read last while it is still the
    /// vault's, so a command that opens the file once reads no header for it.
    private func canBeAsked(_ unlocker: Unlocker) -> Bool {
        guard case .asked(let asked) = unlocker else { return false }
        guard asked.kind == .desktopKeyring else { return true }
        if let kept = reads.keptRead, kept.isCurrent(at: location.path) { return kept.snapshot.hasKeyslot(.desktopKeyring) }
        return Vault.hasKeyringSlot(at: location)
    }

    /// Runs `body`; when the keys at hand do not open what it needs, asks the unlockers left that
    /// ask, in order, and runs it again with the first credential given, asking again after a wrong
    /// passphrase up to the unlocker's `attempts`. When none is left, the failure lists what was tried.
    /// When what failed needed the device key and the TPM refused it, throws why (`VaultError.tpm`), not "another device".
    func withKeys<R>(_ body: () throws -> R) throws -> R {
        do {
            return try withKeysAsking(body)
        } catch let error as VaultError {
            guard let refusal = reads.deviceKeyRefusal else { throw error }
            switch error {
            case .keys(.boundToAnotherDevice):
                throw VaultError.tpm(refusal)
            case .unlock(.locked(let accessibility, _)) where accessibility.map({ $0.isDeviceBound || $0.opensWithoutUnlock }) ?? true:
                // Without the device key nothing opens without an unlock (`always` keys are sealed under it).
                throw VaultError.tpm(refusal)
            default:
                throw error
            }
        }
    }

    /// `withKeys` without turning a failure into the TPM's refusal: for what needs the master key
    /// first and says itself what the refusal means (`device-key`).
    func withKeysAsking<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as VaultError {
            // A failure that lists what was tried comes from a walk already made (an inner `withKeys`).
            guard case .unlock(.locked(let needed, let tried)) = error, tried.isEmpty else {
                guard case .unlock(.sessionEnded) = error, canAsk else { throw error }
                return try askingUnlockers(body, failure: error, inUse: nil)
            }
            let inUse = UnlockAttempt(walk.kindInUse, .notEnough)
            return try askingUnlockers(body, failure: .locked(needed), inUse: inUse)
        }
    }

    /// Asks the unlockers left; when none gives what is needed, throws `failure`, a locked one listing
    /// what was tried: those passed over before, `inUse` (the keys that did not open it), those asked.
    private func askingUnlockers<R>(_ body: () throws -> R, failure: VaultError, inUse: UnlockAttempt?) throws -> R {
        let passedOver = walk.tried
        while let unlocker = walk.takeNext() {
            switch unlocker {
            case .unavailable(let kind, let reason):
                walk.record(UnlockAttempt(kind, .unavailable(reason)))
            case .asked where !canBeAsked(unlocker):
                continue
            case .asked(let asked):
                for attempt in 1... {
                    let secret: UnlockSecret
                    do {
                        secret = try asked.ask()
                    } catch let unavailable as UnlockerUnavailable {
                        walk.record(UnlockAttempt(asked.kind, .unavailable(unavailable.reason)))
                        break
                    }
                    walk.use(.credential(secret))
                    do {
                        return try body()
                    } catch VaultError.unlock(.wrongCredential(.passphrase)) where attempt < asked.attempts {
                        continue
                    }
                }
            default:
                continue
            }
        }
        guard case .unlock(.locked(let needed, _)) = failure else { throw failure }
        throw VaultError.locked(needed, tried: passedOver + [inUse].compactMap { $0 } + walk.tried[passedOver.count...])
    }
}
