import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Earlier secrets kept in an item's record: through revoke, class changes and renames, bounded by size.
@Suite struct HistoryTests {
    func secrets(_ vault: Vault, _ service: String) throws -> [String] {
        try vault.history(matching: Query(service: service, account: "a")).revisions.map(\.secret.text)
    }

    @Test func revokeRenameAndClassChangesKeepTheHistory() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        let ci = AccessGroup("ci")!
        try vault.add("svc", "a", "v1", group: ci)
        for next in ["v2", "v3"] {
            try vault.update(matching: Query(service: "svc", account: "a"), with: ItemChange(secret: SecretBytes(Array(next.utf8))))
        }
        try vault.revoke(group: ci)
        try vault.update(matching: Query(service: "svc", account: "a"), with: ItemChange(accessibility: .afterFirstUnlock))
        try vault.move(matching: Query(service: "svc", account: "a"), toService: "renamed")
        #expect(try secrets(vault, "renamed") == ["v2", "v1"])
        #expect(try vault.secret("renamed", "a") == "v3")
        // A one-time code's counter moving on keeps no revision; an edit does.
        _ = try vault.replaceSecret(matching: Query(service: "renamed", account: "a"), keepingPrevious: false) { _ in
            SecretBytes(Array("v4".utf8))
        }
        #expect(try secrets(vault, "renamed") == ["v2", "v1"])
        _ = try vault.replaceSecret(matching: Query(service: "renamed", account: "a"), keepingPrevious: true) { _ in
            SecretBytes(Array("v5".utf8))
        }
        #expect(try secrets(vault, "renamed") == ["v4", "v2", "v1"])
    }

    @Test func theRecordStaysUnderItsSizeLimitByDroppingTheOldest() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        let big = { (byte: UInt8) in SecretBytes([UInt8](repeating: byte, count: 300 * 1024)) }
        try vault.add(NewItem(service: "big", account: "a", secret: big(1)))
        for byte: UInt8 in 2...4 { try vault.update(matching: Query(service: "big", account: "a"), with: ItemChange(secret: big(byte))) }
        let revisions = try vault.history(matching: Query(service: "big", account: "a")).revisions
        #expect(revisions.map { $0.secret.copyBytes().first } == [3, 2])
        let file = try VaultFile.decode(fileBytes(dir.location().path)).file
        #expect(file.index.allSatisfy { Int($0.length) <= VaultFile.maxRecordBytes })
    }

    @Test func keepingFewerDropsTheOldest() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("svc", "a", "v1")
        for next in ["v2", "v3", "v4"] {
            try vault.update(matching: Query(service: "svc", account: "a"), with: ItemChange(secret: SecretBytes(Array(next.utf8))))
        }
        #expect(try secrets(vault, "svc") == ["v3", "v2", "v1"])
        try vault.reconfigured { $0.revisionsKept = 2 }.update(
            matching: Query(service: "svc", account: "a"), with: ItemChange(secret: SecretBytes(Array("v5".utf8))))
        #expect(try secrets(vault, "svc") == ["v4", "v3"])
        // Keeping more than the default holds until a change of attributes, which keeps the history as it is.
        let keepingEight = vault.reconfigured { $0.revisionsKept = 8 }
        for next in ["v6", "v7", "v8", "v9"] {
            try keepingEight.update(matching: Query(service: "svc", account: "a"), with: ItemChange(secret: SecretBytes(Array(next.utf8))))
        }
        try vault.update(matching: Query(service: "svc", account: "a"), with: ItemChange(details: ItemDetails(label: "renamed")))
        #expect(try secrets(vault, "svc") == ["v8", "v7", "v6", "v5", "v4", "v3"])
        #expect(throws: VaultError.noRevision(ItemKey(group: .default, service: "x", account: "a"), requested: 1, kept: 0)) {
            try vault.add("x", "a", "only")
            try vault.undo(matching: Query(service: "x", account: "a"))
        }
    }

    @Test func anExpiredItemsEarlierSecretsAreNotRestored() throws {
        let dir = try TempDirectory()
        let clock = TestClock()
        let vault = try Vault.makeTest(at: dir.location(), clock: clock)
        try vault.add(
            NewItem(
                service: "svc", account: "a", details: ItemDetails(expires: clock.now.addingTimeInterval(60)),
                secret: SecretBytes(Array("v1".utf8))))
        try vault.update(matching: Query(service: "svc", account: "a"), with: ItemChange(secret: SecretBytes(Array("v2".utf8))))
        clock.advance(120)
        #expect(try secrets(vault, "svc") == ["v1"])
        #expect(throws: VaultError.self) { try vault.undo(matching: Query(service: "svc", account: "a")) }
        #expect(try vault.history(matching: Query(service: "svc", account: "a")).attributes.hasExpired(at: clock.now))
    }
}
