import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// A version of a vault file summarised for `git diff` and sync's commit messages
/// (`Vault.summary(ofVersion:label:)`): names and keyed digests with keys, ids without, never a secret.
@Suite struct FileSummaryTests {
    @Test func summaryNamesItemsAndDigestsSecretsUnderAGroupKey() throws {
        let dir = try TempDirectory()
        let location = dir.location()
        let vault = try Vault.makeTest(at: location)
        try vault.add("db", "prod", "hunter2", label: "Prod DB")
        try vault.add("web", "me", "hunter2")
        let before = try vault.summary(ofVersion: fileBytes(location.path), label: "v1")
        #expect(before.opened && before.entries.count == 2)
        let db = try #require(before.entries.first { $0.attributes?.service == "db" })
        let web = try #require(before.entries.first { $0.attributes?.service == "web" })
        #expect(db.attributes?.details.label == "Prod DB")
        // The same secret in two items: two digests (the item id is in the HMAC), none of them the secret's plain hash.
        #expect(db.secretDigest?.count == 12 && web.secretDigest?.count == 12 && db.secretDigest != web.secretDigest)
        let plainHash = hex(Array(SHA256.hash(Array("hunter2".utf8)).prefix(6)))
        #expect(db.secretDigest != plainHash)

        _ = try vault.update(matching: Query(service: "db", account: "prod"), with: ItemChange(secret: SecretBytes(Array("hunter3".utf8))))
        try vault.add("api", "x", "s3")
        _ = try vault.delete(matching: Query(service: "web", account: "me"))
        let after = try vault.summary(ofVersion: fileBytes(location.path), label: "v2")
        let changedDB = try #require(after.entries.first { $0.itemID == db.itemID })
        #expect(changedDB.secretDigest != db.secretDigest, "a new secret, a new digest")
        let changes = after.changes(since: before)
        #expect(changes.map(\.kind.rawValue).sorted() == ["added", "changed", "removed"])
        #expect(after.changes(since: nil).allSatisfy { $0.kind == .added })
    }

    @Test func withoutKeysTheSummaryHoldsOnlyWhatTheFileShows() throws {
        let dir = try TempDirectory()
        let location = dir.location()
        let vault = try Vault.makeTest(at: location)
        try vault.add("db", "prod", "hunter2", group: AccessGroup("ci")!)
        let locked = Vault(location: location, keys: .none, host: Vault.selfContainedHost(for: location))
        let summary = try locked.summary(ofVersion: fileBytes(location.path), label: "v1")
        #expect(!summary.opened && summary.groupNames.isEmpty)
        #expect(summary.entries.count == 1 && summary.entries[0].attributes == nil && summary.entries[0].secretDigest == nil)
        let keyed = try vault.summary(ofVersion: fileBytes(location.path), label: "v1")
        #expect(summary.entries[0].itemID == keyed.entries[0].itemID && summary.entries[0].revision == keyed.entries[0].revision)
        // A passphrase never opens a version (its KDF would run for every blob).
        let passphrase = Vault(
            location: location, keys: .credential(.passphrase(SecretBytes(Array("anything".utf8)))),
            host: Vault.selfContainedHost(for: location))
        #expect(try !passphrase.summary(ofVersion: fileBytes(location.path), label: "v1").opened)
        #expect(throws: VaultError.self) { try vault.summary(ofVersion: Array("not a vault".utf8), label: "v1") }
    }
}
