import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The snapshot a write's first read keeps is served again to the reads and the write that follow
/// only while the path still names the file it was read from (`KeptRead`): a write made by another
/// process in between is read, never overwritten; only a read made for a write keeps one.
@Suite struct KeptReadTests {
    @Test func aWriteAfterAReadKeepsWhatAnotherWriterAddedInBetween() throws {
        let dir = try TempDirectory()
        let first = try Vault.makeTest(at: dir.location())
        try first.add("kept", "one", "1")
        let second = Vault(location: dir.location(), credential: testKeyFile)
        _ = try first.groupNames(beforeWriting: true)
        try second.add("between", "two", "2")
        try first.add("after", "three", "3")
        let reader = Vault(location: dir.location(), credential: testKeyFile)
        #expect(try reader.secret("between", "two") == "2", "the write served an old reading and lost the item added in between")
        #expect(try reader.secret("after", "three") == "3")
    }

    @Test func aReadAfterAReadSeesAFileReplacedInBetween() throws {
        let dir = try TempDirectory()
        let first = try Vault.makeTest(at: dir.location())
        try first.add("kept", "one", "1")
        _ = try first.groupNames(beforeWriting: true)
        try Vault(location: dir.location(), credential: testKeyFile).add("between", "two", "2")
        #expect(try first.listing(matching: Query()).items.count == 2)
    }

    @Test func aReadWithOtherKeysIsNotServedTheKeptOne() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("svc", "acct", "s3cret")
        _ = try vault.groupNames(beforeWriting: true)
        #expect(vault.reads.keptRead != nil)
        vault.walk.use(.none)
        #expect(try vault.readSnapshot().keys.masterKey == nil, "a snapshot opened with the key file would answer for no unlock")
        #expect(vault.reads.keptRead == nil)
    }

    @Test func aPlainReadKeepsNothing() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("svc", "acct", "s3cret")
        _ = try vault.listing(matching: Query())
        _ = try vault.groupNames()
        #expect(vault.reads.keptRead == nil, "a read that no write follows would answer later reads after a session ends")
    }
}
