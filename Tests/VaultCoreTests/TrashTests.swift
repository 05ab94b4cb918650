import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The trash outlives what replaces keys (a re-key, a revoke), goes with a whole-group wipe, and is
/// purged by the first write after `trashDays`.
@Suite struct TrashTests {
    func trashed(_ vault: Vault) throws -> [String] {
        try vault.trash(matching: Query()).items.map { "\($0.attributes.service)/\($0.attributes.account)" }.sorted()
    }

    @Test func theTrashIsSealedAgainByAReKeyAndARevoke() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("github", "ci-bot", "one")
        try vault.add("npm", "publish", "two", group: AccessGroup("ci")!)
        try vault.delete(matching: Query(service: "github"))
        try vault.delete(matching: Query(service: "npm"))
        _ = try vault.rekey(kdf: .testing) { _ in }
        _ = try vault.revoke(group: AccessGroup("ci")!)
        #expect(try trashed(vault) == ["github/ci-bot", "npm/publish"])
        try vault.undelete(matching: Query(service: "npm"))
        try vault.undelete(matching: Query(service: "github"))
        #expect(try vault.secret("npm", "publish") == "two" && vault.secret("github", "ci-bot") == "one")
        #expect(!(try vault.verify()).isDamaged)
    }

    @Test func aWholeGroupWipeEmptiesItsTrashAndAFilteredOneKeepsIt() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("a", "x", "1")
        try vault.add("b", "x", "2", group: AccessGroup("ci")!)
        try vault.delete(matching: Query(service: "a"))
        try vault.delete(matching: Query(service: "b"))
        try vault.add("c", "x", "3")
        _ = try vault.wipe(WipeFilter(query: Query(service: "c")), dryRun: false)
        #expect(try trashed(vault) == ["a/x", "b/x"])
        _ = try vault.wipe(WipeFilter(query: Query(group: AccessGroup("ci")!)), dryRun: false)
        #expect(try trashed(vault) == ["a/x"])
    }

    @Test func theFirstWriteAfterTrashDaysPurges() throws {
        let dir = try TempDirectory()
        let clock = TestClock()
        let vault = try Vault.makeTest(at: dir.location(), clock: clock).reconfigured { $0.trashDays = 2 }
        try vault.add("a", "x", "1")
        try vault.delete(matching: Query(service: "a"))
        clock.advance(2 * 86_400 - 1)
        try vault.add("b", "x", "2")
        #expect(try trashed(vault) == ["a/x"])
        clock.advance(2)
        #expect(try trashed(vault) == ["a/x"])  // a read purges nothing
        try vault.add("c", "x", "3")
        #expect(try trashed(vault).isEmpty)
        let file = try VaultFile.decode(fileBytes(dir.location().path)).file
        #expect(!file.listings.contains { $0.classID == TrashEntry.blockClassID })
    }
}
