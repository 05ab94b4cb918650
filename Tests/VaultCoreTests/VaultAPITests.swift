import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The Keychain-style API: add / copy-matching / update / delete and their statuses.
@Suite struct VaultAPITests {
    @Test func addThenReadBack() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        #expect(try vault.add("github", "ci-bot", "token-1", label: "CI") == .added)
        let item = try vault.item(matching: Query(service: "github", account: "ci-bot"))
        #expect(item.secret.text == "token-1")
        #expect(item.attributes.details.label == "CI")
        #expect(item.attributes.group == .default)
        #expect(item.attributes.accessibility == .whenUnlocked)
    }

    @Test func duplicateIsRefusedAndReplaceKeepsCreated() throws {
        let dir = try TempDirectory()
        let clock = TestClock()
        let vault = try Vault.makeTest(at: dir.location(), clock: clock)
        try vault.add("svc", "acct", "one")
        let before = fileBytes(dir.location().path)
        #expect(throws: VaultError.duplicateItem(ItemKey(group: .default, service: "svc", account: "acct"))) {
            try vault.add("svc", "acct", "two")
        }
        #expect(fileBytes(dir.location().path) == before)
        clock.advance(60)
        let outcome = try vault.add(NewItem(service: "svc", account: "acct", secret: SecretBytes(Array("two".utf8))), replaceExisting: true)
        #expect(outcome == .replaced)
        let attributes = try vault.item(matching: Query(service: "svc", account: "acct")).attributes
        #expect(attributes.modified.timeIntervalSince(attributes.created) == 60)
        #expect(try vault.secret("svc", "acct") == "two")
    }

    @Test func sameKeyInTwoGroupsIsTwoItems() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        let ci = AccessGroup("ci")!
        try vault.add("svc", "acct", "default-secret")
        try vault.add("svc", "acct", "ci-secret", group: ci)
        #expect(try vault.secret("svc", "acct", group: ci) == "ci-secret")
        #expect(try vault.secret("svc", "acct", group: .default) == "default-secret")
        #expect(throws: VaultError.self) { try vault.item(matching: Query(service: "svc", account: "acct")) }
        do {
            _ = try vault.item(matching: Query(service: "svc", account: "acct"))
        } catch VaultError.item(.ambiguous(let candidates)) {
            #expect(Set(candidates.map(\.group)) == [.default, ci])
        }
    }

    @Test func queriesMatchAnySubsetOfAttributes() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("db", "alice", "a", label: "primary")
        try vault.add("db", "bob", "b", accessibility: .afterFirstUnlock)
        try vault.add("web", "alice", "w")
        #expect(try vault.attributes(matching: Query(service: "db")).map(\.account) == ["alice", "bob"])
        #expect(try vault.attributes(matching: Query(account: "alice")).map(\.service) == ["db", "web"])
        #expect(try vault.attributes(matching: Query(accessibility: .afterFirstUnlock)).map(\.account) == ["bob"])
        #expect(try vault.attributes(matching: Query(label: "primary")).map(\.account) == ["alice"])
        #expect(try vault.attributes(matching: Query()).count == 3)
        #expect(try vault.attributes(matching: Query(service: "none")).isEmpty)
        #expect(throws: VaultError.itemNotFound(Query(service: "none", account: "x"))) {
            try vault.item(matching: Query(service: "none", account: "x"))
        }
    }

    @Test func updateChangesSecretAttributesAndClass() throws {
        let dir = try TempDirectory()
        let clock = TestClock()
        let vault = try Vault.makeTest(at: dir.location(), clock: clock)
        try vault.add("svc", "acct", "old", label: "L1")
        let created = try vault.item(matching: Query(service: "svc", account: "acct")).attributes.created
        clock.advance(3600)
        let updated = try vault.update(
            matching: Query(service: "svc", account: "acct"),
            with: ItemChange(
                accessibility: .afterFirstUnlock, details: ItemDetails(label: "L2"),
                secret: SecretBytes(Array("new".utf8))))
        #expect(updated.created == created)
        #expect(updated.modified == clock.now)
        let item = try vault.item(matching: Query(service: "svc", account: "acct"))
        #expect(item.secret.text == "new")
        #expect(item.attributes.details.label == "L2")
        #expect(item.attributes.accessibility == .afterFirstUnlock)
    }

    @Test func deleteOneOrAllMatching() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        for account in ["a", "b", "c"] { try vault.add("svc", account, account) }
        try vault.add("other", "a", "x")
        let before = fileBytes(dir.location().path)
        #expect(throws: VaultError.self) { try vault.delete(matching: Query(service: "svc")) }
        #expect(fileBytes(dir.location().path) == before)
        #expect(try vault.delete(matching: Query(service: "svc", account: "b")).count == 1)
        #expect(try vault.delete(matching: Query(service: "svc"), allMatching: true).count == 2)
        #expect(try vault.attributes(matching: Query()).map(\.service) == ["other"])
        #expect(throws: VaultError.itemNotFound(Query(service: "svc"))) {
            try vault.delete(matching: Query(service: "svc"), allMatching: true)
        }
    }

    @Test func limitsAreEnforced() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        let max = SecretBytes(count: ItemLimits.maxSecretBytes)
        try vault.add(NewItem(service: "big", account: "max", secret: max))
        #expect(try vault.item(matching: Query(service: "big", account: "max")).secret.count == ItemLimits.maxSecretBytes)
        #expect(throws: VaultError.self) {
            try vault.add(NewItem(service: "big", account: "over", secret: SecretBytes(count: ItemLimits.maxSecretBytes + 1)))
        }
        #expect(throws: VaultError.self) {
            try vault.add(NewItem(service: "", account: "x", secret: SecretBytes(count: 1)))
        }
        #expect(throws: VaultError.self) {
            try vault.add(
                NewItem(
                    service: String(repeating: "s", count: ItemLimits.maxAttributeBytes + 1), account: "x",
                    secret: SecretBytes(count: 1)))
        }
    }

    @Test func wrongCredentialAndMissingSlot() throws {
        let dir = try TempDirectory()
        _ = try Vault.makeTest(at: dir.location())
        let otherKey = UnlockSecret.keyFile(SecretBytes(Array("vault-key-v1:a-different-key-file-0123456789\n".utf8)))
        #expect(throws: VaultError.wrongCredential(.keyFile)) {
            try Vault(location: dir.location(), credential: otherKey).attributes(matching: Query())
        }
        #expect(throws: VaultError.noKeyslot(.passphrase)) {
            try Vault(location: dir.location(), credential: .passphrase(SecretBytes(Array("pw".utf8)))).attributes(matching: Query())
        }
    }

    @Test func keyslotsCanBeAddedAndRemoved() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("svc", "acct", "v")
        try vault.changePassphrase(to: SecretBytes(Array("pw".utf8)), kdf: .testing)
        let byPassphrase = Vault(location: dir.location(), credential: .passphrase(SecretBytes(Array("pw".utf8))))
        #expect(try byPassphrase.secret("svc", "acct") == "v")
        try byPassphrase.removeKeyFile(testKeyFile.secret)
        #expect(throws: VaultError.noKeyslot(.keyFile)) { try vault.secret("svc", "acct") }
        #expect(throws: VaultError.lastKeyslot) { try byPassphrase.removePassphrase() }
    }
}
