import Foundation
@testable import VaultCore
import VaultCrypto

/// What a writer of one group alone can put into a vault file (issue 47): data sealed only in that
/// group's sections, naming whatever it likes. A read-write holder of the group's keys can seal a
/// tombstone block of its group and a record of its group whatever they say, and reads every other
/// group's item ids and record digests in the index in the clear. The test holds the owner's keys, so
/// it writes these through the working copy's seams, sealing nothing but `group`'s blocks.
enum GroupWriterForgery {
    /// The item ids and record digests of `group`'s items (nil: every group's) as `vault`'s index
    /// shows them, by name: what any reader of the file sees of other groups' items, the names aside
    /// (the test takes those from the owner's listing, to say which item a forgery aims at).
    static func indexEntries(of vault: Vault, group: AccessGroup? = nil) throws -> [ItemKey: (itemID: Bytes16, recordDigest: [UInt8])] {
        try vault.withKeys {
            let snapshot = try vault.readSnapshot()
            var found: [ItemKey: (itemID: Bytes16, recordDigest: [UInt8])] = [:]
            for position in try snapshot.positions(matching: Query(group: group)) {
                let entry = snapshot.file.index[position]
                guard let attributes = try? snapshot.openAttributes(at: position) else { continue }
                found[attributes.key] = (entry.itemID, entry.digest.0.bytes + entry.digest.1.bytes)
            }
            return found
        }
    }

    /// Adds to `group`'s tombstone block a tombstone naming `itemID` (of any group) removed at
    /// `recordDigest`, with `contentDigest` (zero: a revision the writer could not open).
    static func tombstone(
        in vault: Vault, group: AccessGroup, naming itemID: Bytes16, recordDigest: [UInt8],
        contentDigest: [UInt8] = Tombstone.unknownContent
    ) throws {
        try vault.transaction { wc in
            guard let groupID = try wc.groupID(for: group, creating: false) else { throw VaultError.noSuchGroup(group) }
            let removedAt = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
            wc.pending.tombstones.added[groupID, default: []].append(
                Tombstone(itemID: itemID, removedAt: removedAt, recordDigest: recordDigest, contentDigest: contentDigest))
        }
    }

    /// Seals the record of `key` again, in its own group and class, holding one conflict of kind 1
    /// (the other version inline) whose version names `group` and `accessibility`, with `secret`:
    /// what `resolve` would take for a version of that group. The record's earlier conflicts go (a
    /// writer of `key.group` alone could not open a version sealed elsewhere to copy it).
    static func conflict(
        in vault: Vault, on key: ItemKey, naming group: AccessGroup, accessibility: Accessibility,
        service: String? = nil, account: String? = nil, secret: String
    ) throws {
        try vault.transaction { wc in
            let query = Query(service: key.service, account: key.account, group: key.group)
            guard let position = try wc.positions(matching: query).first else { throw VaultError.itemNotFound(query) }
            let record = try wc.openWholeRecord(at: position)
            var attributes = record.item.attributes
            attributes.group = group
            attributes.accessibility = accessibility
            attributes.service = service ?? attributes.service
            attributes.account = account ?? attributes.account
            let version = Item(attributes: attributes, secret: SecretBytes(Array(secret.utf8)))
            let plaintext = RecordCodec.encodePlaintext(
                record.item, history: record.history,
                conflicts: [ItemConflict(currentSide: .ours, other: version, origin: "forged")])
            try wc.store(plaintext: plaintext, of: record.item.attributes, replacing: position)
        }
    }
}
