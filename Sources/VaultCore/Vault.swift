import FoundationEssentials
import VaultCrypto

/// A vault file opened with one credential: the SecItem-style API (add,
/// copy-matching, update, delete). Reads work on a snapshot; every change
/// takes the sidecar lock, re-reads the file, applies the change and replaces
/// the file atomically, so parallel writers lose no update.
public final class Vault: ItemStore {
    public let location: VaultLocation
    private let credential: Credential
    private let clock: () -> Date

    /// - Parameters:
    ///   - clock: the time source for created/modified dates (tests inject one).
    public init(location: VaultLocation, credential: Credential, clock: @escaping () -> Date = { Date() }) {
        self.location = location
        self.credential = credential
        self.clock = clock
    }

    // MARK: creating

    /// Creates a new vault with one keyslot for `credential`, in a 0700
    /// directory, with this machine's device key beside it (made if missing).
    /// Throws `VaultError.vaultExists` when a vault is already there.
    public static func create(at location: VaultLocation, credential: Credential,
                              kdf: Scrypt.Parameters = .interactive) throws {
        try FileSystem.makeDirectory(location.directory)
        let lock = try LockFile(path: location.lockPath)
        defer { withExtendedLifetime(lock) {} }
        guard !FileSystem.exists(location.path) else { throw VaultError.vaultExists(path: location.path) }
        let deviceKey = try DeviceKey.loadOrCreate(at: location.deviceKeyPath)
        let vault = try OpenVault.create(slotKind: credential.slotKind, secret: credential.secret, kdf: kdf,
                                         deviceKey: deviceKey, path: location.path)
        try FileSystem.writeAtomically(try vault.encode(), to: location.path, directory: location.directory)
    }

    // MARK: reading

    /// The attributes of every item that matches `query` (no secrets), in file order.
    /// An empty result is not an error.
    public func attributes(matching query: Query) throws -> [ItemAttributes] {
        let vault = try readSnapshot()
        return try vault.positions(matching: query).map { try vault.openRecord(at: $0).attributes }
    }

    /// The one item that matches `query`, with its secret.
    /// Throws `itemNotFound` when none matches and `ambiguous` (listing them) when several do.
    public func item(matching query: Query) throws -> Item {
        let vault = try readSnapshot()
        let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
        return try vault.openRecord(at: position)
    }

    // MARK: changing

    /// Adds an item. Throws `duplicateItem` when (group, service, account)
    /// exists, unless `replaceExisting` is set (like `security -U`), which
    /// replaces it and keeps its created date.
    @discardableResult
    public func add(_ new: NewItem, replaceExisting: Bool = false) throws -> AddOutcome {
        try Vault.validate(new)
        return try transaction { vault in
            let key = Query(service: new.service, account: new.account, group: new.group)
            let existing = try vault.positions(matching: key).first
            if existing != nil, !replaceExisting {
                throw VaultError.duplicateItem(ItemKey(group: new.group, service: new.service, account: new.account))
            }
            let now = clock()
            let created = try existing.map { try vault.openRecord(at: $0).attributes.created } ?? now
            let attributes = ItemAttributes(service: new.service, account: new.account, group: new.group,
                                            accessibility: new.accessibility, details: new.details, created: created, modified: now)
            try vault.store(attributes, secret: new.secret, replacing: existing)
            return existing == nil ? .added : .replaced
        }
    }

    /// Changes the one item that matches `query`: its secret and/or attributes.
    /// A class change re-seals the item under the new class's keys.
    @discardableResult
    public func update(matching query: Query, with change: ItemChange) throws -> ItemAttributes {
        if let secret = change.secret { try Vault.validateSecret(secret) }
        try Vault.validate(change.details)
        return try transaction { vault in
            let position = try Vault.single(try vault.positions(matching: query), in: vault, query: query)
            let item = try vault.openRecord(at: position)
            var attributes = item.attributes
            attributes.accessibility = change.accessibility ?? attributes.accessibility
            attributes.details = attributes.details.applying(change.details)
            attributes.modified = clock()
            try vault.store(attributes, secret: change.secret ?? item.secret, replacing: position)
            return attributes
        }
    }

    /// Deletes the item that matches `query`, or every matching item when
    /// `allMatching` is set; returns what was deleted. Without `allMatching`, a
    /// query that matches several items throws `ambiguous` and deletes nothing.
    @discardableResult
    public func delete(matching query: Query, allMatching: Bool = false) throws -> [ItemAttributes] {
        try transaction { vault in
            let positions = try vault.positions(matching: query)
            if !allMatching { _ = try Vault.single(positions, in: vault, query: query) }
            guard !positions.isEmpty else { throw VaultError.itemNotFound(query) }
            let deleted = try positions.map { try vault.openRecord(at: $0).attributes }
            vault.remove(at: positions)
            return deleted
        }
    }

    // MARK: keyslots

    /// Replaces every passphrase keyslot with one for `newPassphrase`.
    public func changePassphrase(to newPassphrase: SecretBytes, kdf: Scrypt.Parameters = .interactive) throws {
        try transaction { vault in try vault.replacePassphrase(with: newPassphrase, kdf: kdf) }
    }

    /// Adds a keyslot that opens with the content of a key file.
    public func addKeyFile(_ content: SecretBytes) throws {
        try transaction { vault in try vault.addKeyslot(kind: .keyFile, secret: content, kdf: .interactive) }
    }

    /// Removes the keyslot that the key file content opens. Throws
    /// `noKeyslot` when no slot opens with it and `lastKeyslot` when it is the only one.
    public func removeKeyFile(_ content: SecretBytes) throws {
        try transaction { vault in
            guard try vault.removeKeyslots(kind: .keyFile, openedBy: content) > 0 else {
                throw VaultError.noKeyslot(.keyFile)
            }
        }
    }

    /// Removes every passphrase keyslot; a key-file keyslot must remain.
    public func removePassphrase() throws {
        try transaction { vault in
            guard vault.hasKeyslot(.keyFile) else { throw VaultError.lastKeyslot }
            _ = try vault.removeKeyslots(kind: .passphrase, openedBy: nil)
        }
    }

    // MARK: plumbing

    private func readSnapshot() throws -> OpenVault {
        let bytes = try FileSystem.read(location.path, requirePrivate: true, missing: .noSuchVault(path: location.path))
        return try OpenVault.unlock(bytes, credential: credential, deviceKey: try DeviceKey.load(at: location.deviceKeyPath),
                                    path: location.path)
    }

    /// Runs `body` under the writer lock on a fresh read of the file, then writes the result atomically.
    private func transaction<R>(_ body: (inout OpenVault) throws -> R) throws -> R {
        guard FileSystem.exists(location.path) else { throw VaultError.noSuchVault(path: location.path) }
        let lock = try LockFile(path: location.lockPath)
        defer { withExtendedLifetime(lock) {} }
        var vault = try readSnapshot()
        let result = try body(&vault)
        try FileSystem.writeAtomically(try vault.encode(), to: location.path, directory: location.directory)
        return result
    }

    private static func single(_ positions: [Int], in vault: OpenVault, query: Query) throws -> Int {
        guard let first = positions.first else { throw VaultError.itemNotFound(query) }
        guard positions.count == 1 else {
            throw VaultError.ambiguous(try positions.map { try vault.openRecord(at: $0).attributes })
        }
        return first
    }

    private static func validate(_ new: NewItem) throws {
        guard !new.service.isEmpty else { throw VaultError.invalidValue(field: "service", detail: "it is empty") }
        try validateAttribute("service", new.service)
        try validateAttribute("account", new.account)
        try validate(new.details)
        try validateSecret(new.secret)
    }

    private static func validate(_ details: ItemDetails) throws {
        for field in details.textFields {
            if let value = field.value { try validateAttribute(field.name, value) }
        }
    }

    private static func validateAttribute(_ field: String, _ value: String) throws {
        let size = value.utf8.count
        guard size > ItemLimits.maxAttributeBytes else { return }
        throw VaultError.invalidValue(field: field, detail: "it is \(size) bytes; the limit is \(ItemLimits.maxAttributeBytes)")
    }

    private static func validateSecret(_ secret: SecretBytes) throws {
        guard secret.count > ItemLimits.maxSecretBytes else { return }
        throw VaultError.invalidValue(field: "secret", detail: "it is \(secret.count) bytes; the limit is \(ItemLimits.maxSecretBytes) (1 MiB)")
    }
}
