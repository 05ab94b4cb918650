import FoundationEssentials
import VaultCrypto

// Walking the unlockers (`Unlocker`): the one place that decides which keys a vault is read with.
// `hasKeyringSlot` tells whether the vault has a desktop-keyring keyslot (the walk asks the desktop
// keyring only then); `deviceKeyRefusal` why the TPM refused this machine's device key on the last read.
extension UnlockWalk {
    /// The keys to read the vault of `vaultID` with: the unlocker in use, else the next one that
    /// can be used without asking. Sessions are opened here, before the file is read; one that has
    /// ended is recorded as tried and passed over. Returns the opened session when the keys are one.
    func keysForReading(vaultID: [UInt8], host: HostContext) throws -> SessionCache.Opened? {
        while true {
            if !hasChosen { chooseNext(vaultID: vaultID) }
            guard case .session(let token) = keys else { return nil }
            do {
                return try SessionCache.open(token: token, vaultID: vaultID, host: host)
            } catch VaultError.unlock(.sessionEnded(let end)) {
                sessionEnded(end)
            }
        }
    }

    /// Whether an unlocker is left that asks for a credential.
    func canAsk(hasKeyringSlot: () -> Bool) -> Bool { left.contains { canBeAsked($0, hasKeyringSlot: hasKeyringSlot) } }

    /// Whether the walk would ask `unlocker`: an asked one, but the desktop keyring's only when the
    /// vault has a desktop-keyring keyslot.
    private func canBeAsked(_ unlocker: Unlocker, hasKeyringSlot: () -> Bool) -> Bool {
        guard case .asked(let asked) = unlocker else { return false }
        guard asked.kind == .desktopKeyring else { return true }
        return hasKeyringSlot()
    }

    /// Runs `body`; when the keys at hand do not open what it needs, asks the unlockers left that
    /// ask, in order, and runs it again with the first credential given, asking again after a wrong
    /// passphrase up to the unlocker's `attempts`. When none is left, the failure lists what was tried.
    /// When what failed needed the device key and the TPM refused it, throws why (`VaultError.tpm`), not "another device".
    func withKeys<R>(hasKeyringSlot: () -> Bool, deviceKeyRefusal: () -> TPMFailure?, _ body: () throws -> R) throws -> R {
        do {
            return try withKeysAsking(hasKeyringSlot: hasKeyringSlot, body)
        } catch let error as VaultError {
            guard let refusal = deviceKeyRefusal() else { throw error }
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
    func withKeysAsking<R>(hasKeyringSlot: () -> Bool, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as VaultError {
            // A failure that lists what was tried comes from a walk already made (an inner `withKeys`).
            guard case .unlock(.locked(let needed, let tried)) = error, tried.isEmpty else {
                guard case .unlock(.sessionEnded) = error, canAsk(hasKeyringSlot: hasKeyringSlot) else { throw error }
                return try askingUnlockers(body, failure: error, inUse: nil, hasKeyringSlot: hasKeyringSlot)
            }
            let inUse = UnlockAttempt(kindInUse, .notEnough)
            return try askingUnlockers(body, failure: .locked(needed), inUse: inUse, hasKeyringSlot: hasKeyringSlot)
        }
    }

    /// Asks the unlockers left; when none gives what is needed, throws `failure`, a locked one listing
    /// what was tried: those passed over before, `inUse` (the keys that did not open it), those asked.
    private func askingUnlockers<R>(
        _ body: () throws -> R, failure: VaultError, inUse: UnlockAttempt?,
        hasKeyringSlot: () -> Bool
    ) throws -> R {
        let passedOver = tried
        while let unlocker = takeNext() {
            switch unlocker {
            case .unavailable(let kind, let reason):
                record(UnlockAttempt(kind, .unavailable(reason)))
            case .asked where !canBeAsked(unlocker, hasKeyringSlot: hasKeyringSlot):
                continue
            case .asked(let asked):
                for attempt in 1... {
                    let secret: UnlockSecret
                    do {
                        secret = try asked.ask()
                    } catch let unavailable as UnlockerUnavailable {
                        record(UnlockAttempt(asked.kind, .unavailable(unavailable.reason)))
                        break
                    }
                    use(.credential(secret))
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
        throw VaultError.locked(needed, tried: passedOver + [inUse].compactMap { $0 } + tried[passedOver.count...])
    }
}
