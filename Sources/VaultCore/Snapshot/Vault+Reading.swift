import FoundationEssentials
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

// Reading the file into a snapshot with the keys at hand, and what a read records of its counters
// (docs/FORMAT.md, "Counters and rollback").
extension Vault {
    /// Runs `body`; when the keys at hand do not suffice and there is a way to
    /// ask, asks for a credential and runs it again with that, asking again
    /// after a wrong passphrase up to `askAttempts` times. When what failed needed the
    /// device key and the TPM refused it, throws why (`VaultError.tpm`), not "another device".
    func withKeys<R>(_ body: () throws -> R) throws -> R {
        do {
            return try withKeysAsking(body)
        } catch let error as VaultError {
            guard let refusal = deviceKeyRefusal else { throw error }
            switch error {
            case .boundToAnotherDevice:
                throw VaultError.tpm(refusal)
            case .locked(let accessibility) where accessibility.map({ $0.isDeviceBound || $0.opensWithoutUnlock }) ?? true:
                // Without the device key nothing opens without an unlock (`always` keys are sealed under it).
                throw VaultError.tpm(refusal)
            default:
                throw error
            }
        }
    }

    private func withKeysAsking<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as VaultError {
            switch error {
            case .locked, .sessionEnded:
                guard let ask else { throw endedSession ?? error }
                self.ask = nil
                for attempt in 1... {
                    source = .credential(try ask())
                    do {
                        return try body()
                    } catch VaultError.wrongCredential(.passphrase) where attempt < askAttempts {
                        continue
                    }
                }
                preconditionFailure("the attempts above return or throw")
            default:
                throw error
            }
        }
    }

    /// The vault file read and opened with the keys at hand, its counters checked against this
    /// machine's. `requested` is `.lookupsOnly` only for a read that looks up by service and account;
    /// a write checks every bucket whatever it asks.
    func readSnapshot(writing: Bool = false, checking requested: IndexCheck = .everyBucket) throws -> OpenVault {
        // Only a read that looks items up and changes nothing checks less than every bucket.
        let indexCheck: IndexCheck = writing ? .everyBucket : requested
        // What this machine has seen is read before the file: a writer records its counters only
        // after its file is in place, so a reader racing it can never see them above the file it reads.
        let seenBefore = VaultFile.peekVaultID(FileSystem.readPrefix(location.path, count: VaultFile.magic.count + 2 + VaultFile.idSize))
        let seen = seenBefore.isEmpty ? nil : try SeenCounters.load(vaultID: seenBefore, host: host)
        if case .none = source, lookInLoginKeyring, let kept = LoginKeyring.find(vaultID: seenBefore) {
            source = .session(kept.token)
            loginKeyringSession = kept
        }
        let bytes = try readFile()
        let vaultID = VaultFile.peekVaultID(bytes)
        let vault: OpenVault
        deviceKeyRefusal = nil
        let deviceKey = { [self] in try deviceKeyForReading(bytes, vaultID: vaultID) }
        switch source {
        case .credential(let secret):
            vault = try OpenVault.unlock(bytes, secret: secret, deviceKey: try deviceKey(), path: location.path, checking: indexCheck)
            refreshMachineGrants(vault, onlyIfMissing: true)
        case .session(let token):
            do {
                let session = try SessionCache.open(token: token, vaultID: vaultID, host: host)
                do {
                    // A session that holds the device key spares the TPM its round trip.
                    vault = try OpenVault.open(bytes, masterKey: session.masterKey, deviceKey: try session.deviceKey ?? deviceKey(),
                                               path: location.path,
                                               checking: indexCheck)
                    if let kept = loginKeyringSession { try? LoginKeyring.keepAlive(kept, timeout: session.timeout) }
                } catch VaultError.corrupted(_, let detail) where detail.isHeaderMACMismatch
                            && VaultFile.peekKeyEpoch(bytes).map({ $0 > session.keyEpoch }) == true {
                    // The vault was re-keyed after the session started: its key is not the vault's any more.
                    throw VaultError.sessionEnded(.rekeyed)
                }
            } catch let error as VaultError {
                guard case .sessionEnded(let end) = error else { throw error }
                // The login's key names a session that has ended: drop it.
                if let kept = loginKeyringSession { LoginKeyring.remove(kept) }
                // A header that fails under the session's key at a higher epoch is a re-key, or a forgery made to look like
                // one: never fall back to the read-MAC trust of what opens without an unlock then.
                if end == .rekeyed { throw error }
                if loginKeyringSession != nil {
                    // Read as if the login had kept no session.
                    loginKeyringSession = nil
                    lookInLoginKeyring = false
                } else {
                    // An ended session still leaves what opens with no unlock; say why only if that is not enough.
                    endedSession = error
                }
                source = .none
                return try readSnapshot(writing: writing, checking: indexCheck)
            }
        case .scoped(let credential):
            if credential.hasExpired(at: host.now()), let expires = credential.expires { throw VaultError.credentialExpired(expires) }
            vault = try OpenVault.open(bytes, credential: credential, deviceKey: try deviceKey(), path: location.path, checking: indexCheck)
        case .identity(let identities):
            vault = try OpenVault.open(bytes, identities: identities, deviceKey: try deviceKey(), path: location.path, checking: indexCheck)
        case .none:
            let deviceKey = try deviceKey()
            let grants = (DeviceGrants.read(vaultID: vaultID, deviceKey: deviceKey, host: host) ?? [])
                + (AfterFirstUnlockCache.read(vaultID: vaultID, deviceKey: deviceKey, host: host) ?? [])
            vault = try OpenVault.openPartial(bytes, deviceKey: deviceKey, grants: grants, path: location.path, checking: indexCheck)
        }
        // A write while the TPM refuses the device key could drop the items bound to it (a re-key does).
        if writing, let refusal = deviceKeyRefusal { throw VaultError.tpm(refusal) }
        try checkTrust(of: vault)
        try checkCounters(of: vault, writing: writing,
                          seen: seen.flatMap { seenBefore == vault.file.vaultID ? $0 : nil } ?? SeenCounters.load(vaultID: vault.file.vaultID, host: host))
        return vault
    }

    /// An identity reads only a vault whose header is signed by the key of the pinned trust
    /// fingerprint (`trustedFingerprint`): anyone who can write the file can seal a member slot to
    /// a public recipient. Every other unlock is a symmetric secret no one can seal a vault to
    /// without holding it, so it needs no pin (docs/TEAMS.md, "Trust").
    func checkTrust(of vault: OpenVault, path: String? = nil) throws {
        guard case .identity = source else { return }
        guard let pinned = trustedFingerprint else { throw VaultError.trustNotPinned(path: path ?? location.path) }
        guard vault.headerIsSigned(byFingerprint: pinned) else { throw VaultError.untrustedVault(path: path ?? location.path, pinned: pinned) }
    }

    /// This machine's device key for the vault in `bytes`: its own, or one a
    /// crash left pending after the vault was sealed under it, or (read only,
    /// until the owner's next change moves the vault off it) a key an earlier
    /// version left beside the vault in a git work tree.
    func deviceKeyForReading(_ bytes: FileBytes, vaultID: [UInt8]) throws -> SecretBytes? {
        usesExposedDeviceKey = false
        // A new key left pending by a crash after the vault was sealed under it (rekey, a move off an exposed key) wins.
        if let key = try DeviceKey.resumePending(vaultID: vaultID, host: host, isTheVaults: { OpenVault.isDeviceKey($0, of: bytes) }) {
            return key
        }
        do {
            if let key = try DeviceKey.load(vaultID: vaultID, location: location, host: host) { return key }
        } catch VaultError.tpm(let refusal) {
            // Items of the other classes still open; the device-bound ones say why they do not.
            deviceKeyRefusal = refusal
            return nil
        }
        guard let exposed = try DeviceKey.exposedLegacyKey(vaultID: vaultID, location: location, host: host) else { return nil }
        usesExposedDeviceKey = true
        if !toldOfExposedDeviceKey {
            toldOfExposedDeviceKey = true
            onNotice?(.deviceKeyExposed(path: location.legacyDeviceKeyPath))
        }
        return exposed
    }

    /// The vault file's bytes: refused when others may change it or its directory.
    func readFile() throws -> FileBytes {
        try FileSystem.readVaultFile(location.path, directory: location.directory, missing: .noSuchVault(path: location.path))
    }

    /// Records as seen what a write key vouched for of `vault`'s counters: the header's and every
    /// checked group's with the header MAC; a group's generation alone with its index MAC, and
    /// only at the key epoch already remembered. A reader's key (RMK) can forge a read MAC, and
    /// counters it raised would lock the owner out of the real file: it records nothing.
    /// `known`, when given, is what was read of the record before the file: a read that adds
    /// nothing to it (most reads) takes no lock and reads the record no second time.
    /// `writtenCopy`, for a write, is recorded as the copy written last; the one recorded before is returned.
    @discardableResult
    func rememberCounters(of vault: OpenVault, known: SeenCounters? = nil, writtenCopy: String? = nil) -> String? {
        let groups = vault.groupsVerifiedByWriteKey
        let source = source
        var before: String?
        let counted = { (seen: SeenCounters) -> SeenCounters in
            if vault.keys.headerMACKey != nil { return seen.merging(vault.file, groups: groups) }
            // An identity's read checked the trust statement (`checkTrust`), which only the trust key signs:
            // its key epoch can be remembered. Nothing else of a header without its MAC can.
            if case .identity = source, vault.file.keyEpoch > seen.keyEpoch { return SeenCounters(keyEpoch: vault.file.keyEpoch) }
            guard vault.file.keyEpoch == seen.keyEpoch, !groups.isEmpty else { return seen }
            return seen.merging(groupGenerationsOf: vault.file, groups: groups)
        }
        let change = { (seen: SeenCounters) -> SeenCounters in
            before = seen.writtenCopy
            var next = counted(seen)
            next.writtenCopy = writtenCopy ?? next.writtenCopy
            return next
        }
        if let known, change(known) == known { return known.writtenCopy }
        SeenCounters.update(vaultID: vault.file.vaultID, host: host, change)
        return before
    }

    /// Records `vault`'s counters as seen, lower ones included: a restore accepted on purpose.
    func rememberAcceptedRestore(of vault: OpenVault) {
        guard vault.file.version >= 2 else { return }
        SeenCounters.update(vaultID: vault.file.vaultID, host: host) { _ in SeenCounters(of: vault.file, groups: vault.groupsVerifiedByWriteKey) }
    }

    /// Refuses a file whose key epoch is below what this machine has seen or the pinned minimum
    /// (unless `acceptRollback`, which records it as seen); on a write, also one behind in a
    /// generation (a read only warns: git checkouts that are behind are normal). Then records
    /// what was seen, when a key checked the counters.
    func checkCounters(of vault: OpenVault, writing: Bool, seen: SeenCounters) throws {
        let file = vault.file
        // A v1 file has no counters: as old as can be, once this machine has seen the vault in v2.
        let floor = max(seen.keyEpoch, minimumEpoch ?? 0)
        // A file at the epoch a write in flight raised from is still the vault's (the write may have failed or crashed).
        let inFlight = file.keyEpoch == seen.previousEpoch && file.keyEpoch >= minimumEpoch ?? 0
        if file.keyEpoch < floor, !inFlight {
            guard acceptRollback else { throw VaultError.rolledBack(path: location.path, found: file.keyEpoch, expected: floor) }
            onNotice?(.rollbackAccepted(epoch: file.keyEpoch, expected: floor))
            rememberAcceptedRestore(of: vault)
            return
        }
        guard file.version >= 2 else { return }
        if case .behind(let found, let seenGeneration) = seen.judge(file) {
            if writing, !acceptRollback { throw VaultError.behindSeen(path: location.path, found: found, seen: seenGeneration) }
            onNotice?(.behindSeen(found: found, seen: seenGeneration))
            if acceptRollback {
                rememberAcceptedRestore(of: vault)
                return
            }
        }
        rememberCounters(of: vault, known: seen)
    }
}
