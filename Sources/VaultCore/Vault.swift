import FoundationEssentials
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Told how far a long operation (verify, export, import, wipe, revoke) has
/// come: items done of the total.
public typealias ProgressHandler = (_ done: Int, _ total: Int) -> Void

/// Where a `Vault` gets its keys.
public enum KeySource: Sendable {
    /// A passphrase or key file: the master key, from a keyslot.
    case credential(UnlockSecret)
    /// An unlock session's token (`vault unlock`).
    case session(String)
    /// A scoped credential (`vault grant`): its groups' items and nothing else.
    case scoped(ScopedCredential)
    /// Age identities (`--identity`, `VAULT_IDENTITY`): what the member slot sealed to one of them
    /// holds, the master key (a full member) or some groups' keys (a scoped one).
    case identity([AgeIdentity])
    /// No unlock: what this device's key opens (`always` items) and, after a
    /// first unlock since boot, the after-first-unlock cache.
    case none
}

/// A vault file and the keys to open it: the SecItem-style API (add,
/// copy-matching, update, delete), unlock sessions and status. Reads work on a
/// snapshot; every change takes the sidecar lock, re-reads the file, applies
/// the change and replaces the file atomically, so parallel writers lose no update.
public final class Vault: ItemStore {
    /// Where the vault file is.
    public let location: VaultLocation
    private(set) var source: KeySource
    /// Asked for a credential when the keys at hand do not open what is needed.
    private var ask: (() throws -> UnlockSecret)?
    /// How many times `ask` may be called when it gives a wrong passphrase.
    private let askAttempts: Int
    /// Whether the keys are a scoped credential's.
    public var isScoped: Bool { scopedCredential != nil }

    /// Called as verify, export, import, wipe and revoke work through the items.
    public var progress: ProgressHandler?

    /// The scoped credential the vault is opened with, if any.
    /// For an identity, the keys of the scoped member whose slot it opens (nil for a full member).
    public var scopedCredential: ScopedCredential? {
        switch source {
        case .scoped(let credential): return credential
        case .identity: return try? memberKeys()
        default: return nil
        }
    }

    /// What the identities at hand open: nil for a full member (every key but the trust key), else the
    /// scoped member's keys as a credential. Read from the file once, for the checks made before
    /// a read (`checkScope`); every read opens the slot again from the file it reads.
    func memberKeys() throws -> ScopedCredential? {
        guard case .identity(let identities) = source else { return nil }
        if let resolvedMember { return resolvedMember.credential }
        let parsed = try OpenVault.parse(try readFile(), path: location.path)
        // Who the identity is, like what it reads, is taken only from a vault signed by the key it trusts.
        guard let pinned = trustedFingerprint else { throw VaultError.trustNotPinned(path: location.path) }
        guard OpenVault.isSigned(parsed.file, header: parsed.header, byFingerprint: pinned) else {
            throw VaultError.untrustedVault(path: location.path, pinned: pinned)
        }
        let (name, keys) = try OpenVault.openMemberSlot(parsed.file, identities: identities, path: location.path)
        let credential: ScopedCredential?
        switch keys {
        case .full: credential = nil
        case .scoped(let readOnly, let grants):
            credential = ScopedCredential.member(name: name, vaultID: parsed.file.vaultID, readOnly: readOnly, grants: grants)
        }
        resolvedMember = (name, credential)
        return credential
    }

    /// The name of the member whose slot the identities at hand open; nil for other keys, or when none opens.
    public var memberName: String? {
        guard case .identity = source else { return nil }
        _ = try? memberKeys()
        return resolvedMember?.name
    }

    /// The member the identities at hand opened as, once known.
    var resolvedMember: (name: String, credential: ScopedCredential?)?

    /// Whether an operation may still ask for a credential.
    var canAsk: Bool { ask != nil }
    /// Why the session given no longer opens the vault, once that is known.
    private var endedSession: VaultError?
    /// Whether this vault holds the writer lock now (see `withWriterLock`).
    private var holdsWriterLock = false
    /// Whether the last read used a device key that lies in a git work tree.
    var usesExposedDeviceKey = false
    /// Whether a file older than this machine has seen is opened anyway (`--accept-rollback`):
    /// the restore is then recorded as intended.
    public var acceptRollback = false
    /// The lowest key epoch accepted whatever this machine remembers (`VAULT_MIN_EPOCH`): a fresh CI runner remembers nothing.
    public var minimumEpoch: UInt64?
    /// Whether the owner accepted, unseen, the team log entries a write would sign that it did not
    /// write here (a join of diverged logs, a conversion's members): `--accept-log`.
    public var acceptTeamLog = false
    /// Shown those entries before the owner's write signs them (a prompt); may throw to change nothing.
    /// Without it (and without `acceptTeamLog`) such a write is refused.
    public var reviewTeamLog: ((TeamLogReview) throws -> Void)?
    /// The trust fingerprint the caller pinned (`VAULT_TRUST`): with an identity, a vault whose header
    /// is not signed by that key is refused, and one is needed (docs/TEAMS.md, "Trust").
    public var trustedFingerprint: String?
    /// Whether `onNotice` has heard of that key already.
    private var toldOfExposedDeviceKey = false
    /// Told of what vault did on its own that the user should know (see `VaultNotice`).
    public var onNotice: ((VaultNotice) -> Void)?
    /// Run before every change is written (not a merge's write): may throw to change nothing. The
    /// command line checks here that a merge commit's vault file kept both parents' team logs.
    public var checkBeforeChanging: (() throws -> Void)?
    let host: HostContext

    /// - Parameters:
    ///   - keys: where the keys come from.
    ///   - ask: called when `keys` do not open what an operation needs (a prompt): once, and again
    ///     after a wrong passphrase, up to `askAttempts` times in all (sudo and ssh allow three tries).
    ///   - host: time, boot id and runtime directory (tests inject their own).
    public init(location: VaultLocation, keys: KeySource, ask: (() throws -> UnlockSecret)? = nil, askAttempts: Int = 1,
                host: HostContext) {
        self.location = location
        self.source = keys
        self.ask = ask
        self.askAttempts = askAttempts
        self.host = host
    }

    /// A vault opened with a credential; `clock` sets created/modified dates (tests inject one).
    public convenience init(location: VaultLocation, credential: UnlockSecret, clock: @escaping @Sendable () -> Date = { Date() }) {
        var host = Vault.selfContainedHost(for: location)
        host.now = clock
        self.init(location: location, keys: .credential(credential), host: host)
    }

    /// A host whose runtime files and device keys live in hidden folders
    /// beside the vault (`.runtime`, `.data`, `.state`): for the convenience initialiser
    /// and `create` without a host, as tests and embedders use them.
    static func selfContainedHost(for location: VaultLocation) -> HostContext {
        HostContext.live(environment: ["XDG_RUNTIME_DIR": location.directory + "/.runtime",
                                       "XDG_DATA_HOME": location.directory + "/.data",
                                       "XDG_STATE_HOME": location.directory + "/.state"])
    }

    // MARK: creating

    /// Creates a new vault with one keyslot for `credential`, in a 0700
    /// directory, and this machine's device key for it in the host's device-key
    /// directory (by default, the self-contained host of the convenience
    /// initialiser). Throws `VaultError.vaultExists` when a vault is already there.
    public static func create(at location: VaultLocation, credential: UnlockSecret,
                              kdf: Scrypt.Parameters = .interactive, host: HostContext? = nil) throws {
        let host = host ?? selfContainedHost(for: location)
        try FileSystem.makeDirectory(location.directory)
        let lock = try LockFile(path: try Vault.writerLockPath(of: location, host: host))
        defer { withExtendedLifetime(lock) {} }
        guard try !location.exists else { throw VaultError.vaultExists(path: location.path) }
        let vaultID = SecureRandom.bytes(VaultFile.idSize)
        let deviceKey = try DeviceKey.create(vaultID: vaultID, host: host)
        var vault = try OpenVault.create(vaultID: vaultID, slotKind: credential.slotKind, secret: credential.secret, kdf: kdf,
                                         deviceKey: deviceKey, path: location.path)
        try FileSystem.writeAtomically(try vault.encode(), to: location.path, directory: location.directory)
        SeenCounters.update(vaultID: vaultID, host: host) { _ in SeenCounters(of: vault.file, groups: vault.groupsVerifiedByWriteKey) }
        try? DeviceGrants.write(from: vault.keys, file: vault.file, host: host)
    }

    // MARK: reading

    /// The attributes of every item that matches `query` (no secrets), in file order.
    /// An empty result is not an error.
    public func attributes(matching query: Query) throws -> [ItemAttributes] {
        try checkScope(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            try vault.requireExisting(query.group)
            return try vault.attributes(matching: query)
        }
    }

    /// Like `attributes(matching:)`, but without a way to ask leaves out the items the keys at hand
    /// cannot open instead of asking for an unlock, and says how many were left out.
    /// When there is a way to ask for a credential, it asks rather than leave items out.
    /// Groups whose index fails its MAC are left out and named: the others list as usual.
    public func listing(matching query: Query) throws -> (items: [ItemAttributes], locked: Int, damagedGroups: [AccessGroup]) {
        try checkScope(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            try vault.requireExisting(query.group)
            let locked = vault.lockedCount(in: query.group)
            if locked > 0, ask != nil { throw VaultError.locked(nil) }
            let items = try vault.attributes(matching: query, skipLocked: true)
            let damaged = vault.allDamagedGroups.map(\.group).filter { query.group == nil || $0 == query.group }
            return (items, locked, damaged)
        }
    }

    /// The one item that matches `query`, with its secret.
    /// Throws `itemNotFound` when none matches, `ambiguous` (listing them) when
    /// several do, and `itemExpired` when its expiry date has come.
    public func item(matching query: Query) throws -> Item {
        try checkScope(query.group)
        return try withKeys {
            try openItem(matching: query, in: try readSnapshot(checking: query.indexCheck))
        }
    }

    /// The one item matching `query` in an opened file, with its secret, as `item(matching:)` gives it.
    func openItem(matching query: Query, in vault: OpenVault) throws -> Item {
        try openItem(at: Vault.single(try vault.positions(matching: query), in: vault, query: query), in: vault)
    }

    /// The item at `position` with its secret; throws `itemExpired` when its expiry date has come.
    func openItem(at position: Int, in vault: OpenVault) throws -> Item {
        let (item, inConflict) = try vault.openRecordNotingConflicts(at: position)
        if item.attributes.hasExpired(at: host.now()) { throw VaultError.itemExpired(item.attributes) }
        if inConflict { onNotice?(.itemInConflict(item.attributes.key)) }
        return item
    }

    // MARK: changing

    /// Adds an item. Throws `duplicateItem` when (group, service, account)
    /// exists, unless `replaceExisting` is set (like `security -U`), which
    /// replaces it and keeps its created date.
    @discardableResult
    public func add(_ new: NewItem, replaceExisting: Bool = false) throws -> AddOutcome {
        try Vault.validate(new)
        try checkScope(new.group, writing: true)
        return try transaction { vault in
            let key = Query(service: new.service, account: new.account, group: new.group)
            let existing = try vault.positions(matching: key).first
            if existing != nil, !replaceExisting {
                throw VaultError.duplicateItem(ItemKey(group: new.group, service: new.service, account: new.account))
            }
            let now = host.now()
            let replaced = try existing.map { try vault.openWholeRecord(at: $0) }
            let created = replaced?.item.attributes.created ?? now
            let attributes = ItemAttributes(service: new.service, account: new.account, group: new.group,
                                            accessibility: new.accessibility, details: new.details, created: created, modified: now)
            try vault.store(attributes, secret: new.secret, history: replaced.map { history(after: $0, newSecret: new.secret) } ?? [],
                            conflicts: replaced?.conflicts ?? [], replacing: existing)
            return existing == nil ? .added : .replaced
        }
    }

    /// Changes the one item that matches `query`: its secret and/or attributes.
    /// A class change re-seals the item under the new class's keys.
    @discardableResult
    public func update(matching query: Query, with change: ItemChange) throws -> ItemAttributes {
        if let secret = change.secret { try Vault.validateSecret(secret) }
        try Vault.validate(change.details)
        try checkScope(query.group, writing: true)
        return try transaction { vault in
            let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
            let opened = try vault.openWholeRecord(at: position)
            var attributes = opened.item.attributes
            attributes.accessibility = change.accessibility ?? attributes.accessibility
            attributes.details = attributes.details.applying(change.details)
            if change.removesExpiry { attributes.details.expires = nil }
            attributes.modified = host.now()
            try vault.store(attributes, secret: change.secret ?? opened.item.secret, history: history(after: opened, newSecret: change.secret),
                            conflicts: opened.conflicts, replacing: position)
            return attributes
        }
    }

    /// Renames the one item that matches `query`: a new service, account
    /// and/or group (nil keeps each), keeping its secret, attributes and
    /// created date, in one atomic write; a new group is created. An item moved
    /// into another group leaves its earlier secrets behind (the new group's
    /// readers never read what only the old group's could) unless `keepingHistory`.
    /// Throws `duplicateItem` when an item already has the new name, and
    /// `itemNotFound` or `ambiguous` as `update` does. Returns the item as it
    /// was and as it is, and how many earlier secrets were dropped.
    @discardableResult
    public func move(matching query: Query, toService: String? = nil, toAccount: String? = nil,
                     toGroup: AccessGroup? = nil, keepingHistory: Bool = false)
        throws -> (from: ItemAttributes, to: ItemAttributes, droppedRevisions: Int) {
        if let toService {
            guard !toService.isEmpty else { throw VaultError.invalidValue(field: "service", detail: "it is empty") }
            try Vault.validateAttribute("service", toService)
        }
        if let toAccount { try Vault.validateAttribute("account", toAccount) }
        try checkScope(query.group, writing: true)
        try checkScope(toGroup, writing: true)
        return try transaction { vault in
            let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
            let opened = try vault.openWholeRecord(at: position)
            var attributes = opened.item.attributes
            attributes.group = toGroup ?? attributes.group
            attributes.service = toService ?? attributes.service
            attributes.account = toAccount ?? attributes.account
            let target = Query(service: attributes.service, account: attributes.account, group: attributes.group)
            guard try vault.positions(matching: target).isEmpty else {
                throw VaultError.duplicateItem(ItemKey(group: attributes.group, service: attributes.service, account: attributes.account))
            }
            attributes.modified = host.now()
            let from = opened.item.attributes
            var moved = opened
            moved.item = Item(attributes: attributes, secret: opened.item.secret)
            let dropped = attributes.group != from.group && !keepingHistory ? opened.history.count : 0
            if dropped > 0 { moved.history = [] }
            try vault.store(moved, replacing: position)
            return (from, attributes, dropped)
        }
    }

    /// Reads the one item that matches `query` and stores the secret that
    /// `newSecret` makes of it, under the writer's lock: no other writer can
    /// read the old secret in between. With `keepingPrevious` the secret it
    /// replaces joins the item's history, as `update` does (an edit); without,
    /// the history stays as it is (a one-time code's counter moving on).
    /// Returns the item as it was read.
    public func replaceSecret(matching query: Query, keepingPrevious: Bool, by newSecret: (Item) throws -> SecretBytes?) throws -> Item {
        try checkScope(query.group, writing: true)
        return try transaction { vault in
            let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
            let opened = try vault.openWholeRecord(at: position)
            let item = opened.item
            if item.attributes.hasExpired(at: host.now()) { throw VaultError.itemExpired(item.attributes) }
            guard let secret = try newSecret(item) else { return item }
            try Vault.validateSecret(secret)
            var attributes = item.attributes
            attributes.modified = host.now()
            try vault.store(attributes, secret: secret, history: keepingPrevious ? history(after: opened, newSecret: secret) : opened.history,
                            conflicts: opened.conflicts, replacing: position)
            return item
        }
    }

    /// How many earlier secrets `update` keeps per item when none is said (`--keep`).
    public static let defaultRevisionsKept = 5

    /// How many earlier secrets a change keeps for its item (0: none, and the ones kept go); nil
    /// keeps `defaultRevisionsKept` when a secret is replaced and leaves the history alone otherwise.
    public var revisionsKept: Int?

    /// The history an item has after its secret is replaced by `newSecret` (nil or the same
    /// bytes: not replaced): the secret it had joins the front, and `revisionsKept` are kept.
    private func history(after opened: OpenedRecord, newSecret: SecretBytes?) -> [SecretRevision] {
        var history = opened.history
        var limit = revisionsKept
        if let newSecret, !newSecret.constantTimeEquals(opened.item.secret) {
            history.insert(SecretRevision(secret: opened.item.secret, setAt: opened.item.attributes.modified, replacedAt: host.now()), at: 0)
            limit = limit ?? Vault.defaultRevisionsKept
        }
        return limit.map { Array(history.prefix(max($0, 0))) } ?? history
    }

    /// Deletes the item that matches `query`, or every matching item when
    /// `allMatching` is set; returns what was deleted. Without `allMatching`, a
    /// query that matches several items throws `ambiguous` and deletes nothing.
    @discardableResult
    public func delete(matching query: Query, allMatching: Bool = false) throws -> [ItemAttributes] {
        try checkScope(query.group, writing: true)
        return try transaction { vault in
            let matches = try vault.matches(query, skipLocked: false)
            if !allMatching { _ = try Vault.single(matches.positions, in: vault, query: query) }
            guard !matches.positions.isEmpty else { throw VaultError.itemNotFound(query) }
            vault.remove(at: matches.positions)
            return matches.attributes
        }
    }

    // MARK: keyslots

    /// Adds a keyslot that opens with the content of a key file; refuses a key file that already opens the vault.
    public func addKeyFile(_ content: SecretBytes) throws {
        try requireKeyslotSecret("change the vault's keyslots")
        try transaction { vault in
            if try vault.keyslotOpening(kind: .keyFile, with: content) {
                throw VaultError.invalidValue(field: "key file", detail: "it already opens this vault")
            }
            try vault.addKeyslot(kind: .keyFile, secret: content, kdf: .interactive)
        }
    }

    /// Removes the keyslot that the key file content opens, and rotates the master key when it can
    /// (see `changeKeyslots`); returns whether it did. Throws `noKeyslot` when no slot opens with
    /// it and `lastKeyslot` when it is the only one.
    @discardableResult
    public func removeKeyFile(_ content: SecretBytes) throws -> Bool {
        try changeKeyslots { vault in
            guard try vault.removeKeyslots(kind: .keyFile, openedBy: content) > 0 else {
                throw VaultError.noKeyslot(.keyFile)
            }
            return []
        }
    }

    /// Removes every passphrase keyslot (a key-file keyslot must remain) and
    /// destroys the `when-passcode-set-this-device-only` items: they are
    /// deleted and their class key replaced. Rotates the master key when it
    /// can (see `changeKeyslots`). Returns what was destroyed and whether it rotated.
    @discardableResult
    public func removePassphrase() throws -> (destroyed: [ItemAttributes], rotated: Bool) {
        var destroyed: [ItemAttributes] = []
        let rotated = try changeKeyslots { vault in
            guard vault.hasKeyslot(.passphrase) else {
                throw VaultError.invalidValue(field: "passwd", detail: "the vault has no passphrase to remove")
            }
            guard vault.hasKeyslot(.keyFile) else { throw VaultError.lastKeyslot }
            _ = try vault.removeKeyslots(kind: .passphrase, openedBy: nil)
            let doomed = try vault.matches(Query(accessibility: .whenPasscodeSetThisDeviceOnly), skipLocked: false)
            vault.remove(at: doomed.positions)
            try vault.rotateClassKey(.whenPasscodeSetThisDeviceOnly)
            destroyed = doomed.attributes
            return []
        }
        return (destroyed, rotated)
    }

    // MARK: plumbing

    /// With a scoped credential or a scoped member's identity: refuses a group it does not cover,
    /// and any change when it lacks the write keys (whatever its read-only flag says).
    func checkScope(_ group: AccessGroup?, writing: Bool = false) throws {
        let credential: ScopedCredential
        switch source {
        case .scoped(let given): credential = given
        case .identity: guard let member = try memberKeys() else { return }; credential = member
        default: return
        }
        if writing, !credential.canWrite {
            throw credential.memberName.map { VaultError.readOnlyMember($0) } ?? VaultError.readOnlyCredential
        }
        if let group, !credential.groups.contains(group) {
            if let name = credential.memberName { throw VaultError.outsideMember(name: name, group: group, covered: credential.groups) }
            throw VaultError.outsideCredential(group: group, covered: credential.groups)
        }
    }

    /// Refuses what only the owner may do when the keys are a scoped credential's or a scoped member's.
    func requireOwner(_ action: String) throws {
        if case .scoped = source { throw VaultError.ownerOnly(action: action) }
        if case .identity = source, let member = try memberKeys() {
            throw VaultError.scopedMemberCannot(name: member.memberName ?? "", action: action)
        }
    }

    /// Refuses, with an identity, what raises the key epoch (a re-key, a member's removal, a revoke,
    /// a group's deletion or quarantine): a new epoch's trust statement is signed with the trust key,
    /// which only the master key unwraps and no member holds (docs/TEAMS.md, "Trust").
    func requireTrustKey(_ action: String) throws {
        try requireOwner(action)
        if case .identity = source { throw VaultError.trustKeyNeeded(action: action) }
    }

    /// Refuses a keyslot change with an identity: even a full member, which holds every group's keys,
    /// does not replace or remove the owner's passphrase, key files or keyring key.
    func requireKeyslotSecret(_ action: String) throws {
        if case .identity = source { throw VaultError.identityCannot(action: action) }
    }

    /// Runs `body`; when the keys at hand do not suffice and there is a way to
    /// ask, asks for a credential and runs it again with that, asking again
    /// after a wrong passphrase up to `askAttempts` times.
    func withKeys<R>(_ body: () throws -> R) throws -> R {
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
        let bytes = try readFile()
        let vaultID = VaultFile.peekVaultID(bytes)
        let deviceKey = try deviceKeyForReading(bytes, vaultID: vaultID)
        let vault: OpenVault
        switch source {
        case .credential(let secret):
            vault = try OpenVault.unlock(bytes, secret: secret, deviceKey: deviceKey, path: location.path, checking: indexCheck)
            refreshMachineGrants(vault, onlyIfMissing: true)
        case .session(let token):
            do {
                let session = try SessionCache.open(token: token, vaultID: vaultID, host: host)
                do {
                    vault = try OpenVault.open(bytes, masterKey: session.masterKey, deviceKey: deviceKey, path: location.path,
                                               checking: indexCheck)
                } catch VaultError.corrupted(_, let detail) where detail.isHeaderMACMismatch
                            && VaultFile.peekKeyEpoch(bytes).map({ $0 > session.keyEpoch }) == true {
                    // The vault was re-keyed after the session started: its key is not the vault's any more.
                    throw VaultError.sessionEnded(.rekeyed)
                }
            } catch let error as VaultError {
                guard case .sessionEnded(let end) = error else { throw error }
                // A header that fails under the session's key at a higher epoch is a re-key, or a forgery made to look like
                // one: never fall back to the read-MAC trust of what opens without an unlock then.
                if end == .rekeyed { throw error }
                // An ended session still leaves what opens with no unlock; say why only if that is not enough.
                endedSession = error
                source = .none
                return try readSnapshot(writing: writing, checking: indexCheck)
            }
        case .scoped(let credential):
            if credential.hasExpired(at: host.now()), let expires = credential.expires { throw VaultError.credentialExpired(expires) }
            vault = try OpenVault.open(bytes, credential: credential, deviceKey: deviceKey, path: location.path, checking: indexCheck)
        case .identity(let identities):
            vault = try OpenVault.open(bytes, identities: identities, deviceKey: deviceKey, path: location.path, checking: indexCheck)
        case .none:
            let grants = (DeviceGrants.read(vaultID: vaultID, deviceKey: deviceKey, host: host) ?? [])
                + (AfterFirstUnlockCache.read(vaultID: vaultID, deviceKey: deviceKey, host: host) ?? [])
            vault = try OpenVault.openPartial(bytes, deviceKey: deviceKey, grants: grants, path: location.path, checking: indexCheck)
        }
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
        if let key = try DeviceKey.load(vaultID: vaultID, location: location, host: host) { return key }
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

    /// Runs `body` holding the writer lock on the vault's directory; a call
    /// made while this vault already holds it runs `body` at once (a second
    /// flock from this process would wait for itself).
    func withWriterLock<R>(_ body: () throws -> R) throws -> R {
        if holdsWriterLock { return try body() }
        let lock = try LockFile(path: try Vault.writerLockPath(of: location, host: host))
        holdsWriterLock = true
        defer {
            holdsWriterLock = false
            withExtendedLifetime(lock) {}
        }
        FileSystem.removeAbandonedTemporaries(of: location.path, directory: location.directory)
        let vaultID = VaultFile.peekVaultID(FileSystem.readPrefix(location.path, count: VaultFile.magic.count + 2 + VaultFile.idSize))
        if !vaultID.isEmpty {
            // Device grants are rewritten under this lock by writes (a read's refresh of missing ones is best effort).
            FileSystem.removeAbandonedTemporaries(of: DeviceGrants.path(vaultID: vaultID, host: host), directory: host.deviceKeyDirectory)
            FileSystem.removeAbandonedTemporaries(of: DeviceKey.pendingPath(vaultID: vaultID, host: host), directory: host.deviceKeyDirectory)
            // A device key a failed re-key could not settle (only re-keys make one, under this lock).
            if FileSystem.isRegularFile(DeviceKey.pendingPath(vaultID: vaultID, host: host)), let bytes = try? readFile() {
                DeviceKey.settlePending(vaultID: vaultID, host: host) { OpenVault.isDeviceKey($0, of: bytes) }
            }
        }
        if FileSystem.exists(location.legacyLockPath) { FileSystem.remove(location.legacyLockPath) }
        return try body()
    }

    /// The lock file of the vault's directory: in this user's runtime directory
    /// (private, so another user cannot hold it and stall writers), named by the
    /// directory's device and inode (so every path to it finds one lock), and
    /// never in the directory itself (which may be a git work tree).
    static func writerLockPath(of location: VaultLocation, host: HostContext) throws -> String {
        var info = stat()
        guard stat(location.directory, &info) == 0 else {
            throw VaultError.io(path: location.directory, operation: "stat", errno: errno)
        }
        return try host.preparedRuntimeDirectory() + "/writer-\(info.st_dev)-\(info.st_ino).lock"
    }

    /// Runs `body` under the writer lock on a fresh read of the file, then writes the result atomically.
    /// A v1 file is converted to v2 first (keeping `<vault>.v1.bak`), except in a git work tree, where
    /// teammates may still run a v1 build: there only `vault upgrade` converts, and the change is refused.
    func transaction<R>(_ body: (inout OpenVault) throws -> R) throws -> R {
        guard try location.exists else { throw VaultError.noSuchVault(path: location.path) }
        if GitWorkTree.hasUnfinishedMerge(location.directory) { throw VaultError.unfinishedMerge(path: location.path) }
        return try withWriterLock {
            try withKeys {
                var vault = try readSnapshot(writing: true)
                let epochOnDisk = vault.file.keyEpoch
                // A credential whose write keys do not hold here (granted before a conversion) is read-only in fact.
                guard vault.isWritable else {
                    guard let credential = scopedCredential else { throw VaultError.locked(nil) }
                    if let name = credential.memberName { throw VaultError.readOnlyMember(name) }
                    throw credential.canWrite ? VaultError.credentialPredatesConversion : VaultError.readOnlyCredential
                }
                let converted = try convertIfAllowed(&vault, explicitly: false)
                let keysBefore = vault.grantedKeys
                let trustKeyBefore = vault.file.trustPublicKey
                let result: R
                let resealed: Int?
                do {
                    resealed = try moveOffExposedDeviceKey(&vault)
                    result = try body(&vault)
                    try commit(&vault, replacingEpoch: epochOnDisk)
                } catch {
                    converted?.discardBackup()
                    throw error
                }
                if let converted { onNotice?(.converted(backup: converted.backup)) }
                if vault.file.trustPublicKey != trustKeyBefore {
                    onNotice?(.trustFingerprintChanged(OpenVault.trustFingerprint(of: vault.file.trustPublicKey)))
                }
                if let resealed { try finishMovingOffExposedDeviceKey(resealed: resealed, vaultID: vault.file.vaultID) }
                // Changing items changes no grant: the cache and device grants are rewritten only when keys or groups changed.
                refreshMachineGrants(vault, onlyIfMissing: vault.grantedKeys == keysBefore)
                return result
            }
        }
    }

    /// What a write is: a change of the vault, or a merge of two versions of it.
    enum Write {
        /// Checked by `checkBeforeChanging` first; its counters recorded as seen once it is in place.
        case change
        /// Records nothing: a merge's file may be git's temporary copy, or be put back when git's
        /// merge is aborted; the next read of the final file records it. Not checked by
        /// `checkBeforeChanging`, whose refusal a merge is the way out of.
        case merge
    }

    /// Writes `vault` atomically, then (a change) records its counters as seen, only now that it is
    /// renamed into place and synced.
    ///
    /// A change that raises the key epoch (rekey, revoke, member removal, a rotating passwd) must be
    /// remembered, or a copy from before it opens here again: it records the new epoch durably
    /// before the rename (a state directory that cannot be written fails the write and leaves the
    /// old file), and fails if it cannot complete that record once the file is in place.
    func commit(_ vault: inout OpenVault, as write: Write = .change, replacingEpoch replaced: UInt64? = nil) throws {
        if write == .change { try checkBeforeChanging?() }
        let raises = write == .change && vault.keys.headerMACKey != nil && replaced.map { vault.file.keyEpoch > $0 } == true
        // Encoding raises the write generation: the counters recorded are those of the file written.
        let pieces = try vault.encodePieces()
        let file = vault.file, groups = vault.groupsVerifiedByWriteKey
        try FileSystem.writeAtomically(pieces, to: location.path, directory: location.directory) {
            guard raises, let replaced else { return }
            try SeenCounters.record(vaultID: file.vaultID, host: host) { seen in
                seen.raised(to: file, groups: groups, replacing: replaced) ?? seen
            }
        }
        guard write == .change else { return }
        if raises {
            try SeenCounters.record(vaultID: file.vaultID, host: host) { $0.merging(file, groups: groups) }
        } else {
            rememberCounters(of: vault)
        }
    }

    /// Records as seen what a write key vouched for of `vault`'s counters: the header's and every
    /// checked group's with the header MAC; a group's generation alone with its index MAC, and
    /// only at the key epoch already remembered. A reader's key (RMK) can forge a read MAC, and
    /// counters it raised would lock the owner out of the real file: it records nothing.
    /// `known`, when given, is what was read of the record before the file: a read that adds
    /// nothing to it (most reads) takes no lock and reads the record no second time.
    private func rememberCounters(of vault: OpenVault, known: SeenCounters? = nil) {
        let groups = vault.groupsVerifiedByWriteKey
        let source = source
        let change = { (seen: SeenCounters) -> SeenCounters in
            if vault.keys.headerMACKey != nil { return seen.merging(vault.file, groups: groups) }
            // An identity's read checked the trust statement (`checkTrust`), which only the trust key signs:
            // its key epoch can be remembered. Nothing else of a header without its MAC can.
            if case .identity = source, vault.file.keyEpoch > seen.keyEpoch { return SeenCounters(keyEpoch: vault.file.keyEpoch) }
            guard vault.file.keyEpoch == seen.keyEpoch, !groups.isEmpty else { return seen }
            return seen.merging(groupGenerationsOf: vault.file, groups: groups)
        }
        if let known, change(known) == known { return }
        SeenCounters.update(vaultID: vault.file.vaultID, host: host, change)
    }

    /// Records `vault`'s counters as seen, lower ones included: a restore accepted on purpose.
    private func rememberAcceptedRestore(of vault: OpenVault) {
        guard vault.file.version >= 2 else { return }
        SeenCounters.update(vaultID: vault.file.vaultID, host: host) { _ in SeenCounters(of: vault.file, groups: vault.groupsVerifiedByWriteKey) }
    }

    /// A v1 file converted in memory: where the v1 file is kept (nil in a git work tree, whose
    /// history keeps it), and whether that backup was made now (and so goes if the change fails).
    struct Conversion {
        let backup: String?
        let madeBackup: Bool

        /// After the change failed: the vault is still the v1 file, so a backup made for it goes.
        func discardBackup() {
            if madeBackup, let backup { FileSystem.remove(backup) }
        }
    }

    /// Converts a v1 snapshot to v2 in memory. Outside a git work tree it first keeps the file as
    /// `<vault>.v1.bak` (0600; one already there is kept); in one, git's history keeps the v1 file,
    /// and outside `vault upgrade` (`explicitly`) the change is refused instead, since teammates may
    /// still run a v1 build. Nil when the file was v2 already.
    func convertIfAllowed(_ vault: inout OpenVault, explicitly: Bool) throws -> Conversion? {
        if vault.file.version == 2, vault.keys.masterKey != nil {
            if let members = try vault.convertToTeamLog() { try review(TeamLogReview(reason: .conversion, lines: members.map(TeamLogReview.line(for:)))) }
            return nil
        }
        guard vault.file.version == 1 else { return nil }
        let inGitWorkTree = GitWorkTree.contains(location.directory)
        if !explicitly, inGitWorkTree {
            throw VaultError.upgradeNeeded(path: location.path, byOwner: vault.keys.masterKey == nil, inGitWorkTree: true)
        }
        try vault.convertToCurrentVersion()
        guard !inGitWorkTree else { return Conversion(backup: nil, madeBackup: false) }
        let backup = location.path + ".v1.bak"
        if FileSystem.exists(backup) { return Conversion(backup: backup, madeBackup: false) }
        try FileSystem.createExclusive(try readFile().allBytes, at: backup)
        return Conversion(backup: backup, madeBackup: true)
    }

    /// Refuses a file whose key epoch is below what this machine has seen or the pinned minimum
    /// (unless `acceptRollback`, which records it as seen); on a write, also one behind in a
    /// generation (a read only warns: git checkouts that are behind are normal). Then records
    /// what was seen, when a key checked the counters.
    private func checkCounters(of vault: OpenVault, writing: Bool, seen: SeenCounters) throws {
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

    /// Any unlock on this machine leaves the after-first-unlock cache for this boot and (v2) this
    /// device's grants; a change rewrites both (groups and keys may be new).
    func refreshMachineGrants(_ vault: OpenVault, onlyIfMissing: Bool) {
        guard vault.keys.isFull, vault.deviceMatches, vault.damagedGroups.isEmpty else { return }
        let keyID = vault.file.vaultID
        if !onlyIfMissing || !AfterFirstUnlockCache.isPresent(vaultID: keyID, deviceKey: vault.keys.deviceKey, host: host) {
            try? AfterFirstUnlockCache.write(from: vault.keys, file: vault.file, host: host)
        }
        if vault.file.version >= 2,
           !onlyIfMissing || !DeviceGrants.areCurrent(for: vault.file, deviceKey: vault.keys.deviceKey, host: host) {
            try? DeviceGrants.write(from: vault.keys, file: vault.file, host: host)
        }
    }

    static func single(_ positions: [Int], in vault: OpenVault, query: Query) throws -> Int {
        guard let first = positions.first else {
            try vault.requireExisting(query.group)
            throw VaultError.itemNotFound(query)
        }
        guard positions.count == 1 else {
            throw VaultError.ambiguous(try positions.map { try vault.openAttributes(at: $0) })
        }
        return first
    }

    /// Refuses an item that no backend stores: an empty service, an attribute or secret over the limits.
    public static func validate(_ new: NewItem) throws {
        guard !new.service.isEmpty else { throw VaultError.invalidValue(field: "service", detail: "it is empty") }
        try validateAttribute("service", new.service)
        try validateAttribute("account", new.account)
        try validate(new.details)
        try validateSecret(new.secret)
    }

    /// Refuses attributes over the size limit.
    public static func validate(_ details: ItemDetails) throws {
        for field in details.textFields {
            if let value = field.value { try validateAttribute(field.name, value) }
        }
    }

    private static func validateAttribute(_ field: String, _ value: String) throws {
        let size = value.utf8.count
        guard size > ItemLimits.maxAttributeBytes else { return }
        throw VaultError.invalidValue(field: field, detail: "it is \(size) bytes; the limit is \(ItemLimits.maxAttributeBytes)")
    }

    /// Refuses a secret over 1 MiB.
    public static func validateSecret(_ secret: SecretBytes) throws {
        try validateSecretSize(secret.count)
    }

    /// Refuses a secret of `byteCount` bytes when it is over `ItemLimits.maxSecretBytes`
    /// (for a reader that stopped keeping bytes past the limit but counted them).
    public static func validateSecretSize(_ byteCount: Int) throws {
        guard byteCount > ItemLimits.maxSecretBytes else { return }
        throw VaultError.invalidValue(field: "secret", detail: "it is \(byteCount) bytes; the limit is \(ItemLimits.maxSecretBytes) (1 MiB)")
    }
}
