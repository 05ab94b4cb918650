import FoundationEssentials
import Testing
@testable import VaultCore

/// `ListedItems` finds each item a writer listed in index order without hashing, and falls back to
/// looking items up by id when a block lists them in another order; either way every item listed
/// is taken once, and one left over or one not listed shows.
@Suite struct ListedItemsTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// One opened block (bucket 0 of 1) listing `services`, each under its item id.
    static func listing(_ entries: [(id: Bytes16, service: String)]) -> OpenedListing {
        var w = ByteWriter(capacity: 256)
        var items: [(itemID: Bytes16, fields: Range<Int>)] = []
        for entry in entries {
            var fields = ByteWriter(capacity: 64)
            RecordCodec.encodeAttributes(ItemAttributes(service: entry.service, account: "a", created: now, modified: now), into: &fields)
            let start = w.bytes.count
            w.raw(fields.bytes)
            items.append((entry.id, start..<w.bytes.count))
        }
        return OpenedListing(bucket: 0, plaintext: w.bytes, items: items, group: .default, accessibility: .whenUnlocked)
    }

    let ids = (0..<4).map { _ in Bytes16.random() }

    @Test func itemsTakenInTheOrderListedAreAllFound() throws {
        var listed = ListedItems(listings: [Self.listing(ids.enumerated().map { ($1, "s\($0)") })], path: "v")
        for (number, id) in ids.enumerated() {
            #expect(try listed.take(id)?.service == "s\(number)")
        }
        #expect(listed.areAllTaken)
    }

    @Test func itemsListedInAnotherOrderAreFoundByID() throws {
        var listed = ListedItems(listings: [Self.listing(ids.enumerated().map { ($1, "s\($0)") })], path: "v")
        #expect(try listed.take(ids[0])?.service == "s0")
        #expect(try listed.take(ids[2])?.service == "s2")  // out of order: looked up by id from here on
        #expect(try listed.take(ids[1])?.service == "s1")
        #expect(try listed.take(ids[1]) == nil)  // taken already
        #expect(!listed.areAllTaken)
        #expect(try listed.take(ids[3])?.service == "s3")
        #expect(listed.areAllTaken)
    }

    /// An item id repeated in the index and in its block (only a writer of the group can make one)
    /// is taken as often as both hold it; `verify` and every write refuse such a file.
    @Test func anItemIDListedTwiceIsTakenTwice() throws {
        var listed = ListedItems(listings: [Self.listing([(ids[0], "s0"), (ids[0], "again")])], path: "v")
        #expect(try listed.take(ids[0])?.service == "s0")
        #expect(try listed.take(ids[0])?.service == "again")
        #expect(listed.areAllTaken)
    }

    @Test func anItemNotListedIsNilAndOneLeftOverShows() throws {
        var listed = ListedItems(listings: [Self.listing([(ids[0], "s0"), (ids[1], "s1")])], path: "v")
        #expect(try listed.take(ids[2]) == nil)
        #expect(try listed.take(ids[0])?.service == "s0")
        #expect(!listed.areAllTaken)
    }
}

/// What a read decrypts: a `get` finds its item by the record's attributes and reads its secret
/// from the same record, decrypted once (issue 33).
@Suite struct RecordDecryptionTests {
    @Test func aGetDecryptsItsRecordOnce() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        for i in 0..<5 { try vault.add("svc-\(i)", "acct", "secret-\(i)") }
        let query = Query(service: "svc-3", account: "acct")
        let (secret, counts) = try vault.withKeys {
            let snapshot = try vault.readSnapshot(checking: query.indexCheck)
            let item = try vault.openItem(matching: query, in: snapshot)
            return (item.secret.text, snapshot.lastOpened.decryptions)
        }
        #expect(secret == "secret-3")
        #expect(counts == 1, "records decrypted for one get: \(counts)")
    }
}
