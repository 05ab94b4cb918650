import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The committed vector with a trash (Fixtures/v3-trash): its trashed items list and come back,
/// each group's trash opens for that group's readers only, and the blocks sit as docs/FORMAT.md says.
@Suite struct TrashVectorTests {
    static let deletedAt = Date(timeIntervalSince1970: 1_795_824_000)

    func copyVector(into dir: TempDirectory) -> VaultLocation {
        let location = dir.location("v3-trash.vault")
        writeBytes(fileBytes(MigrationTests.fixtures + "/v3-trash/v3-trash.vault"), to: location.path)
        writeBytes(fileBytes(MigrationTests.fixtures + "/v3-trash/device.key"), to: location.legacyDeviceKeyPath)
        return location
    }

    func member(_ name: String, at location: VaultLocation) throws -> Vault {
        let identity = try AgeIdentity.parseAll(SecretBytes(fileBytes(MigrationTests.fixtures + "/v3/\(name).identity")), source: name)
        return Vault(
            location: location, keys: .identity(identity), host: Vault.selfContainedHost(for: location),
            configuration: Vault.Configuration(trustedFingerprint: "29a11c789056a5ee569f333e737bf1945aabe0c32e5b078feb76f901b9670324"))
    }

    @Test func theCommittedTrashVectorOpens() throws {
        let dir = try TempDirectory()
        let location = copyVector(into: dir)
        let vault = Vault(location: location, credential: MigrationTests.passphrase)
        #expect(try vault.listing(matching: Query()).items.map(\.service).sorted() == ["always", "binary"])
        let trashed = try vault.trash(matching: Query())
        #expect(trashed.locked == 0)
        #expect(trashed.items.map(\.attributes.service).sorted() == ["device", "github", "npm"])
        #expect(trashed.items.allSatisfy { $0.deletedAt == Self.deletedAt })
        #expect(!(try vault.verify()).isDamaged)
        // One trash block per group, class id 255, bucket 0, last among its group's blocks.
        let file = try VaultFile.decode(fileBytes(location.path)).file
        for group in file.groups {
            let blocks = file.listings.filter { $0.groupID == group.groupID }
            #expect(blocks.last?.classID == TrashEntry.blockClassID && blocks.last?.bucket == 0)
            #expect(blocks.filter { $0.classID == TrashEntry.blockClassID }.count == 1)
        }
        // A group's trash is its readers': the read-only member of ci sees npm alone; the full member all of it.
        #expect(try member("ci-reader", at: location).trash(matching: Query()).items.map(\.attributes.service) == ["npm"])
        #expect(try member("alice", at: location).trash(matching: Query()).items.count == 3)
    }

    @Test func anItemOfTheVectorsTrashComesBackWithItsHistory() throws {
        let dir = try TempDirectory()
        let vault = Vault(
            location: copyVector(into: dir), credential: MigrationTests.passphrase, configuration: Vault.Configuration(trashDays: 36_500))
        try vault.undelete(matching: Query(service: "github", account: "ci-bot"))
        #expect(try vault.secret("github", "ci-bot") == "ghp_testvector_0001_rotated")
        #expect(
            try vault.history(matching: Query(service: "github", account: "ci-bot")).revisions.map(\.secret.text) == ["ghp_testvector_0001"]
        )
        try vault.undelete(matching: Query(service: "device", account: "bound"))
        #expect(try vault.secret("device", "bound") == "bound_testvector_0004")
        #expect(try vault.trash(matching: Query()).items.map(\.attributes.service) == ["npm"])
    }
}
