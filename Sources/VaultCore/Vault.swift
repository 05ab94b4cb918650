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
    /// Age identities (named by an option or `VAULT_IDENTITY`): what the member slot sealed to one of them
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
public final class Vault: ItemStore, FileVaultFeatures {
    /// What a `Vault` is told once, when it is made (`VaultConfiguration`).
    public typealias Configuration = VaultConfiguration
    /// What `export` wrote (`ExportOutcome`).
    package typealias ExportOutcome = VaultCore.ExportOutcome
    /// What `import` did (`ImportOutcome`).
    package typealias ImportOutcome = VaultCore.ImportOutcome
    /// What `lock` ended (`LockOutcome`).
    package typealias LockOutcome = VaultCore.LockOutcome
    /// Where the session a command would use lives (`SessionPlace`).
    package typealias SessionPlace = VaultCore.SessionPlace
    /// What `vault status` shows (`StatusReport`).
    package typealias StatusReport = VaultCore.StatusReport
    /// Items of one group and class (`ItemCount`).
    package typealias ItemCount = VaultCore.ItemCount
    /// What `reset` removed (`ResetOutcome`).
    package typealias ResetOutcome = VaultCore.ResetOutcome

    /// Where the vault file is.
    public let location: VaultLocation
    /// Where the walk through the unlockers stands: the keys at hand, what comes next, what was tried.
    let walk: UnlockWalk
    /// The keys at hand: the unlocker in use (`walk`).
    var source: KeySource { walk.keys }
    /// What the reads keep between them (the snapshot a write's first read kept, the member the identities opened as,
    /// what the last read learnt of the device key, whether a write holds the lock): the one thing in a `Vault` that
    /// changes, a reference the reading room owns and the reader, writer and their rooms' types share.
    let reads = ReadState()
    /// The vault file is the backend with these features.
    public var fileVault: (any FileVaultFeatures)? { self }
    /// Whether the keys are a scoped credential's.
    package var isScoped: Bool { scopedCredential != nil }

    /// The scoped credential the vault is opened with, if any.
    /// For an identity, the keys of the scoped member whose slot it opens (nil for a full member).
    public var scopedCredential: ScopedCredential? { try? holder.scope() }

    /// Who holds the keys at hand: what the authority checks ask (`KeyHolder`).
    var holder: KeyHolder { KeyHolder(source, memberSlot: memberKeys) }

    /// What the identities at hand open: nil for a full member, else the scoped member's keys as a
    /// credential (`SnapshotReader.memberKeys`).
    func memberKeys() throws -> ScopedCredential? { try reader.memberKeys() }

    /// The name of the member whose slot the identities at hand open; nil for other keys, or when none opens.
    public var memberName: String? {
        guard case .identity = source else { return nil }
        _ = try? memberKeys()
        return reads.resolvedMember?.name
    }

    let host: HostContext
    /// What the caller told this vault when it was made (`Vault.Configuration`).
    let configuration: Configuration

    // MARK: the façade's own work: read, lock, write (each handed to its room's type)

    /// What this vault reads with (`SnapshotReader`): its location, host, configuration, walk and reads.
    var reader: SnapshotReader {
        SnapshotReader(
            location: location, host: host, configuration: configuration, walk: walk, reads: reads,
            checkBeforeChanging: { try self.configuration.checkBeforeChanging?(self) })
    }

    /// What this vault writes with (`VaultWriter`).
    var writer: VaultWriter { VaultWriter(reader: reader, scopedCredential: { self.scopedCredential }) }

    /// Re-keys and keyslot changes, written with this vault's writer (`Rekeying`).
    var rekeying: Rekeying { Rekeying(writer: writer) }

    /// Verify, upgrade, quarantine and reset, with this vault's reader and writer (`Maintenance`).
    var maintenance: Maintenance { Maintenance(writer: writer) }

    /// This machine's device key of the vault, moved into the TPM and back (`DeviceKeySealing`).
    var deviceKeySealing: DeviceKeySealing { DeviceKeySealing(reader: reader) }

    /// The item changes of a write made now (`ItemChanges`).
    var itemChanges: ItemChanges { ItemChanges(now: host.now(), revisionsKept: configuration.revisionsKept) }

    /// The vault file read and opened with the keys at hand (`SnapshotReader.readSnapshot`).
    func readSnapshot(writing: Bool = false, checking requested: IndexCheck = .everyBucket, keepingForWrite: Bool = false) throws
        -> Snapshot
    {
        try reader.readSnapshot(writing: writing, checking: requested, keepingForWrite: keepingForWrite)
    }

    /// The vault file's bytes: refused when others may change it or its directory.
    func readFile() throws -> FileBytes { try reader.readFile() }

    /// Runs `body`, asking the unlockers left when the keys at hand do not open what it needs.
    func withKeys<R>(_ body: () throws -> R) throws -> R { try reader.withKeys(body) }

    /// `withKeys` without turning a failure into the TPM's refusal.
    func withKeysAsking<R>(_ body: () throws -> R) throws -> R { try reader.withKeysAsking(body) }

    /// Whether an unlocker is left that asks for a credential.
    var canAsk: Bool { reader.canAsk }

    /// Runs `body` holding the writer lock on the vault's directory (`VaultWriter.withWriterLock`).
    func withWriterLock<R>(_ body: () throws -> R) throws -> R { try writer.withWriterLock(body) }

    /// Runs `body` under the writer lock on a fresh read, then writes the result atomically (`VaultWriter.transaction`).
    func transaction<R>(_ body: (inout WorkingCopy) throws -> R) throws -> R { try writer.transaction(body) }

    /// Writes `vault` atomically and records its counters (`VaultWriter.commit`).
    func commit(_ vault: inout WorkingCopy, as write: VaultWriter.Write = .change) throws { try writer.commit(&vault, as: write) }

    /// - Parameters:
    ///   - unlockers: the ways to unlock, tried in order (see `Unlocker`).
    ///   - host: time, boot id and runtime directory (tests inject their own).
    ///   - configuration: whom to tell, what to accept and pin, what to check (the defaults when left out).
    public init(location: VaultLocation, unlockers: [Unlocker], host: HostContext, configuration: Configuration = Configuration()) {
        self.location = location
        self.walk = UnlockWalk(unlockers)
        self.host = host
        self.configuration = configuration
        // What the keys are is known at once unless the login's keyring, read with the vault's id, comes first.
        walk.chooseNext(vaultID: nil)
    }

    /// A vault opened with `keys` alone; a session that has ended leaves what opens with no unlock.
    public convenience init(location: VaultLocation, keys: KeySource, host: HostContext, configuration: Configuration = Configuration()) {
        self.init(location: location, unlockers: [keys.unlocker], host: host, configuration: configuration)
    }

    /// A vault opened with a credential; `clock` sets created/modified dates (tests inject one).
    public convenience init(
        location: VaultLocation, credential: UnlockSecret, clock: @escaping @Sendable () -> Date = { Date() },
        configuration: Configuration = Configuration()
    ) {
        var host = Vault.selfContainedHost(for: location)
        host.now = clock
        self.init(location: location, keys: .credential(credential), host: host, configuration: configuration)
    }

    /// A host whose runtime files and device keys live in hidden folders
    /// beside the vault (`.runtime`, `.data`, `.state`): for the convenience initialiser
    /// and `create` without a host, as tests and embedders use them.
    static func selfContainedHost(for location: VaultLocation) -> HostContext {
        HostContext.live(environment: [
            "XDG_RUNTIME_DIR": location.directory + "/.runtime",
            "XDG_DATA_HOME": location.directory + "/.data",
            "XDG_STATE_HOME": location.directory + "/.state"
        ])
    }

    // MARK: creating

    /// Creates a new vault with one keyslot for `credential`, in a 0700
    /// directory, and this machine's device key for it in the host's device-key
    /// directory (by default, the self-contained host of the convenience
    /// initialiser). Throws `VaultError.vaultExists` when a vault is already there.
    /// With `loginSessionTimeout`, also starts an unlock session of that idle timeout and keeps it
    /// in this login's kernel keyring; where the keyring cannot keep it, returns why (the vault is made).
    @discardableResult
    public static func create(
        at location: VaultLocation, credential: UnlockSecret,
        kdf: Scrypt.Parameters = .interactive, host: HostContext? = nil,
        loginSessionTimeout: Int? = nil
    ) throws -> LoginKeyringProblem? {
        let host = host ?? selfContainedHost(for: location)
        let vault = try NewVaultFile.write(at: location, host: host) { vaultID, deviceKey in
            try WorkingCopy.create(
                vaultID: vaultID, slotKind: credential.slotKind, secret: credential.secret, kdf: kdf,
                deviceKey: deviceKey, path: location.path)
        }
        guard let loginSessionTimeout else { return nil }
        do {
            try LoginKeyring.startSession(of: vault, timeout: loginSessionTimeout, host: host)
            return nil
        } catch let problem as LoginKeyringProblem {
            return problem
        }
    }

    // MARK: reading

    /// The attributes of every item that matches `query` (no secrets), in file order.
    /// An empty result is not an error.
    public func attributes(matching query: Query) throws -> [ItemAttributes] {
        try holder.requireReach(query.group)
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
        try holder.requireReach(query.group)
        return try withKeys {
            let vault = try readSnapshot()
            try vault.requireExisting(query.group)
            let locked = vault.lockedCount(in: query.group)
            if locked > 0, canAsk { throw VaultError.locked(nil) }
            let items = try vault.attributes(matching: query, skipLocked: true)
            let damaged = vault.allDamagedGroups.map(\.group).filter { query.group == nil || $0 == query.group }
            return (items, locked, damaged)
        }
    }

    /// The one item that matches `query`, with its secret.
    /// Throws `itemNotFound` when none matches, `ambiguous` (listing them) when
    /// several do, and `itemExpired` when its expiry date has come.
    public func item(matching query: Query) throws -> Item {
        try holder.requireReach(query.group)
        return try withKeys {
            try openItem(matching: query, in: try readSnapshot(checking: query.indexCheck))
        }
    }

    /// The one item matching `query` in an opened file, with its secret, as `item(matching:)` gives it.
    func openItem(matching query: Query, in vault: some OpenVault) throws -> Item {
        try openItem(at: vault.single(try vault.positions(matching: query), query: query), in: vault)
    }

    /// The item at `position` with its secret; throws `itemExpired` when its expiry date has come.
    func openItem(at position: Int, in vault: some OpenVault) throws -> Item {
        let (item, inConflict) = try vault.openRecordNotingConflicts(at: position)
        if item.attributes.hasExpired(at: host.now()) { throw VaultError.itemExpired(item.attributes) }
        if inConflict { configuration.onNotice?(.itemInConflict(item.attributes.key)) }
        return item
    }

    // MARK: changing

    /// Adds an item. Throws `duplicateItem` when (group, service, account)
    /// exists, unless `replaceExisting` is set (like `security -U`), which
    /// replaces it and keeps its created date.
    @discardableResult
    public func add(_ new: NewItem, replaceExisting: Bool = false) throws -> AddOutcome {
        try Vault.validate(new)
        try holder.requireReach(new.group, writing: true)
        return try transaction { vault in try itemChanges.add(new, replaceExisting: replaceExisting, in: &vault) }
    }

    /// Changes the one item that matches `query`: its secret and/or attributes.
    /// A class change re-seals the item under the new class's keys.
    @discardableResult
    public func update(matching query: Query, with change: ItemChange) throws -> ItemAttributes {
        if let secret = change.secret { try Vault.validateSecret(secret) }
        try Vault.validate(change.details)
        try holder.requireReach(query.group, writing: true)
        return try transaction { vault in try itemChanges.update(matching: query, with: change, in: &vault) }
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
    package func move(
        matching query: Query, toService: String? = nil, toAccount: String? = nil,
        toGroup: AccessGroup? = nil, keepingHistory: Bool = false
    )
        throws -> (from: ItemAttributes, to: ItemAttributes, droppedRevisions: Int)
    {
        if let toService {
            guard !toService.isEmpty else { throw VaultError.invalidValue(.emptyService) }
            try Vault.validateAttribute("service", toService)
        }
        if let toAccount { try Vault.validateAttribute("account", toAccount) }
        try holder.requireReach(query.group, writing: true)
        try holder.requireReach(toGroup, writing: true)
        return try transaction { vault in
            try itemChanges.move(
                matching: query, toService: toService, toAccount: toAccount, toGroup: toGroup,
                keepingHistory: keepingHistory, in: &vault)
        }
    }

    /// Reads the one item that matches `query` and stores the secret that
    /// `newSecret` makes of it, under the writer's lock: no other writer can
    /// read the old secret in between. With `keepingPrevious` the secret it
    /// replaces joins the item's history, as `update` does (an edit); without,
    /// the history stays as it is (a one-time code's counter moving on).
    /// Returns the item as it was read.
    public func replaceSecret(matching query: Query, keepingPrevious: Bool, by newSecret: (Item) throws -> SecretBytes?) throws -> Item {
        try replace(nil, matching: query, keepingPrevious: keepingPrevious, by: newSecret)
    }

    /// `replaceSecret` for one sealed field of the item (an HOTP counter kept beside a password
    /// moving on); the secret and its history stay as they are.
    public func replaceField(_ field: SealedField, matching query: Query, by newValue: (Item) throws -> SecretBytes?) throws -> Item {
        try replace(field, matching: query, keepingPrevious: false, by: newValue)
    }

    /// The secret (`field` nil) or one sealed field of the one item matching `query` replaced by
    /// what `newValue` makes of the item, in one transaction.
    private func replace(
        _ field: SealedField?, matching query: Query, keepingPrevious: Bool,
        by newValue: (Item) throws -> SecretBytes?
    ) throws -> Item {
        try holder.requireReach(query.group, writing: true)
        return try transaction { vault in
            try itemChanges.replace(field, matching: query, keepingPrevious: keepingPrevious, by: newValue, in: &vault)
        }
    }

    /// How many days `delete` keeps an item in the trash when none is said (config `trash-days`).
    public static let defaultTrashDays = 30

    /// How many earlier secrets `update` keeps per item when none is said.
    public static let defaultRevisionsKept = 5

    /// Deletes the item that matches `query`, or every matching item when
    /// `allMatching` is set, keeping each in the trash for the configuration's `trashDays`; returns what was deleted. Without `allMatching`, a
    /// query that matches several items throws `ambiguous` and deletes nothing.
    @discardableResult
    public func delete(matching query: Query, allMatching: Bool = false) throws -> [ItemAttributes] {
        try holder.requireReach(query.group, writing: true)
        return try transaction { vault in try itemChanges.delete(matching: query, allMatching: allMatching, in: &vault) }
    }

    // MARK: what every write checks first (what an item may hold)

    /// Refuses an item that no backend stores: an empty service, an attribute or secret over the limits.
    package static func validate(_ new: NewItem) throws {
        guard !new.service.isEmpty else { throw VaultError.invalidValue(.emptyService) }
        try validateAttribute("service", new.service)
        try validateAttribute("account", new.account)
        try validate(new.details)
        try validateSecretSize(new.secret.count + new.fields.byteCount)
    }

    /// Refuses attributes over the size limit.
    package static func validate(_ details: ItemDetails) throws {
        for field in details.textFields {
            if let value = field.value { try validateAttribute(field.name, value) }
        }
    }

    static func validateAttribute(_ field: String, _ value: String) throws {
        let size = value.utf8.count
        guard size > ItemLimits.maxAttributeBytes else { return }
        throw VaultError.invalidValue(.attributeTooLarge(name: field, size: size, limit: ItemLimits.maxAttributeBytes))
    }

    /// Refuses a secret over 1 MiB.
    package static func validateSecret(_ secret: SecretBytes) throws {
        try validateSecretSize(secret.count)
    }

    /// Refuses a secret of `byteCount` bytes when it is over `ItemLimits.maxSecretBytes`
    /// (for a reader that stopped keeping bytes past the limit but counted them).
    package static func validateSecretSize(_ byteCount: Int) throws {
        guard byteCount > ItemLimits.maxSecretBytes else { return }
        throw VaultError.invalidValue(.secretTooLarge(size: byteCount, limit: ItemLimits.maxSecretBytes))
    }
}
