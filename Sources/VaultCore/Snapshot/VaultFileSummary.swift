import FoundationEssentials
import VaultCrypto

/// What one version of a vault file holds, item by item, never a secret: what `git diff` shows
/// through `vault textconv` and what `vault sync` counts for its commit messages
/// (docs/TEAMS.md, "Reading a team vault's history").
package struct VaultFileSummary: Sendable {
    /// One item of the file: its ids, which the file shows to anyone, and, when the keys at hand
    /// open its record, its attributes and a keyed digest of its secret.
    package struct Entry: Sendable {
        /// The item's id, stable for its life (renames and updates keep it), as hex.
        package var itemID: String
        /// The id of the item's group, as the file shows it.
        package var groupID: UInt32
        /// A short hash of the sealed record (hex): it changes whenever the record is written again.
        package var revision: String
        /// The item's attributes, when its record opened with the keys at hand.
        package var attributes: ItemAttributes?
        /// HMAC of the item id and the secret under a key only readers of the group hold
        /// (`KeyRing.secretDigestKey`), shortened, as hex: it changes when the secret does.
        package var secretDigest: String?
    }

    /// The format version of the file.
    package var formatVersion: UInt16
    /// The key epoch of the file (raised by re-keys and revokes).
    package var keyEpoch: UInt64
    /// Every item, in file order.
    package var entries: [Entry]
    /// The names of the groups the keys at hand open, by group id.
    package var groupNames: [UInt32: String]
    /// Whether keys were at hand that opened the file (any of its records may still be locked).
    package var opened: Bool

    /// Hex digits of a secret digest: 48 bits tell versions of one item apart; the key, not the
    /// length, is what stops a search for the secret.
    static let secretDigestBytes = 6
    /// Hex digits of an item id or a revision in a summary.
    static let idBytes = 8

    /// What changed from `older` (nil: the file did not exist) to this version, item by item (by
    /// item id), in this version's file order, then the items removed.
    package func changes(since older: VaultFileSummary?) -> [ItemChangeSummary] {
        let before = Dictionary((older?.entries ?? []).map { ($0.itemID, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [ItemChangeSummary] = []
        var present = Set<String>()
        for entry in entries {
            present.insert(entry.itemID)
            guard let old = before[entry.itemID] else {
                changes.append(ItemChangeSummary(kind: .added, entry: entry))
                continue
            }
            if old.revision != entry.revision || old.groupID != entry.groupID {
                changes.append(ItemChangeSummary(kind: .changed, entry: entry))
            }
        }
        for old in older?.entries ?? [] where !present.contains(old.itemID) {
            changes.append(ItemChangeSummary(kind: .removed, entry: old))
        }
        return changes
    }
}

/// One item a new version of a vault file added, changed or removed.
package struct ItemChangeSummary: Sendable {
    /// What happened to the item.
    package enum Kind: String, Sendable, CaseIterable {
        /// The item is in both versions, its record written again (or moved to another group).
        case changed
        /// The item is only in the newer version.
        case added
        /// The item is only in the older version.
        case removed
    }
    /// What happened to the item.
    package var kind: Kind
    /// The item as the newer version holds it (the older, when removed).
    package var entry: VaultFileSummary.Entry
}

extension VaultFileSummary {
    /// The summary of `file`, a version of a vault file: its items' ids, and with `opened` (the
    /// file opened with the keys that open at once) their attributes, secret digests and group names.
    init(_ file: VaultFile, opened: Snapshot?) {
        var entries: [VaultFileSummary.Entry] = []
        entries.reserveCapacity(file.index.count)
        for position in file.index.indices {
            let indexEntry = file.index[position]
            var entry = VaultFileSummary.Entry(
                itemID: hex(Array(indexEntry.itemID.bytes.prefix(VaultFileSummary.idBytes))),
                groupID: indexEntry.groupID.rawValue,
                revision: hex(Array(indexEntry.digest.0.bytes.prefix(VaultFileSummary.idBytes))))
            if let opened, let item = try? opened.openRecord(at: position),
                let digestKey = try? opened.keys.secretDigestKey(groupID: indexEntry.groupID)
            {
                entry.attributes = item.attributes
                entry.secretDigest = VaultFileSummary.secretDigest(item.secret, itemID: indexEntry.itemID.bytes, key: digestKey)
            }
            entries.append(entry)
        }
        var names: [UInt32: String] = [:]
        for (id, keys) in opened?.keys.groups ?? [:] { names[id.rawValue] = keys.group.name }
        self.init(formatVersion: file.version, keyEpoch: file.keyEpoch, entries: entries, groupNames: names, opened: opened != nil)
    }

    private static func secretDigest(_ secret: SecretBytes, itemID: [UInt8], key: SecretBytes) -> String? {
        guard let mac = try? HMACSHA256(key: key) else { return nil }
        mac.update(itemID)
        secret.withUnsafeBytes { mac.update($0) }
        return hex(Array(mac.finalize().prefix(VaultFileSummary.secretDigestBytes)))
    }
}
