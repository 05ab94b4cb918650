import VaultCrypto

/// What to do when an imported item's group, service and account exist.
public enum ConflictPolicy: String, CaseIterable, Sendable {
    /// Keep the vault's item.
    case skip
    /// Replace it with the imported one.
    case replace
    /// Import nothing at all (errSecDuplicateItem).
    case fail
}

/// Moving items between vaults: `export` to an encrypted bundle, `import` from one or from
/// another password manager's entries.
extension Vault {
    /// What `export` wrote.
    public struct ExportOutcome: Sendable {
        /// How many items were written to the bundle.
        public var exported: Int
        /// Items of the `-this-device-only` classes: never exported.
        public var leftOut: Int
        /// Records that did not open with the right keys (damaged): left out, so the rest is saved.
        public var damaged: Int
    }

    /// Writes every item except the `-this-device-only` ones (and records that are damaged) to a new bundle
    /// file (0600) at `path`, sealed under `credential`: a passphrase or key
    /// file of the bundle's own.
    public func export(to path: String, credential: UnlockSecret, kdf: Scrypt.Parameters = .interactive) throws -> ExportOutcome {
        let (bundle, outcome) = try sealedBundle(credential: credential, kdf: kdf)
        try FileSystem.createExclusive(bundle, at: path)
        return outcome
    }

    /// The bytes of a bundle `export(to:)` would write, for a caller that sends them elsewhere (stdout).
    public func sealedBundle(credential: UnlockSecret, kdf: Scrypt.Parameters = .interactive) throws -> (bundle: [UInt8], outcome: ExportOutcome) {
        try requireOwner("export items")
        return try withKeys {
            let vault = try readSnapshot()
            guard vault.keys.isFull else { throw VaultError.locked(nil) }
            var items: [Item] = []
            var leftOut = 0
            var damaged = 0
            for (position, entry) in vault.file.index.enumerated() {
                progress?(position + 1, vault.file.index.count)
                guard let accessibility = Accessibility(fileID: entry.classID), !accessibility.isDeviceBound else {
                    leftOut += 1
                    continue
                }
                do {
                    items.append(try vault.openRecord(at: position))
                } catch VaultError.corrupted {
                    damaged += 1
                }
            }
            return (try ExportBundle.seal(items, credential: credential, kdf: kdf),
                    ExportOutcome(exported: items.count, leftOut: leftOut, damaged: damaged))
        }
    }

    /// What `import` did.
    public struct ImportOutcome: Equatable, Sendable {
        /// Items that were new to this vault.
        public var added = 0
        /// Items that replaced one with the same group, service and account (`.replace`).
        public var replaced = 0
        /// Items left out because one with the same group, service and account exists (`.skip`).
        public var skipped = 0
    }

    /// Adds the items of the bundle at `path`, keeping their attributes and
    /// dates. An item whose group, service and account exist follows `policy`;
    /// with `.fail`, one conflict imports nothing.
    public func importBundle(at path: String, credential: UnlockSecret, onConflict policy: ConflictPolicy) throws -> ImportOutcome {
        try requireOwner("import items")
        let bytes = try FileSystem.read(path, kind: .bundle, requirePrivate: false)
        let items: [Item]
        do {
            items = try ExportBundle.open(bytes, credential: credential)
        } catch let error as MalformedInput {
            throw VaultError.damagedBundle(path: path, detail: error.detail)
        }
        return try importing(items, onConflict: policy)
    }

    /// Adds `items` (from another password manager: `ImportEntry`), dated now, in one write; an
    /// item whose group, service and account exist follows `policy` as in `importBundle`. Groups
    /// that do not exist are created, as `add` creates them.
    public func importItems(_ items: [NewItem], onConflict policy: ConflictPolicy) throws -> ImportOutcome {
        try requireOwner("import items")
        let now = host.now()
        return try importing(items.map { new in
            Item(attributes: ItemAttributes(service: new.service, account: new.account, group: new.group, accessibility: new.accessibility,
                                            details: new.details, created: now, modified: now),
                 secret: new.secret, fields: new.fields)
        }, onConflict: policy)
    }

    private func importing(_ items: [Item], onConflict policy: ConflictPolicy) throws -> ImportOutcome {
        try transaction { vault in
            var outcome = ImportOutcome()
            for (done, item) in items.enumerated() {
                progress?(done + 1, items.count)
                let attributes = item.attributes
                try Vault.validate(NewItem(service: attributes.service, account: attributes.account, group: attributes.group,
                                           accessibility: attributes.accessibility, details: attributes.details, secret: item.secret,
                                           fields: item.fields))
                let existing = try vault.positions(matching: Query(service: attributes.service, account: attributes.account,
                                                                   group: attributes.group)).first
                switch (existing, policy) {
                case (nil, _):
                    try vault.store(item)
                    outcome.added += 1
                case (_?, .skip):
                    outcome.skipped += 1
                case (let position?, .replace):
                    try vault.store(item, replacing: position)
                    outcome.replaced += 1
                case (_?, .fail):
                    throw VaultError.duplicateItem(attributes.key)
                }
            }
            return outcome
        }
    }
}
