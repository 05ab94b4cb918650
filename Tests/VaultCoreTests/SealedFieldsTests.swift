import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// Notes and a one-time code kept beside an item's secret: sealed in its record, never listed,
/// carried by every change, bundle and merge of the record.
@Suite struct SealedFieldsTests {
    static let note = "user: alice\nurl: https://example.com\nrecovery: 1111-2222-3333"
    /// RFC 6238's SHA-1 seed; its code at 59 is "287082" in 6 digits (RFC 4226's counter 1).
    static let totp = "otpauth://totp/ACME:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    static let query = Query(service: "web", account: "alice")

    static func bytes(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }

    static func withFields(_ vault: Vault, oneTimeCode: String = totp) throws {
        try vault.add(
            NewItem(
                service: "web", account: "alice", secret: bytes("hunter2"),
                fields: SealedFields(notes: bytes(note), oneTimeCode: bytes(oneTimeCode))))
    }

    @Test func fieldsAreSealedInTheRecordAndNeverListed() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try SealedFieldsTests.withFields(vault)
        let item = try vault.item(matching: SealedFieldsTests.query)
        #expect(
            item.secret.text == "hunter2" && item.fields[.notes]?.text == SealedFieldsTests.note
                && item.fields[.oneTimeCode]?.text == SealedFieldsTests.totp)
        // Neither the file nor a listing block holds a byte of them in the clear.
        let file = fileBytes(dir.location().path)
        for text in ["recovery: 1111", "GEZDGNBV"] { #expect(file.firstRange(of: Array(text.utf8)) == nil) }
        try vault.withKeys {
            let opened = try vault.readSnapshot()
            let blocks = opened.file.listings.filter { $0.classID != Tombstone.blockClassID }
            #expect(!blocks.isEmpty)
            for block in blocks {
                let plaintext = try opened.openListing(block, bucketCount: 1).plaintext
                #expect(plaintext.firstRange(of: Array("user: alice".utf8)) == nil, "a listing block holds a sealed field")
                #expect(plaintext.firstRange(of: Array("hunter2".utf8)) == nil)
            }
        }
    }

    @Test func changesRenamesAndUndoKeepTheFields() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try SealedFieldsTests.withFields(vault)
        try vault.update(
            matching: SealedFieldsTests.query, with: ItemChange(details: ItemDetails(label: "L"), secret: SealedFieldsTests.bytes("new")))
        try vault.undo(matching: SealedFieldsTests.query)
        try vault.move(matching: SealedFieldsTests.query, toGroup: AccessGroup("web")!)
        let item = try vault.item(matching: Query(service: "web", account: "alice"))
        #expect(item.secret.text == "hunter2" && item.fields[.notes]?.text == SealedFieldsTests.note)
        #expect(item.fields[.oneTimeCode]?.text == SealedFieldsTests.totp)
    }

    @Test func oneTimeCodeComesFromTheFieldBesideAPassword() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try SealedFieldsTests.withFields(vault)
        #expect(try vault.oneTimeCode(matching: SealedFieldsTests.query, atUnixTime: 59) == "287082")
        // HOTP: the field's counter moves on, the password and its history stay.
        try vault.delete(matching: SealedFieldsTests.query)
        try SealedFieldsTests.withFields(vault, oneTimeCode: "otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=0")
        #expect(try vault.oneTimeCode(matching: SealedFieldsTests.query, atUnixTime: 0) == "755224")
        #expect(try vault.oneTimeCode(matching: SealedFieldsTests.query, atUnixTime: 0) == "287082")
        #expect(try vault.item(matching: SealedFieldsTests.query).secret.text == "hunter2")
        #expect(try vault.history(matching: SealedFieldsTests.query).revisions.isEmpty)
    }

    @Test func aBundleCarriesTheFields() throws {
        let dir = try TempDirectory()
        let source = try Vault.makeTest(at: dir.location("a.vault"))
        try SealedFieldsTests.withFields(source)
        let bundleKey = UnlockSecret.keyFile(SecretBytes(Array("vault-key-v1:bundle-key-material-0123456789abcdef\n".utf8)))
        _ = try source.export(to: dir.path + "/out.vexport", credential: bundleKey, kdf: .testing)
        let target = try Vault.makeTest(at: dir.location("b.vault"))
        _ = try target.importBundle(at: dir.path + "/out.vexport", credential: bundleKey, onConflict: .fail)
        #expect(try target.item(matching: SealedFieldsTests.query).fields[.notes]?.text == SealedFieldsTests.note)
    }

    @Test func aMergeCarriesTheFieldsWithTheRecord() throws {
        let first = try TempDirectory(), second = try TempDirectory()
        let ours = try Vault.makeTest(at: first.location("team.vault"))
        try ours.add("base", "x", "b")
        let base = fileBytes(ours.location.path)
        writeBytes(base, to: second.location("team.vault").path)
        let theirs = Vault(location: second.location("team.vault"), credential: testKeyFile)
        try SealedFieldsTests.withFields(theirs)
        _ = try ours.reconfigured { $0.acceptTeamLog = true }.merge(
            base: base, theirs: fileBytes(theirs.location.path), origins: ("ours", "theirs"), kdf: .testing
        ) { _ in }
        let merged = try ours.item(matching: SealedFieldsTests.query)
        #expect(merged.fields[.notes]?.text == SealedFieldsTests.note && merged.fields[.oneTimeCode]?.text == SealedFieldsTests.totp)
    }

    @Test func aReaderOfAttributesSkipsTheFields() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let item = Item(
            attributes: ItemAttributes(service: "s", account: "a", created: now, modified: now), secret: SealedFieldsTests.bytes("pw"),
            fields: SealedFields(notes: SealedFieldsTests.bytes("n")))
        let plaintext = RecordCodec.encodePlaintext(item)
        #expect(try RecordCodec.decodeAttributes(plaintext, group: .default, accessibility: .default) == item.attributes)
        #expect(try RecordCodec.decodePlaintext(plaintext, group: .default, accessibility: .default).secret.text == "pw")
    }

    @Test func secretValuesAreTheSecretTheCodeAndEachLineOfTheNotes() {
        let item = Item(
            attributes: ItemAttributes(service: "s", account: "a", created: Date(), modified: Date()),
            secret: SealedFieldsTests.bytes("pw"),
            fields: SealedFields(notes: SealedFieldsTests.bytes("one\r\ntwo\n"), oneTimeCode: SealedFieldsTests.bytes("seed")))
        #expect(item.secretValues.map(\.text) == ["pw", "one", "two", "seed"])
    }

    @Test func theFieldsCountTowardsTheSizeLimit() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        let half = SecretBytes([UInt8](repeating: 1, count: ItemLimits.maxSecretBytes / 2 + 1))
        #expect(throws: VaultError.self) {
            try vault.add(NewItem(service: "big", account: "a", secret: half, fields: SealedFields(notes: half)))
        }
    }
}
