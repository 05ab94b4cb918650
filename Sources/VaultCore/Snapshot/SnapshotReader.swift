import FoundationEssentials
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Reading the vault file into a snapshot with the keys at hand, and what a read records of its
/// counters (docs/FORMAT.md, "Counters and rollback"): what a `Vault` reads with, given the parts
/// of it a read needs.
struct SnapshotReader {
    let location: VaultLocation
    let host: HostContext
    let configuration: VaultConfiguration
    /// Where the walk through the unlockers stands (`Vault.walk`).
    let walk: UnlockWalk
    /// What the reads keep between them (`Vault.reads`).
    let reads: ReadState
    /// The configuration's `checkBeforeChanging`, asked of the vault before a rollback is refused.
    let checkBeforeChanging: () throws -> Void

    /// The keys at hand: the unlocker in use.
    var source: KeySource { walk.keys }

    /// What the identities at hand open: nil for a full member (every key but the trust key), else the
    /// scoped member's keys as a credential. Read from the file once, for the checks made before
    /// a read (`KeyHolder.requireReach`); every read opens the slot again from the file it reads.
    func memberKeys() throws -> ScopedCredential? {
        guard case .identity(let identities) = source else { return nil }
        if let resolvedMember = reads.resolvedMember { return resolvedMember.credential }
        let parsed = try Snapshot.parse(try readFile(), path: location.path)
        // Who the identity is, like what it reads, is taken only from a vault signed by the key it trusts.
        guard let pinned = configuration.trustedFingerprint else { throw VaultError.trustNotPinned(path: location.path) }
        guard Snapshot.isSigned(parsed.file, header: parsed.header, byFingerprint: pinned) else {
            throw VaultError.untrustedVault(path: location.path, pinned: pinned)
        }
        let (name, keys) = try Snapshot.openMemberSlot(parsed.file, identities: identities, path: location.path)
        let credential: ScopedCredential?
        switch keys {
        case .full: credential = nil
        case .scoped(let readOnly, let grants):
            credential = ScopedCredential.member(name: name, vaultID: parsed.file.vaultID, readOnly: readOnly, grants: grants)
        }
        reads.resolvedMember = (name, credential)
        return credential
    }

    /// Runs `body`, asking the unlockers left when the keys at hand do not open what it needs (`UnlockWalk.withKeys`).
    func withKeys<R>(_ body: () throws -> R) throws -> R {
        try walk.withKeys(hasKeyringSlot: hasKeyringSlot, deviceKeyRefusal: { reads.deviceKeyRefusal }, body)
    }

    /// `withKeys` without turning a failure into the TPM's refusal (`UnlockWalk.withKeysAsking`).
    func withKeysAsking<R>(_ body: () throws -> R) throws -> R {
        try walk.withKeysAsking(hasKeyringSlot: hasKeyringSlot, body)
    }

    /// Whether an unlocker is left that asks for a credential.
    var canAsk: Bool { walk.canAsk(hasKeyringSlot: hasKeyringSlot) }

    /// Whether the vault has a desktop-keyring keyslot — known from the file read last while it is
    /// still the vault's, so a command that opens the file once reads no header for it.
    private func hasKeyringSlot() -> Bool {
        if let kept = reads.keptRead, kept.isCurrent(at: location.path) { return kept.snapshot.hasKeyslot(.desktopKeyring) }
        return KeyringSlot.isPresent(at: location)
    }

    /// The vault file read and opened with the keys at hand, its counters checked against this
    /// machine's. `requested` is `.lookupsOnly` only for a read that looks up by service and account;
    /// a write checks every bucket whatever it asks. `keepingForWrite`: the read is what a write
    /// checks before it changes the vault (`add`'s group check); its snapshot is kept (`reads.keptRead`)
    /// and served, its counters checked again, to the reads and the write that follow while the
    /// file is unchanged, so the command opens and verifies the file once.
    func readSnapshot(
        writing: Bool = false, checking requested: IndexCheck = .everyBucket,
        keepingForWrite: Bool = false
    ) throws -> Snapshot {
        // Only a read that looks items up and changes nothing checks less than every bucket.
        let indexCheck: IndexCheck = writing ? .everyBucket : requested
        if let kept = reads.keptRead, kept.serves(indexCheck, choice: walk.choice),
            let vault = try snapshotServedAgain(kept, writing: writing)
        {
            return vault
        }
        reads.keptRead = nil
        // What this machine has seen is loaded before the bytes read are trusted to be the file's: a
        // writer records its counters only after its file is in place, so a file still in place once
        // they are loaded is at least as new as they are; one replaced meanwhile is read again.
        var bytes = try readFile()
        let seenBefore = VaultFile.peekVaultID(bytes)
        let seen = seenBefore.isEmpty ? nil : try SeenCounters.load(vaultID: seenBefore, host: host)
        if FileIdentity(path: location.path) != bytes.identity { bytes = try readFile() }
        let vaultID = VaultFile.peekVaultID(bytes)
        let session = try walk.keysForReading(vaultID: vaultID, host: host)
        reads.deviceKeyRefusal = nil
        // A session that holds the device key spares the TPM its round trip.
        let deviceKey = try session?.deviceKey ?? deviceKeyForReading(bytes, vaultID: vaultID)
        let vault = try openWithKeys(
            bytes, session: session, deviceKey: deviceKey, vaultID: vaultID, path: location.path, checking: indexCheck)
        // A write while the TPM refuses the device key could drop the items bound to it (a re-key does).
        if writing, let refusal = reads.deviceKeyRefusal { throw VaultError.tpm(refusal) }
        if case .credential = source { MachineGrants.refresh(from: vault, onlyIfMissing: true, host: host) }
        if let session, let kept = walk.loginKeyringSession { try? LoginKeyring.keepAlive(kept, timeout: session.timeout) }
        try checkTrust(of: vault)
        try checkCounters(
            of: vault, writing: writing,
            seen: seen.flatMap { seenBefore == vault.file.vaultID ? $0 : nil } ?? SeenCounters.load(vaultID: vault.file.vaultID, host: host)
        )
        // A write replaces the file its snapshot was read from: only a read's is kept, for the write that follows.
        if keepingForWrite, !writing {
            reads.keptRead = KeptRead(bytes: bytes, snapshot: vault, indexCheck: indexCheck, choice: walk.choice)
        }
        return vault
    }

    /// `kept` again, when the file is still the one it was read from once this machine's counters
    /// are loaded; they are checked against it as a first read's are. A write takes it for its own
    /// (a working copy of it), and it is kept no longer. Nil when the file has changed.
    private func snapshotServedAgain(_ kept: KeptRead, writing: Bool) throws -> Snapshot? {
        let seen = try SeenCounters.load(vaultID: kept.snapshot.file.vaultID, host: host)
        guard kept.isCurrent(at: location.path) else { return nil }
        if writing {
            reads.keptRead = nil
            if let refusal = reads.deviceKeyRefusal { throw VaultError.tpm(refusal) }
        }
        try checkTrust(of: kept.snapshot)
        try checkCounters(of: kept.snapshot, writing: writing, seen: seen)
        return kept.snapshot
    }

    /// The vault id of the file read last, when the path still names that file: what the writer
    /// lock's tidying needs, without opening the file again.
    var keptVaultID: [UInt8]? {
        reads.keptRead.flatMap { $0.isCurrent(at: location.path) ? $0.snapshot.file.vaultID : nil }
    }

    /// `bytes` opened with the keys at hand (`source`, and `session` when `keysForReading` opened
    /// one): the one switch over where keys come from, for reads and for the sides of a merge. A header
    /// the session's key fails on at a higher key epoch means a re-key ended the session; for a merge
    /// side, which may be older than the session, any such header does (`anyHeaderEndsSession`).
    func openWithKeys(
        _ bytes: FileBytes, session: SessionCache.Opened?, deviceKey: DeviceKey?, vaultID: [UInt8], path: String,
        checking indexCheck: IndexCheck = .everyBucket, anyHeaderEndsSession: Bool = false
    ) throws -> Snapshot {
        switch source {
        case .credential(let secret):
            return try Snapshot.unlock(bytes, secret: secret, deviceKey: deviceKey, path: path, checking: indexCheck)
        case .session:
            guard let session else { preconditionFailure("keysForReading opens the session it chooses") }
            do {
                return try Snapshot.open(bytes, masterKey: session.masterKey, deviceKey: deviceKey, path: path, checking: indexCheck)
            } catch VaultError.snapshot(.corrupted(_, let detail))
                where detail.isHeaderMACMismatch
                && (anyHeaderEndsSession || VaultFile.peekKeyEpoch(bytes).map({ $0 > session.keyEpoch }) == true)
            {
                // The vault was re-keyed after the session started: its key is not the vault's any more, and the
                // login's keyring drops it. A header that fails under the session's key at a higher epoch is a
                // re-key, or a forgery made to look like one: never fall back to what opens without an unlock then.
                if let kept = walk.loginKeyringSession, !anyHeaderEndsSession { LoginKeyring.remove(kept) }
                throw VaultError.sessionEnded(.rekeyed)
            }
        case .scoped(let credential):
            if credential.hasExpired(at: host.now()), let expires = credential.expires { throw VaultError.credentialExpired(expires) }
            return try Snapshot.open(bytes, credential: credential, deviceKey: deviceKey, path: path, checking: indexCheck)
        case .identity(let identities):
            return try Snapshot.open(bytes, identities: identities, deviceKey: deviceKey, path: path, checking: indexCheck)
        case .none:
            let grants =
                (DeviceGrants.read(vaultID: vaultID, deviceKey: deviceKey, host: host) ?? [])
                + (AfterFirstUnlockCache.read(vaultID: vaultID, deviceKey: deviceKey, host: host) ?? [])
            return try Snapshot.openPartial(bytes, deviceKey: deviceKey, grants: grants, path: path, checking: indexCheck)
        }
    }

    /// An identity reads only a vault whose header is signed by the key of the pinned trust
    /// fingerprint (`trustedFingerprint`): anyone who can write the file can seal a member slot to
    /// a public recipient. Every other unlock is a symmetric secret no one can seal a vault to
    /// without holding it, so it needs no pin (docs/TEAMS.md, "Trust").
    func checkTrust(of vault: some OpenVault, path: String? = nil) throws {
        guard case .identity = source else { return }
        guard let pinned = configuration.trustedFingerprint else { throw VaultError.trustNotPinned(path: path ?? location.path) }
        guard vault.headerIsSigned(byFingerprint: pinned) else {
            throw VaultError.untrustedVault(path: path ?? location.path, pinned: pinned)
        }
    }

    /// This machine's device key for the vault in `bytes`: its own, or one a
    /// crash left pending after the vault was sealed under it, or (read only,
    /// until the owner's next change moves the vault off it) a key an earlier
    /// version left beside the vault in a git work tree.
    func deviceKeyForReading(_ bytes: FileBytes, vaultID: [UInt8]) throws -> DeviceKey? {
        reads.usesExposedDeviceKey = false
        // A new key left pending by a crash after the vault was sealed under it (rekey, a move off an exposed key) wins.
        if let key = try DeviceKeyStore.resumePending(vaultID: vaultID, host: host, isTheVaults: { Snapshot.isDeviceKey($0, of: bytes) }) {
            return key
        }
        do {
            if let key = try DeviceKeyStore.load(
                vaultID: vaultID, location: location, host: host,
                isTheVaults: { Snapshot.isDeviceKey($0, of: bytes) })
            {
                return key
            }
        } catch VaultError.keys(.tpm(let refusal)) {
            // Items of the other classes still open; the device-bound ones say why they do not.
            reads.deviceKeyRefusal = refusal
            return nil
        }
        guard let exposed = try DeviceKeyStore.exposedLegacyKey(vaultID: vaultID, location: location, host: host) else { return nil }
        reads.usesExposedDeviceKey = true
        if !reads.toldOfExposedDeviceKey {
            reads.toldOfExposedDeviceKey = true
            configuration.onNotice?(.deviceKeyExposed(path: location.legacyDeviceKeyPath))
        }
        return exposed
    }

    /// The vault file's bytes: refused when others may change it or its directory.
    func readFile() throws -> FileBytes {
        try FileSystem.readVaultFile(location.path, directory: location.directory, missing: .noSuchVault(path: location.path))
    }

    /// The vault's id, read from the start of its file.
    func vaultID() throws -> [UInt8] {
        let id = VaultFile.peekVaultID(try readFile())
        guard !id.isEmpty else { throw VaultError.corrupted(path: location.path, detail: .violates(.fileTooShort)) }
        return id
    }

    /// Records as seen what a write key vouched for of `vault`'s counters: the header's and every
    /// checked group's with the header MAC; a group's generation alone with its index MAC, and
    /// only at the key epoch already remembered. A reader's key (RMK) can forge a read MAC, and
    /// counters it raised would lock the owner out of the real file: it records nothing.
    /// `known`, when given, is what was read of the record before the file: a read that adds
    /// nothing to it (most reads) takes no lock and reads the record no second time.
    /// `writtenCopy`, for a write, is recorded as the copy written last; the one recorded before is returned.
    @discardableResult
    func rememberCounters(of vault: some OpenVault, known: SeenCounters? = nil, writtenCopy: String? = nil) -> String? {
        let groups = vault.groupsVerifiedByWriteKey
        let source = source
        var before: String?
        let counted = { (seen: SeenCounters) -> SeenCounters in
            if vault.keys.mayWriteHeader { return seen.merging(vault.file, groups: groups) }
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
    func rememberAcceptedRestore(of vault: some OpenVault) {
        guard vault.file.version >= 2 else { return }
        SeenCounters.update(vaultID: vault.file.vaultID, host: host) { _ in
            SeenCounters(of: vault.file, groups: vault.groupsVerifiedByWriteKey)
        }
    }

    /// Refuses a file whose key epoch is below what this machine has seen or the pinned minimum
    /// (unless `acceptRollback`, which records it as seen); on a write, also one behind in a
    /// generation (a read only warns: git checkouts that are behind are normal), and a sibling of
    /// the file seen (the same counters, another write id: another clone's write from the same
    /// base; a read warns, and records nothing of it). Then records what was seen, when a key
    /// checked the counters and git holds no operation unfinished in the work tree. The sides of a
    /// merge are not checked here: merging is the way out.
    func checkCounters(of vault: some OpenVault, writing: Bool, seen: SeenCounters) throws {
        let file = vault.file
        // A v1 file has no counters: as old as can be, once this machine has seen the vault in v2.
        let floor = max(seen.keyEpoch, configuration.minimumEpoch ?? 0)
        // A file at the epoch a write in flight raised from is still the vault's (the write may have failed or crashed).
        let inFlight = file.keyEpoch == seen.previousEpoch && file.keyEpoch >= configuration.minimumEpoch ?? 0
        if file.keyEpoch < floor, !inFlight {
            guard configuration.acceptRollback else {
                // A file git put back (a revert, an old file committed) is older than this machine saw:
                // the commit that put it back, and how to drop it, is the refusal to give.
                try checkBeforeChanging()
                throw VaultError.rolledBack(path: location.path, found: file.keyEpoch, expected: floor)
            }
            configuration.onNotice?(.rollbackAccepted(epoch: file.keyEpoch, expected: floor))
            rememberAcceptedRestore(of: vault)
            return
        }
        guard file.version >= 2 else { return }
        switch seen.judge(file) {
        case .behind(let found, let seenGeneration):
            if writing, !configuration.acceptRollback {
                throw VaultError.behindSeen(path: location.path, found: found, seen: seenGeneration)
            }
            configuration.onNotice?(.behindSeen(found: found, seen: seenGeneration))
            if configuration.acceptRollback {
                rememberAcceptedRestore(of: vault)
                return
            }
        case .sibling(let found, let seenID):
            if writing, !configuration.acceptRollback { throw VaultError.siblingOfSeen(path: location.path, found: found, seen: seenID) }
            configuration.onNotice?(.siblingOfSeen(found: found, seen: seenID))
            // Its generations are another write's, not this vault's as seen here: kept only when accepted.
            if configuration.acceptRollback { rememberAcceptedRestore(of: vault) }
            return
        case .current, .olderEpoch:
            break
        }
        // While git holds a merge, rebase, cherry-pick or revert unfinished, the work tree's file is
        // provisional (a killed driver's merge, one side): what finishes the operation is the vault's.
        if GitWorkTree.unfinishedOperation(location.directory) != nil { return }
        rememberCounters(of: vault, known: seen)
    }

    /// The three files of a merge opened under the writer lock: ours (nil: the vault file at this
    /// location) and theirs with keys that open them whole (the owner's or a full member's), and
    /// their merge base when it is one of this vault (nil or empty, as git gives on add/add: none).
    func openMergeSides(
        base baseBytes: [UInt8]?, ours ourBytes: [UInt8]?, theirs theirBytes: [UInt8],
        origins: (ours: String, theirs: String)
    ) throws -> (ours: WorkingCopy, theirs: WorkingCopy, base: Snapshot?) {
        let ours = WorkingCopy(
            try openMergeInput(try ourBytes.map(FileBytes.init) ?? readFile(), knownKeys: [], as: MergeInput(.ours, origins: origins)))
        guard let ourKeys = ours.keys.fullKeys else { throw VaultError.ownerOnly(.mergeVault) }
        let theirBytes = FileBytes(theirBytes)
        guard VaultFile.peekVaultID(theirBytes) == ours.file.vaultID else { throw VaultError.mergeOfAnotherVault(path: location.path) }
        let theirs = WorkingCopy(try openMergeInput(theirBytes, knownKeys: [ourKeys], as: MergeInput(.theirs, origins: origins)))
        guard let theirKeys = theirs.keys.fullKeys else { throw VaultError.ownerOnly(.mergeVault) }
        // A base of another vault (or none: git's empty file on add/add) is no base: every difference is then a change.
        var base: Snapshot?
        if let baseBytes, !baseBytes.isEmpty, VaultFile.peekVaultID(FileBytes(baseBytes)) == ours.file.vaultID {
            base = try openMergeInput(FileBytes(baseBytes), knownKeys: [ourKeys, theirKeys], as: .base, preferringKnownKeys: true)
        }
        return (ours, theirs, base)
    }

    /// One side of a merge opened with the keys at hand, or with the full keys another side gave
    /// (unchanged keys are the same on both). What the keys at hand open is checked against the
    /// pinned trust fingerprint when they are an identity, as every read is; what the keys of a side
    /// already checked open is vouched for by their header MAC. The base tries those keys first
    /// (`preferringKnownKeys`): it is an older file, often under keys since replaced. Each side is
    /// a version of the vault file here, so it carries that path; a refusal of it names `input`.
    private func openMergeInput(
        _ bytes: FileBytes, knownKeys: [KeyRing.FullKeys], as input: MergeInput,
        preferringKnownKeys: Bool = false
    ) throws -> Snapshot {
        let path = location.path
        return try input.reading {
            let deviceKey = try deviceKeyForReading(bytes, vaultID: VaultFile.peekVaultID(bytes))
            func withKnownKey() -> Snapshot? {
                knownKeys.lazy.compactMap { try? Snapshot.open(bytes, fullKeys: $0, deviceKey: deviceKey, path: path) }.first
            }
            if preferringKnownKeys, let vault = withKnownKey() { return vault }
            do {
                let vault = try openWithKeysAtHand(bytes, deviceKey: deviceKey, path: path)
                try checkTrust(of: vault, path: path)
                return vault
            } catch let error as VaultError {
                guard !preferringKnownKeys, let vault = withKnownKey() else { throw error }
                return vault
            }
        }
    }

    /// A side opened with the keys at hand: a full member's or the owner's; the scoped ones and
    /// none at all ask for more (`withKeys`).
    private func openWithKeysAtHand(_ bytes: FileBytes, deviceKey: DeviceKey?, path: String) throws -> Snapshot {
        let vaultID = VaultFile.peekVaultID(bytes)
        let session = try walk.keysForReading(vaultID: vaultID, host: host)
        switch source {
        case .scoped, .none: throw VaultError.locked(nil)
        case .credential, .session, .identity:
            return try openWithKeys(bytes, session: session, deviceKey: deviceKey, vaultID: vaultID, path: path, anyHeaderEndsSession: true)
        }
    }

    /// `bytes` opened with the keys that open at once, or nil when there are none.
    func openWithoutRecording(_ bytes: FileBytes, label: String) throws -> Snapshot? {
        let deviceKey = DeviceKeyStore.readIfPresent(vaultID: VaultFile.peekVaultID(bytes), host: host)
        // The login's keyring is looked in once the vault's id is known, as a read does.
        if !walk.hasChosen { walk.chooseNext(vaultID: VaultFile.peekVaultID(bytes)) }
        switch source {
        case .credential(let secret) where secret.kind != .passphrase:
            return try Snapshot.unlock(bytes, secret: secret, deviceKey: deviceKey, path: label)
        case .session(let token):
            let session = try SessionCache.open(token: token, vaultID: VaultFile.peekVaultID(bytes), host: host, extendingIdleTime: false)
            return try Snapshot.open(bytes, masterKey: session.masterKey, deviceKey: deviceKey, path: label)
        case .scoped(let credential) where !credential.hasExpired(at: host.now()):
            return try Snapshot.open(bytes, credential: credential, deviceKey: deviceKey, path: label)
        case .identity(let identities):
            let vault = try Snapshot.open(bytes, identities: identities, deviceKey: deviceKey, path: label)
            try checkTrust(of: vault, path: label)
            return vault
        case .credential, .scoped, .none:
            return nil
        }
    }
}
