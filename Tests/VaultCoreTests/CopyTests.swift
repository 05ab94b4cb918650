import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// `Vault.copy(to:)`: an independent vault with everything of the original under its own id and keys.
@Suite struct CopyTests {
    @Test func aCopyKeepsItemsMembersAndTrashUnderItsOwnIdAndKeys() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location("team.vault"))
        try vault.add("github", "ci-bot", "one")
        try vault.update(matching: Query(service: "github"), with: ItemChange(secret: SecretBytes(Array("two".utf8))))
        try vault.add("npm", "publish", "n", group: AccessGroup("ci")!)
        try vault.add("gone", "x", "g")
        try vault.delete(matching: Query(service: "gone"))
        let alice = try AgeIdentity.generate(), reader = try AgeIdentity.generate()
        try vault.addMember(name: "alice", recipient: alice.recipient, groups: [], readOnly: false)
        try vault.addMember(name: "reader", recipient: reader.recipient, groups: [AccessGroup("ci")!], readOnly: true)

        let destination = dir.location("copy.vault")
        #expect(try vault.copy(to: destination, kdf: .testing) == 2)
        let copy = Vault(location: destination, credential: testKeyFile)
        #expect(try copy.secret("github", "ci-bot") == "two")
        #expect(try copy.history(matching: Query(service: "github")).revisions.map(\.secret.text) == ["one"])
        #expect(try copy.trash(matching: Query()).items.map(\.attributes.service) == ["gone"])
        #expect(try copy.members().map(\.name) == ["alice", "reader"])
        let original = try VaultFile.decode(fileBytes(dir.location("team.vault").path)).file
        let copied = try VaultFile.decode(fileBytes(destination.path)).file
        #expect(copied.vaultID != original.vaultID && copied.keyEpoch == 1)
        #expect(try copy.trustFingerprint() != vault.trustFingerprint())
        // The members read the copy with their identities, pinned to its own fingerprint; the scoped one its group only.
        func member(_ identity: AgeIdentity) throws -> Vault {
            Vault(
                location: destination, keys: .identity([identity]), host: Vault.selfContainedHost(for: destination),
                configuration: Vault.Configuration(trustedFingerprint: try copy.trustFingerprint()))
        }
        #expect(try member(alice).secret("github", "ci-bot") == "two")
        #expect(try member(reader).secret("npm", "publish") == "n")
        #expect(throws: VaultError.self) { try member(reader).secret("github", "ci-bot") }
        // Writes to one leave the other alone.
        try copy.add("only", "copy", "c")
        try vault.add("only", "original", "o")
        #expect(try vault.attributes(matching: Query(service: "only")).map(\.account) == ["original"])
        #expect(!(try copy.verify()).isDamaged)
    }

    @Test func aMemberCannotCopy() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location("team.vault"))
        let alice = try AgeIdentity.generate()
        try vault.addMember(name: "alice", recipient: alice.recipient, groups: [], readOnly: false)
        let asMember = Vault(
            location: vault.location, keys: .identity([alice]), host: Vault.selfContainedHost(for: vault.location),
            configuration: Vault.Configuration(trustedFingerprint: try vault.trustFingerprint()))
        #expect(throws: VaultError.trustKeyNeeded(.copyVault)) { try asMember.copy(to: dir.location("copy.vault"), kdf: .testing) }
        #expect(!FileManager.default.fileExists(atPath: dir.location("copy.vault").path))
    }
}
