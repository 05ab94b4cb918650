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
        try checkScope(query.group)
        return try withKeys { try Conflicts.otherVersion(matching: query, conflict: number, in: try readSnapshot()) }
    }

    /// Whether the team log of the vault file `bytes` holds the whole log of each of `parents` (the
    /// files it was merged from): read from the logs' clear parts, so no key is needed. A file
    /// without a log (format v1 or v2) holds none; a parent without one is held by any.
    package static func teamLogHolds(_ bytes: [UInt8], logsOf parents: [[UInt8]]) -> Bool {
        guard let log = try? VaultFile.decode(FileBytes(bytes)).file.teamLog else {
            return parents.allSatisfy { (try? VaultFile.decode(FileBytes($0)).file.teamLog) == nil }
        }
        return parents.allSatisfy { parent in
            guard let parentLog = try? VaultFile.decode(FileBytes(parent)).file.teamLog else { return true }
            return log.descends(from: parentLog)
        }
    }

    /// The attributes of the one item that matches `query` and its earlier secrets, newest first
    /// (revision 1 is the secret it held just before the current one). An expired item's history
    /// is listed; reading one of its secrets (`get --revision`) is refused as for the current one.
    public func history(matching query: Query) throws -> (attributes: ItemAttributes, revisions: [SecretRevision]) {
        try checkScope(query.group)
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
        try withKeys {
            let vault = try readSnapshot()
            let allowed = vault.file.teamLog?.allowedEnvNames() ?? [:]
            if allowed.isEmpty { return [:] }
            guard let pinned = configuration.trustedFingerprint else { return nil }
            guard vault.headerIsSigned(byFingerprint: pinned) else { throw VaultError.untrustedVault(path: location.path, pinned: pinned) }
            var byGroup: [AccessGroup: AllowedEnvNames] = [:]
            for (id, names) in allowed {
                guard let group = vault.keys.groups[id]?.group, vault.scope?.contains(id) ?? true else { continue }
                byGroup[group] = names
            }
            return byGroup
        }
    }

    /// Every item matching `query`, with its secret, in index order, telling `progress` of each.
    /// Throws `noSuchGroup` for a group the file lacks and `itemExpired` for an expired item, as
    /// `item(matching:)` does.
    public func items(matching query: Query) throws -> [Item] {
        try checkScope(query.group)
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
        for query in queries { try checkScope(query.group) }
        let lookupsOnly = queries.allSatisfy { $0.indexCheck == .lookupsOnly }
        return try withKeys {
            let vault = try readSnapshot(checking: lookupsOnly ? .lookupsOnly : .everyBucket)
            return try queries.map { query in try VaultError.result { try openItem(matching: query, in: vault) } }
        }
    }

    /// The trashed items that match `query` (oldest deletion last), of the groups the keys at hand
    /// open, and how many trashed items those keys cannot open (locked or bound to another device).
    package func trash(matching query: Query) throws -> (items: [TrashedItem], locked: Int) {
        try checkScope(query.group)
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

    /// The groups `vault` opens (within a scoped credential's groups), sorted by name, and how many it
    /// does not; with a way to ask, asks for a credential rather than leave groups out.
    private func heldGroups(of vault: some OpenVault) throws -> (groups: [(id: GroupID, group: AccessGroup)], unopened: Int) {
        let held = vault.file.groups.compactMap { entry -> (id: GroupID, group: AccessGroup)? in
            guard let group = vault.keys.groups[entry.groupID]?.group, vault.scope?.contains(entry.groupID) ?? true else { return nil }
            return (entry.groupID, group)
        }
        let unopened = vault.scope == nil ? vault.file.groups.count - held.count : 0
        if unopened > 0, canAsk { throw VaultError.locked(nil) }
        return (held.sorted { $0.group.name < $1.group.name }, unopened)
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
                guard try readSnapshot().keys.masterKey != nil else { throw VaultError.locked(nil) }
                return true
            }
        }
    }

    /// Refuses, before git starts a merge vault could not finish, keys that cannot merge: a scoped
    /// credential's or scoped member's (`ownerOnly(.mergeVault)`, `scopedMemberCannot`); with no
    /// keys yet, the unlockers are asked as for any read.
    package func requireKeysThatMerge() throws {
        try requireOwner(.mergeVault)
        try withKeys {
            guard try readSnapshot().keys.fullKeys != nil else { throw VaultError.locked(nil) }
        }
    }

    /// The members, by name. The owner (or a full member) only: the roster is sealed under the wrap key.
    public func members() throws -> [MemberSummary] {
        try requireOwner(.listMembers)
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
        try requireOwner(.printTrustFingerprint)
        return try withKeys {
            let vault = try readSnapshot()
            guard vault.keys.headerMACKey != nil else { throw VaultError.locked(nil) }
            guard vault.file.version >= 2 else { throw VaultError.upgradeNeeded(path: location.path, byOwner: true) }
            return Snapshot.trustFingerprint(of: vault.file.trustPublicKey)
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
        return VaultFileSummary(parsed.file, opened: try? openWithoutRecording(fileBytes, label: label))
    }

    /// Whether the team log says a member of this name or recipient was removed earlier. The owner's
    /// read (the log is sealed under the wrap key); a file without a team log (v2) says no.
    func wasRemovedEarlier(name: String, recipient: AgeRecipient) throws -> Bool {
        try withKeys {
            let vault = try readSnapshot()
            guard vault.file.hasTeamLog else { return false }
            return try vault.openedTeamLog().changes().contains { change in
                guard case .memberRemoved(let removedName, let removedRecipient) = change else { return false }
                return removedName == name || removedRecipient == recipient
            }
        }
    }

    /// Writes the items `exportableItems(matching:where:)` chooses to a new bundle file (0600) at
    /// `path`, sealed under `credential`: a passphrase or key file of the bundle's own.
    package func export(to path: String, matching query: Query = Query(), where include: (ItemAttributes) -> Bool = { _ in true },
                       credential: UnlockSecret, kdf: Scrypt.Parameters = .interactive) throws -> ExportOutcome {
        let (bundle, outcome) = try sealedBundle(matching: query, where: include, credential: credential, kdf: kdf)
        try FileSystem.createExclusive(bundle, at: path)
        return outcome
    }

    /// The bytes of a bundle `export(to:)` would write, for a caller that sends them elsewhere (stdout).
    package func sealedBundle(matching query: Query = Query(), where include: (ItemAttributes) -> Bool = { _ in true },
                             credential: UnlockSecret, kdf: Scrypt.Parameters = .interactive) throws -> (bundle: [UInt8], outcome: ExportOutcome) {
        let (items, outcome) = try exportableItems(matching: query, where: include)
        return (try ExportBundle.seal(items, credential: credential, kdf: kdf), outcome)
    }

    /// The items an export writes, with their secrets, in index order: those that match `query` and
    /// `include`, except the `-this-device-only` ones, whose keys never leave this machine, and
    /// records that are damaged (both counted in the outcome). Needs the owner's or a full member's keys.
    package func exportableItems(matching query: Query = Query(),
                                where include: (ItemAttributes) -> Bool = { _ in true }) throws -> (items: [Item], outcome: ExportOutcome) {
        try requireOwner(.exportItems)
        return try withKeys {
            try Transfer.exportable(matching: query, where: include, in: try readSnapshot(), progress: configuration.progress)
        }
    }

    /// Every grant the ledger records, oldest first (docs/FORMAT.md, "Grant ledger"). The owner's or
    /// a full member's: the ledger is sealed under the group keys (`ownerOnly` or
    /// `scopedMemberCannot` otherwise).
    package func grants() throws -> [GrantEntry] {
        try requireOwner(.listGrants)
        return try withKeys {
            try readSnapshot().grantLedger().map(GrantEntry.init)
        }
    }
}
