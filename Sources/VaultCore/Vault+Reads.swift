import FoundationEssentials
import VaultCrypto

// The façade's reads: each checks the scope, reads a snapshot with the keys at hand and asks its
// room's operation about it (`withKeys`, `readSnapshot`).
extension Vault {
    /// The bytes of a side of a merge that git gave as a file (`%O`, `%B`): a temporary file git
    /// made, so not held to the vault file's permission checks. Throws `noSuchFile` when missing.
    package static func readMergeSide(at path: String) throws -> [UInt8] {
        try FileSystem.read(path, kind: .mergeSide, requirePrivate: false)
    }

    /// Every item the keys at hand can read that a merge left in conflict, by its newest conflict.
    package func conflicts() throws -> [ConflictSummary] {
        try withKeys { try Conflicts.summaries(in: try readSnapshot()) }
    }

    /// The other version of the one item that matches `query` (`Conflicts.otherVersion`): that of
    /// its conflict number `conflict` (1 is the newest), or of its newest conflict that holds one.
    /// Throws `noConflict` when it has none (or fewer than `conflict`), and `otherSideDeleted` when
    /// the conflict asked for, or each, records a deletion.
    public func otherVersion(matching query: Query, conflict number: Int? = nil) throws -> (item: Item, conflict: ItemConflict) {
        try holder.requireReach(query.group)
        return try withKeys { try Conflicts.otherVersion(matching: query, conflict: number, in: try readSnapshot()) }
    }

    /// Whether the team log of the vault file `bytes` holds the whole log of each of `parents` (the
    /// files it was merged from): read from the logs' clear parts, so no key is needed. A file
    /// without a log (format v1 or v2) holds none; a parent without one is held by any.
    package static func teamLogHolds(_ bytes: [UInt8], logsOf parents: [[UInt8]]) -> Bool {
        TeamLog.ofFile(bytes, holdsTheLogsOf: parents)
    }

    /// The attributes of the one item that matches `query` and its earlier secrets, newest first
    /// (revision 1 is the secret it held just before the current one). An expired item's history
    /// is listed; reading one of its secrets (`get --revision`) is refused as for the current one.
    public func history(matching query: Query) throws -> (attributes: ItemAttributes, revisions: [SecretRevision]) {
        try holder.requireReach(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            let position = try vault.single(try vault.positions(matching: query), query: query)
            let opened = try vault.openWholeRecord(at: position)
            return (opened.item.attributes, opened.history)
        }
    }

    /// The names the owner allowed, for each group the keys at hand open that has some: nil when
    /// the vault's team log allows some but no trust fingerprint is pinned (`--trust`, `VAULT_TRUST`),
    /// so nothing vouches that the owner wrote them. Throws `untrustedVault` (51) when one is pinned
    /// and the vault is not signed under it.
    public func ownerAllowedEnvNames() throws -> [AccessGroup: AllowedEnvNames]? {
        try withKeys { try readSnapshot().ownerAllowedEnvNames(pinned: configuration.trustedFingerprint, path: location.path) }
    }

    /// Every item matching `query`, with its secret, in index order, telling `progress` of each.
    /// Throws `noSuchGroup` for a group the file lacks and `itemExpired` for an expired item, as
    /// `item(matching:)` does.
    public func items(matching query: Query) throws -> [Item] {
        try holder.requireReach(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            try vault.requireExisting(query.group)
            let positions = try vault.positionsToOpen(matching: query)
            return try positions.enumerated().map { done, position in
                configuration.progress?(done + 1, positions.count)
                return try openItem(at: position, in: vault)
            }
        }
    }

    /// For each query, in order, the one item it names, or the error `item(matching:)` would throw
    /// for it alone when that error concerns the query (`itemNotFound`, `ambiguous`, `noSuchGroup`).
    /// Every other error (locked, corrupted, expired, out of scope) is thrown for the lot.
    public func items(for queries: [Query]) throws -> [Result<Item, VaultError>] {
        for query in queries { try holder.requireReach(query.group) }
        let lookupsOnly = queries.allSatisfy { $0.indexCheck == .lookupsOnly }
        return try withKeys {
            let vault = try readSnapshot(checking: lookupsOnly ? .lookupsOnly : .everyBucket)
            return try queries.map { query in try VaultError.result { try openItem(matching: query, in: vault) } }
        }
    }

    /// The trashed items that match `query` (oldest deletion last), of the groups the keys at hand
    /// open, and how many trashed items those keys cannot open (locked or bound to another device).
    package func trash(matching query: Query) throws -> (items: [TrashedItem], locked: Int) {
        try holder.requireReach(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            try vault.requireExisting(query.group)
            let (records, unopened) = try vault.openTrash()
            let items = records.filter { query.matches($0.record.item.attributes) }.map {
                TrashedItem(attributes: $0.record.item.attributes, deletedAt: Date(timeIntervalSince1970: Double($0.deletedAt) / 1000))
            }
            return (items, unopened)
        }
    }

    /// The trashed items the keys at hand open, with their secrets: what a leak scan searches too
    /// (a deleted secret that leaked is still a leak).
    public func trashedSecrets() throws -> [Item] {
        try withKeys { try readSnapshot().openTrash().records.map(\.record.item) }
    }

    /// The groups the keys at hand open, by name, and how many groups they do not open.
    /// With a way to ask, asks for a credential rather than leave groups out.
    package func groups() throws -> (groups: [GroupSummary], unopened: Int) {
        try withKeys {
            let vault = try readSnapshot()
            let (held, unopened) = try heldGroups(of: vault)
            let counts = vault.file.index.entryCounts()
            return (held.map { GroupSummary(group: $0.group, itemCount: counts[$0.id] ?? 0) }, unopened)
        }
    }

    /// The names of the groups the keys at hand open, and how many they do not: `groups()` without
    /// the item counts, so the index is not read (the header and the group MACs are still checked).
    /// `beforeWriting`: the caller changes the vault next (`add`), so the file is read as a write
    /// reads it, and the write takes this reading rather than opening and verifying the file again.
    public func groupNames(beforeWriting: Bool = false) throws -> (groups: [AccessGroup], unopened: Int) {
        try withKeys {
            let vault = beforeWriting ? try readSnapshot(keepingForWrite: true) : try readSnapshot(checking: .lookupsOnly)
            let (held, unopened) = try heldGroups(of: vault)
            return (held.map(\.group), unopened)
        }
    }

    /// The groups `vault` opens (`OpenVault.heldGroups`); with a way to ask, asks for a credential rather than leave groups out.
    private func heldGroups(of vault: some OpenVault) throws -> (groups: [(id: GroupID, group: AccessGroup)], unopened: Int) {
        let held = vault.heldGroups()
        if held.unopened > 0, canAsk { throw VaultError.locked(nil) }
        return held
    }

    /// Runs `check` before a change when HEAD moved since this machine last checked this vault's
    /// history: `check` is given the commit last checked (nil: none yet) and throws when a commit
    /// since then drops team log entries of one before it (`historyDropsTeamLog`), and nothing
    /// changes. HEAD is read from git's files on every change; git runs (in `check`) only when HEAD
    /// moved. A refused HEAD is not recorded, so every change checks it again until it is fixed.
    package func requireCheckedHistory(_ check: (_ lastChecked: String?) throws -> Void) throws {
        guard let head = GitWorkTree.headCommit(of: location.directory) else { return }
        let last = lastCheckedCommit()
        guard last != head else { return }
        try check(last)
        recordCheckedCommit(head)
    }

    /// The commit of this vault's work tree this machine last found keeping the team log of every
    /// commit before it; nil when none was recorded.
    package func lastCheckedCommit() -> String? {
        CheckedHistoryRecord(location: location, host: host).read()
    }

    /// Records `commit` as checked (best effort: without the record the next check walks further back).
    package func recordCheckedCommit(_ commit: String) {
        CheckedHistoryRecord(location: location, host: host).record(commit)
    }

    /// Whether two vault files are versions of one vault (the same vault id, read in clear).
    package static func areVersionsOfOneVault(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        let id = VaultFile.peekVaultID(first)
        return !id.isEmpty && id == VaultFile.peekVaultID(second)
    }

    /// Whether the keys at hand are the owner's (a keyslot's passphrase or key file, or its session):
    /// the only keys whose sync repairs a branch that dropped team log entries. An identity's or a
    /// credential's are not; with no keys yet, the unlockers are asked as for any read.
    package func keysAreTheOwners() throws -> Bool {
        try withKeys {
            switch source {
            case .identity, .scoped: return false
            default:
                guard try readSnapshot().keys.isOwners else { throw VaultError.locked(nil) }
                return true
            }
        }
    }

    /// Refuses, before git starts a merge vault could not finish, keys that cannot merge: a scoped
    /// credential's or scoped member's (`ownerOnly(.mergeVault)`, `scopedMemberCannot`); with no
    /// keys yet, the unlockers are asked as for any read.
    package func requireKeysThatMerge() throws {
        try holder.requireUnscoped(.mergeVault)
        try withKeys {
            guard try readSnapshot().keys.fullKeys != nil else { throw VaultError.locked(nil) }
        }
    }

    /// The members, by name. The owner (or a full member) only: the roster is sealed under the wrap key.
    public func members() throws -> [MemberSummary] {
        try holder.requireUnscoped(.listMembers)
        return try withKeys {
            let vault = try readSnapshot()
            guard vault.keys.isFull else { throw VaultError.locked(nil) }
            return try vault.readMembers().map { try MemberSummary($0, in: vault) }.sorted { $0.name < $1.name }
        }
    }

    /// Whether one of `identities` opens a member slot of the vault file: the file is parsed, not
    /// trusted (no pin, no signature checked), since this only decides whether an identity nobody
    /// named is worth trying. Every read with it then checks the trust pin and the owner's signature.
    package func memberSlotOpens(with identities: [AgeIdentity]) -> Bool {
        guard let parsed = try? Snapshot.parse(try readFile(), path: location.path, checking: .lookupsOnly) else { return false }
        return (try? Snapshot.openMemberSlot(parsed.file, identities: identities, path: location.path)) != nil
    }

    /// The vault's trust fingerprint (the SHA-256 of its trust public key, in hex), read with the
    /// owner's keys, whose header MAC vouches for the key: a member cannot learn it from a file
    /// that anyone who can write it could have made, so it is given to them from here.
    package func trustFingerprint() throws -> String {
        try holder.requireUnscoped(.printTrustFingerprint)
        return try withKeys {
            let vault = try readSnapshot()
            guard vault.keys.mayWriteHeader else { throw VaultError.locked(nil) }
            guard vault.file.version >= 2 else { throw VaultError.upgradeNeeded(path: location.path, byOwner: true) }
            return vault.file.trustPublicKey.fingerprint
        }
    }

    /// Summarises `bytes`, a version of this vault's file (a blob of its git history), with the
    /// keys at hand that open at once — a session, a key file, a scoped credential, an identity
    /// whose trust is pinned — and never a passphrase (its KDF would run for every blob) or a
    /// prompt. Records nothing: no seen counters, no session use, no device key moved; the
    /// rollback guard does not apply, since an old version is what history is made of. Without
    /// keys that open it, the summary holds the ids the file shows. Throws `corrupted` only
    /// for bytes that are not a vault file.
    package func summary(ofVersion bytes: [UInt8], label: String) throws -> VaultFileSummary {
        let fileBytes = FileBytes(bytes)
        let parsed = try Snapshot.parse(fileBytes, path: label)
        return VaultFileSummary(parsed.file, opened: try? reader.openWithoutRecording(fileBytes, label: label))
    }

    /// Whether the team log says a member of this name or recipient was removed earlier. The owner's
    /// read (the log is sealed under the wrap key); a file without a team log (v2) says no.
    func wasRemovedEarlier(name: String, recipient: AgeRecipient) throws -> Bool {
        try withKeys { try readSnapshot().teamLogRemovedMember(name: name, recipient: recipient) }
    }

    /// Writes the items `exportableItems(matching:where:)` chooses to a new bundle file (0600) at
    /// `path`, sealed under `credential`: a passphrase or key file of the bundle's own.
    package func export(
        to path: String, matching query: Query = Query(), where include: (ItemAttributes) -> Bool = { _ in true },
        credential: UnlockSecret, kdf: Scrypt.Parameters = .interactive
    ) throws -> ExportOutcome {
        let (bundle, outcome) = try sealedBundle(matching: query, where: include, credential: credential, kdf: kdf)
        try FileSystem.createExclusive(bundle, at: path)
        return outcome
    }

    /// The bytes of a bundle `export(to:)` would write, for a caller that sends them elsewhere (stdout).
    package func sealedBundle(
        matching query: Query = Query(), where include: (ItemAttributes) -> Bool = { _ in true },
        credential: UnlockSecret, kdf: Scrypt.Parameters = .interactive
    ) throws -> (bundle: [UInt8], outcome: ExportOutcome) {
        let (items, outcome) = try exportableItems(matching: query, where: include)
        return (try ExportBundle.seal(items, credential: credential, kdf: kdf), outcome)
    }

    /// The items an export writes, with their secrets, in index order: those that match `query` and
    /// `include`, except the `-this-device-only` ones, whose keys never leave this machine, and
    /// records that are damaged (both counted in the outcome). Needs the owner's or a full member's keys.
    package func exportableItems(
        matching query: Query = Query(),
        where include: (ItemAttributes) -> Bool = { _ in true }
    ) throws -> (items: [Item], outcome: ExportOutcome) {
        try holder.requireUnscoped(.exportItems)
        return try withKeys {
            try Transfer.exportable(matching: query, where: include, in: try readSnapshot(), progress: configuration.progress)
        }
    }

    /// Every grant the ledger records, oldest first (docs/FORMAT.md, "Grant ledger"). The owner's or
    /// a full member's: the ledger is sealed under the group keys (`ownerOnly` or
    /// `scopedMemberCannot` otherwise).
    package func grants() throws -> [GrantEntry] {
        try holder.requireUnscoped(.listGrants)
        return try withKeys {
            try readSnapshot().grantLedger().map(GrantEntry.init)
        }
    }

    // MARK: sessions, the login's keyring, the desktop-keyring keyslot (Unlock/)

    /// The idle timeout of a session when none is given: 15 minutes.
    public static let defaultSessionTimeout = 15 * 60

    /// Unlocks the vault (asking if need be) and starts a session that ends after `timeout` seconds
    /// without use; returns its token. Also leaves the after-first-unlock cache for this boot.
    public func startSession(timeout: Int = Vault.defaultSessionTimeout) throws -> String {
        try withKeys {
            let vault = try readSnapshot()
            guard let masterKey = vault.keys.masterKey else { throw VaultError.locked(nil) }
            MachineGrants.refresh(from: vault, onlyIfMissing: false, host: host)
            return try VaultSessions.start(from: vault, masterKey: masterKey, timeout: timeout, host: host)
        }
    }

    /// Gives the live session of `token` a fresh idle timeout of `timeout` seconds, asking for
    /// nothing; false when that session has ended.
    package func extendSession(token: String, timeout: Int) throws -> Bool {
        try sessions().extend(token: token, timeout: timeout)
    }

    /// Whether the session of `token` is live: not idle past its timeout, not locked. Asks for nothing.
    package func sessionIsLive(token: String) -> Bool {
        (try? sessions())?.isLive(token: token) ?? false
    }

    /// Ends the session of `token` and (with `loginKeyring`) the one this login's keyring keeps,
    /// removing its key; with `all`, every session of this vault and the after-first-unlock cache
    /// too. Needs no unlock.
    package func lock(token: String?, all: Bool, loginKeyring: Bool = false) throws -> LockOutcome {
        try sessions().lock(token: token, all: all, loginKeyring: loginKeyring) { try deviceKeySealing.keyIfItOpens(of: readFile()).key }
    }

    /// The vault's state without unlocking it (`StatusReport`): session (of `sessionToken`, else with
    /// `loginKeyring` the one this login's keyring keeps), after-first-unlock cache, keyslots, and
    /// item counts by group and class.
    package func status(sessionToken: String?, loginKeyring: Bool = false) throws -> StatusReport {
        let bytes = try readFile()
        let file: VaultFile
        do {
            file = try VaultFile.decode(bytes).file
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: location.path, detail: error.damage)
        }
        let deviceKey = try deviceKeySealing.keyIfItOpens(of: bytes)
        return StatusReport(
            of: file, bytes: bytes, path: location.path, host: host, deviceKey: deviceKey, protection: try deviceKeyProtection(),
            memberNames: (try? memberGroupNames()) ?? [:], scoped: scopedCredential, sessionToken: sessionToken,
            loginKeyring: loginKeyring)
    }

    /// The names of the groups a member's identity opens, by id: the identity is given on this
    /// call, so naming its groups asks for nothing. Empty for other keys.
    private func memberGroupNames() throws -> [GroupID: String] {
        guard case .identity = source else { return [:] }
        return try withKeys { try readSnapshot(checking: .lookupsOnly).keys.groups.mapValues(\.group.name) }
    }

    /// This vault's sessions on this machine (`VaultSessions`).
    private func sessions() throws -> VaultSessions { VaultSessions(vaultID: try reader.vaultID(), host: host) }

    /// Keeps the session of `token` in this login's kernel keyring, for `timeout` idle seconds
    /// (replacing one kept before). Throws `LoginKeyringProblem` where the keyring cannot keep it.
    package func keepInLoginKeyring(sessionToken token: String, timeout: Int) throws {
        try LoginKeyring.keep(token: token, vaultID: try reader.vaultID(), timeout: timeout)
    }

    /// Why this login's kernel keyring could not keep a session, or nil when it could; keeps nothing.
    package static func loginKeyringProblem() -> LoginKeyringProblem? { LoginKeyring.problem() }

    /// The token of the live session this login's keyring keeps for the vault, or nil; refreshes nothing.
    package func loginKeyringToken() -> String? { (try? sessions())?.loginKeyringToken() }

    /// Gives the calling thread, and the processes it starts from now on, a new empty session
    /// keyring: they cannot possess the sessions the login's keyring keeps (`vault run`'s child).
    /// Throws `LoginKeyringProblem` when the keyring calls work but this one fails.
    package static func leaveLoginKeyring() throws { try LoginKeyring.leave() }

    /// The vault id in hex: what names this vault's key in the desktop keyring.
    package static func identifier(at location: VaultLocation) throws -> String { try KeyringSlot.vaultIdentifier(at: location) }

    /// Whether the vault has a desktop-keyring keyslot, read from the start of the file without any
    /// key (false when it cannot be read).
    package static func hasKeyringSlot(at location: VaultLocation) -> Bool { KeyringSlot.isPresent(at: location) }

    /// How this machine keeps the vault's device key.
    package func deviceKeyProtection() throws -> DeviceKeyProtection { try deviceKeySealing.protection() }

    // MARK: maintenance and exposure (Snapshot/Maintenance, Exposure/)

    /// Checks the vault without changing it: the permissions of its files, its format, the member
    /// roster and every record the keys at hand open (`Maintenance.verify`).
    public func verify() throws -> VerifyReport { try maintenance.verify() }

    /// Reads the current file and every version of `history` (oldest first) with the owner's keys
    /// (or a full member's): what each member or credential could open (`ExposureHistory.reading`).
    /// `currentCommits`: the commits whose file is the current file byte for byte.
    package func exposureHistory(_ history: some Sequence<VaultFileVersion>, currentCommits: [String]) throws -> ExposureHistory {
        try holder.requireUnscoped(.readExposure)
        return try withKeys {
            try ExposureHistory.reading(
                history, currentCommits: currentCommits, current: try readSnapshot(), source: source,
                path: location.path)
        }
    }

    /// The members some version names who are not members of the current file: those that lost access.
    package func membersWhoLostAccess(in history: ExposureHistory) -> [String] { history.membersWhoLostAccess }

    /// The live values exposed to a member that lost access, or to a credential of `grants` revoked
    /// or expired at `now`, and not accepted: what `exposure check` lists.
    package func exposureFindings(in history: ExposureHistory, accepted: [ExposureAcceptance], grants: [GrantEntry], now: Date)
        -> [ExposureFinding]
    {
        history.findings(accepted: accepted, grants: grants, now: now)
    }

    /// Where the acceptances of exposed values are kept: beside the vault file, to commit with it.
    package var exposureAcceptancesPath: String { ExposureAcceptances(of: location).path }

    /// The acceptances a trust key of this vault signed, and how many lines none did (never silent).
    package func exposureAcceptances() throws -> (accepted: [ExposureAcceptance], unverified: Int) {
        guard let text = try ExposureAcceptances(of: location).text() else { return ([], 0) }
        return try withKeys { ExposureAcceptances.verified(text, in: try readSnapshot()) }
    }
}
