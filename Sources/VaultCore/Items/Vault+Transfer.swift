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

    /// Writes the items `exportableItems(matching:where:)` chooses to a new bundle file (0600) at
    /// `path`, sealed under `credential`: a passphrase or key file of the bundle's own.
    public func export(to path: String, matching query: Query = Query(), where include: (ItemAttributes) -> Bool = { _ in true },
                       credential: UnlockSecret, kdf: Scrypt.Parameters = .interactive) throws -> ExportOutcome {
        let (bundle, outcome) = try sealedBundle(matching: query, where: include, credential: credential, kdf: kdf)
        try FileSystem.createExclusive(bundle, at: path)
        return outcome
    }

    /// The bytes of a bundle `export(to:)` would write, for a caller that sends them elsewhere (stdout).
    public func sealedBundle(matching query: Query = Query(), where include: (ItemAttributes) -> Bool = { _ in true },
                             credential: UnlockSecret, kdf: Scrypt.Parameters = .interactive) throws -> (bundle: [UInt8], outcome: ExportOutcome) {
        let (items, outcome) = try exportableItems(matching: query, where: include)
        return (try ExportBundle.seal(items, credential: credential, kdf: kdf), outcome)
    }

    /// The items an export writes, with their secrets, in index order: those that match `query` and
    /// `include`, except the `-this-device-only` ones, whose keys never leave this machine, and
    /// records that are damaged (both counted in the outcome). Needs the owner's or a full member's keys.
    public func exportableItems(matching query: Query = Query(),
                                where include: (ItemAttributes) -> Bool = { _ in true }) throws -> (items: [Item], outcome: ExportOutcome) {
        try requireOwner(.exportItems)
        return try withKeys {
            let vault = try readSnapshot()
            guard vault.keys.isFull else { throw VaultError.locked(nil) }
            try vault.requireExisting(query.group)
            let (positions, attributes) = try vault.matches(query, skipLocked: true)
            var items: [Item] = []
            var leftOut = 0
            var damaged = 0
            for (done, position) in positions.enumerated() {
                configuration.progress?(done + 1, positions.count)
                guard include(attributes[done]) else { continue }
                guard !attributes[done].accessibility.isDeviceBound else {
                    leftOut += 1
                    continue
                }
                do {
                    items.append(try vault.openRecord(at: position))
                } catch VaultError.corrupted {
                    damaged += 1
                }
            }
            return (items, ExportOutcome(exported: items.count, leftOut: leftOut, damaged: damaged))
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
        try requireOwner(.importItems)
        let bytes = try FileSystem.read(path, kind: .bundle, requirePrivate: false)
        let items: [Item]
        do {
            items = try ExportBundle.open(bytes, credential: credential)
        } catch let error as MalformedInput {
            throw VaultError.damagedBundle(path: path, detail: error.damage)
        }
        return try importItems(items, onConflict: policy)
    }

    /// Adds `items` (from another password manager: `ImportEntry`), dated now, in one write; an
    /// item whose group, service and account exist follows `policy` as in `importBundle`. Groups
    /// that do not exist are created, as `add` creates them.
    public func importItems(_ items: [NewItem], onConflict policy: ConflictPolicy) throws -> ImportOutcome {
        let now = host.now()
        return try importItems(items.map { new in
            Item(attributes: ItemAttributes(service: new.service, account: new.account, group: new.group, accessibility: new.accessibility,
                                            details: new.details, created: now, modified: now),
                 secret: new.secret, fields: new.fields)
        }, onConflict: policy)
    }

    /// Adds `items` in one write, keeping their attributes and dates (an export's items, or those of
    /// a plaintext export read back). An item whose group, service and account exist follows
    /// `policy`; with `.fail`, one conflict imports nothing. Throws `invalidValue` for an item no
    /// backend stores, importing nothing.
    public func importItems(_ items: [Item], onConflict policy: ConflictPolicy) throws -> ImportOutcome {
        try requireOwner(.importItems)
        return try transaction { vault in
            var outcome = ImportOutcome()
            // Which items may exist, from one pass over the index: a lookup of each by scanning the
            // index made an import of n items take n² steps (200 000 items: minutes).
            let tagsBefore = vault.file.index.groupTags()
            var added = Set<ItemKey>()
            for (done, item) in items.enumerated() {
                configuration.progress?(done + 1, items.count)
                let attributes = item.attributes
                try Vault.validate(NewItem(service: attributes.service, account: attributes.account, group: attributes.group,
                                           accessibility: attributes.accessibility, details: attributes.details, secret: item.secret,
                                           fields: item.fields))
                var mayExist = added.contains(attributes.key)
                if !mayExist, let groupID = vault.keys.groupID(of: attributes.group) {
                    let tag = Bytes16(try vault.keys.lookupTag(groupID: groupID, service: attributes.service, account: attributes.account))
                    mayExist = tagsBefore.contains(GroupTag(groupID: groupID, tag: tag))
                }
                let existing = mayExist ? try vault.positions(matching: Query(service: attributes.service, account: attributes.account,
                                                                              group: attributes.group)).first : nil
                switch (existing, policy) {
                case (nil, _):
                    try vault.store(item)
                    added.insert(attributes.key)
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
