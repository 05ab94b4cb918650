import FoundationEssentials
import VaultCrypto

/// What to do when an imported item's group, service and account exist.
package enum ConflictPolicy: String, CaseIterable, Sendable {
    /// Keep the vault's item.
    case skip
    /// Replace it with the imported one.
    case replace
    /// Import nothing at all (errSecDuplicateItem).
    case fail
}

/// What `export` wrote.
package struct ExportOutcome: Sendable {
    /// How many items were written to the bundle.
    package var exported: Int
    /// Items of the `-this-device-only` classes: never exported.
    package var leftOut: Int
    /// Records that did not open with the right keys (damaged): left out, so the rest is saved.
    package var damaged: Int
}

/// What `import` did.
package struct ImportOutcome: Equatable, Sendable {
    /// Items that were new to this vault.
    package var added = 0
    /// Items that replaced one with the same group, service and account (`.replace`).
    package var replaced = 0
    /// Items left out because one with the same group, service and account exists (`.skip`).
    package var skipped = 0
}

/// Exports and imports (docs/CLI.md, `export`, `import`): what an export takes from an opened
/// vault, and items added to a working copy in one write.
enum Transfer {
    /// The items an export writes, with their secrets, in index order: those of `vault` that match
    /// `query` and `include`, except the `-this-device-only` ones, whose keys never leave this
    /// machine, and records that are damaged (both counted in the outcome). Needs full keys.
    static func exportable(
        matching query: Query, where include: (ItemAttributes) -> Bool, in vault: some OpenVault,
        progress: ProgressHandler?
    ) throws -> (items: [Item], outcome: ExportOutcome) {
        guard vault.keys.isFull else { throw VaultError.locked(nil) }
        try vault.requireExisting(query.group)
        let (positions, attributes) = try vault.matches(query, skipLocked: true)
        var items: [Item] = []
        var leftOut = 0
        var damaged = 0
        for (done, position) in positions.enumerated() {
            progress?(done + 1, positions.count)
            guard include(attributes[done]) else { continue }
            guard !attributes[done].accessibility.isDeviceBound else {
                leftOut += 1
                continue
            }
            do {
                items.append(try vault.openRecord(at: position))
            } catch VaultError.snapshot(.corrupted) {
                damaged += 1
            }
        }
        return (items, ExportOutcome(exported: items.count, leftOut: leftOut, damaged: damaged))
    }

    /// The items of the bundle at `path`, opened with `credential` (`damagedBundle` when it does not decode).
    static func items(ofBundleAt path: String, credential: UnlockSecret) throws -> [Item] {
        let bytes = try FileSystem.read(path, kind: .bundle, requirePrivate: false)
        do {
            return try ExportBundle.open(bytes, credential: credential)
        } catch let error as MalformedInput {
            throw VaultError.damagedBundle(path: path, detail: error.damage)
        }
    }

    /// `items` (from another password manager) as items created and modified `now`.
    static func items(_ items: [NewItem], dated now: Date) -> [Item] {
        items.map { new in
            Item(
                attributes: ItemAttributes(
                    service: new.service, account: new.account, group: new.group, accessibility: new.accessibility,
                    details: new.details, created: now, modified: now),
                secret: new.secret, fields: new.fields)
        }
    }

    /// Adds `items` to `vault`, keeping their attributes and dates; an item whose group, service and
    /// account exist follows `policy` (with `.fail`, one conflict imports nothing). Throws
    /// `invalidValue` for an item no backend stores.
    static func add(
        _ items: [Item], onConflict policy: ConflictPolicy, to vault: inout WorkingCopy,
        progress: ProgressHandler?
    ) throws -> ImportOutcome {
        var outcome = ImportOutcome()
        // Which items may exist, from one pass over the index: a lookup of each by scanning the
        // index made an import of n items take n² steps (200 000 items: minutes).
        let tagsBefore = vault.file.index.groupTags()
        var added = Set<ItemKey>()
        for (done, item) in items.enumerated() {
            progress?(done + 1, items.count)
            let attributes = item.attributes
            try Vault.validate(
                NewItem(
                    service: attributes.service, account: attributes.account, group: attributes.group,
                    accessibility: attributes.accessibility, details: attributes.details, secret: item.secret,
                    fields: item.fields))
            var mayExist = added.contains(attributes.key)
            if !mayExist, let groupID = vault.keys.groupID(of: attributes.group) {
                let tag = Bytes16(try vault.keys.lookupTag(groupID: groupID, service: attributes.service, account: attributes.account))
                mayExist = tagsBefore.contains(GroupTag(groupID: groupID, tag: tag))
            }
            let existing =
                mayExist
                ? try vault.positions(
                    matching: Query(
                        service: attributes.service, account: attributes.account,
                        group: attributes.group)
                ).first : nil
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
