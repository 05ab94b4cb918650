import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The committed vector with a purge record (Fixtures/v3-purge): `wipe --trash` of group ci left,
/// among ci's tombstones, the record that no merge brings that trash entry back.
@Suite struct PurgeVectorTests {
    func copy(_ name: String, into dir: TempDirectory, as file: String) -> VaultLocation {
        let location = dir.location(file)
        writeBytes(fileBytes(MigrationTests.fixtures + "/\(name)/\(name).vault"), to: location.path)
        writeBytes(fileBytes(MigrationTests.fixtures + "/v3-trash/device.key"), to: location.legacyDeviceKeyPath)
        return location
    }

    func owner(_ location: VaultLocation) -> Vault {
        Vault(
            location: location, credential: MigrationTests.passphrase,
            configuration: Vault.Configuration(acceptTeamLog: true, trashDays: 36_500))
    }

    @Test func thePurgeRecordSitsAmongItsGroupsTombstones() throws {
        let dir = try TempDirectory()
        let vault = owner(copy("v3-purge", into: dir, as: "purged.vault"))
        #expect(try vault.trash(matching: Query()).items.map(\.attributes.service).sorted() == ["device", "github"])
        #expect(!(try vault.verify()).isDamaged)
        let purges = try vault.withKeys { () -> [Tombstone] in
            let snapshot = try vault.readSnapshot()
            return try snapshot.tombstones(of: #require(snapshot.keys.groupID(of: AccessGroup("ci")!))).filter { $0.purgedDeletion != nil }
        }
        #expect(purges.count == 1)
        #expect(purges.first?.removedAt == UInt64(TrashVectorTests.deletedAt.timeIntervalSince1970 * 1000))
        #expect(
            purges.first?.recordDigest == [UInt8](repeating: 0xFF, count: 32)
                && purges.first?.contentDigest == [UInt8](repeating: 0xFF, count: 32))
    }

    /// Merged either way with the file from before the wipe (whose trash still holds npm), npm stays out of the trash.
    @Test func noMergeBringsThePurgedEntryBack() throws {
        let dir = try TempDirectory()
        let before = fileBytes(MigrationTests.fixtures + "/v3-trash/v3-trash.vault")
        let purged = owner(copy("v3-purge", into: dir, as: "purged.vault"))
        try purged.merge(base: before, theirs: before, origins: ("purged", "before"), kdf: .testing) { _ in }
        #expect(try purged.trash(matching: Query(service: "npm")).items.isEmpty)
        let holding = owner(copy("v3-trash", into: dir, as: "holding.vault"))
        try holding.merge(
            base: before, theirs: fileBytes(MigrationTests.fixtures + "/v3-purge/v3-purge.vault"),
            origins: ("holding", "purged"), kdf: .testing
        ) { _ in }
        #expect(try holding.trash(matching: Query(service: "npm")).items.isEmpty)
        #expect(try holding.trash(matching: Query()).items.count == 2)
    }
}
