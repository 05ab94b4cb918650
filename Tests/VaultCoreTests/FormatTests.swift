import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The v1 file: round trip, the committed test vector, bindings of records to
/// their place and vault, and what the file shows without keys.
@Suite struct FormatTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/v1"
    static let vectorPassphrase = UnlockSecret.passphrase(SecretBytes(Array("correct horse battery staple".utf8)))

    /// Copies the committed test vector into `dir` (git does not keep 0600).
    func copyVector(into dir: TempDirectory, withDeviceKey: Bool) throws -> VaultLocation {
        let location = dir.location("v1.vault")
        writeBytes(fileBytes(FormatTests.fixtures + "/v1.vault"), to: location.path)
        if withDeviceKey { writeBytes(fileBytes(FormatTests.fixtures + "/device.key"), to: location.legacyDeviceKeyPath) }
        return location
    }

    @Test func committedTestVectorOpens() throws {
        let dir = try TempDirectory()
        let vault = Vault(location: try copyVector(into: dir, withDeviceKey: true), credential: FormatTests.vectorPassphrase)
        #expect(try vault.secret("github", "ci-bot") == "ghp_testvector_0001")
        #expect(try vault.item(matching: Query(service: "github", account: "ci-bot")).attributes.details.label == "GitHub CI")
        let npm = try vault.item(matching: Query(service: "npm", account: "publish"))
        #expect(npm.secret.text == "npm_testvector_0002")
        #expect(npm.attributes.group == AccessGroup("ci"))
        #expect(npm.attributes.accessibility == .afterFirstUnlock)
        #expect(try vault.item(matching: Query(service: "binary", account: "nul")).secret.copyBytes() == [0, 1, 2, 0xFF])
        #expect(try vault.secret("device", "bound") == "bound_testvector_0004")
        #expect(try vault.secret("always", "any") == "always_testvector_0005")
        #expect(try vault.attributes(matching: Query()).count == 5)
    }

    @Test func committedTestVectorOpensAlwaysItemsWithTheDeviceKeyAlone() throws {
        let dir = try TempDirectory()
        let location = try copyVector(into: dir, withDeviceKey: true)
        let host = HostContext(now: { Date() }, bootID: { "test-boot" }, runtimeDirectory: dir.path + "/run")
        let vault = Vault(location: location, keys: .none, host: host)
        #expect(try vault.secret("always", "any") == "always_testvector_0005")
        #expect(throws: VaultError.locked(.whenUnlocked, tried: [.deviceKeyNotEnough])) { try vault.secret("github", "ci-bot") }
    }

    @Test func deviceBoundItemsNeedTheirDevice() throws {
        let dir = try TempDirectory()
        let vault = Vault(location: try copyVector(into: dir, withDeviceKey: false), credential: FormatTests.vectorPassphrase)
        #expect(try vault.secret("github", "ci-bot") == "ghp_testvector_0001")
        #expect(throws: VaultError.boundToAnotherDevice(group: .default, accessibility: .whenUnlockedThisDeviceOnly)) {
            try vault.secret("device", "bound")
        }
    }

    @Test func roundTripIsStable() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("svc", "acct", "value")
        try vault.add("npm", "publish", "other", group: AccessGroup("ci")!)
        let bytes = fileBytes(dir.location().path)
        let decoded = try VaultFile.decode(bytes)
        #expect(decoded.file.version == 3)
        let end = decoded.parametersEnd
        #expect(
            decoded.file.encode(
                parameters: decoded.file.encodeHeaderParameters(), checksum: Array(bytes[end..<end + 32]),
                headerMAC: decoded.headerMAC) == bytes)
    }

    @Test func recordMovedToAnotherPlaceDoesNotOpen() throws {
        var open = try twoItemsOpenedByTheOwner(try TempDirectory())
        // Swap the sealed records (and their lengths) but keep each index entry's identity;
        // the MACs are recomputed, so only the records' own AAD binding can catch it.
        open.file.records.swapAt(0, 1)
        for position in 0...1 {
            open.file.index[position] = open.file.index[position].withDigest(
                of: open.file.records[position], itemID: open.file.index[position].itemID)
        }
        let moved = try Snapshot.unlock(try open.encode(), secret: testKeyFile, deviceKey: open.keys.deviceKey, path: "test")
        #expect(throws: VaultError.corrupted(path: "test", detail: .doesNotOpen(.record))) { try moved.openRecord(at: 0) }
        #expect(throws: VaultError.corrupted(path: "test", detail: .doesNotOpen(.record))) { try moved.openRecord(at: 1) }
    }

    @Test func recordMovedToAnotherVaultDoesNotOpen() throws {
        let dir = try TempDirectory()
        let first = try Vault.makeTest(at: dir.location("a.vault"))
        let second = try Vault.makeTest(at: dir.location("b.vault"))
        try first.add("svc", "acct", "from-a")
        try second.add("svc", "acct", "from-b")
        let device = try deviceKey(of: dir.location())
        let a = try Snapshot.unlock(fileBytes(dir.location("a.vault").path), secret: testKeyFile, deviceKey: device, path: "a")
        var b = WorkingCopy(try Snapshot.unlock(fileBytes(dir.location("b.vault").path), secret: testKeyFile, deviceKey: device, path: "b"))
        b.file.records[0] = a.file.records[0]
        b.file.index[0] = b.file.index[0].withDigest(of: a.file.records[0], itemID: b.file.index[0].itemID)
        let mixed = try Snapshot.unlock(try b.encode(), secret: testKeyFile, deviceKey: device, path: "b")
        #expect(throws: VaultError.corrupted(path: "b", detail: .doesNotOpen(.record))) { try mixed.openRecord(at: 0) }
    }

    @Test func wrongKeyMaterialFailsCryptographically() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("svc", "acct", "value")
        let open = try Snapshot.unlock(
            fileBytes(dir.location().path), secret: testKeyFile,
            deviceKey: try deviceKey(of: dir.location()), path: "t")
        let entry = open.file.index[0]
        let aad = AAD.record(vaultID: open.file.vaultID, recordID: entry.recordID, groupID: entry.groupID, classID: entry.classID)
        // The right keys open it.
        let right = try open.keys.recordKey(groupID: entry.groupID, accessibility: .whenUnlocked, recordID: entry.id)
        #expect(throws: Never.self) { try AESGCM.open(open.file.records[0], key: right, aad: aad) }
        // A ring with every key random but the same vault id does not.
        var impostor = KeyRing(vaultID: open.file.vaultID, masterKey: .random(), deviceKey: nil)
        impostor.addGroup(impostor.groupKeys(.default, groupKey: .random()), id: entry.groupID)
        impostor.addClassKey(.random(), classID: entry.classID)
        let wrong = try impostor.recordKey(groupID: entry.groupID, accessibility: .whenUnlocked, recordID: entry.id)
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(open.file.records[0], key: wrong, aad: aad) }
        // Nor does the right key with another record id in the AAD.
        let otherAAD = AAD.record(
            vaultID: open.file.vaultID, recordID: [UInt8](repeating: 7, count: 16),
            groupID: entry.groupID, classID: entry.classID)
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(open.file.records[0], key: right, aad: otherAAD) }
    }

    @Test func fileShowsNoNamesOrSecrets() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add(
            "very-visible-service", "very-visible-account", "very-visible-secret", group: AccessGroup("visible-group")!,
            label: "very-visible-label")
        let text = String(decoding: fileBytes(dir.location().path), as: Unicode.ASCII.self)
        for word in ["very-visible", "visible-group"] { #expect(!text.contains(word)) }
    }
}

/// Listing blocks: `list` reads one sealed block per (group, class), not the records.
@Suite struct ListingBlockTests {
    /// A vault whose items sit in two groups and two classes; returns it and the file's layout.
    func vault(_ dir: TempDirectory) throws -> (Vault, VaultFile) {
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("github", "ci-bot", "s1", label: "GitHub")
        try vault.add("npm", "publish", "s2", group: AccessGroup("ci")!, accessibility: .afterFirstUnlock)
        try vault.add("db", "ci", "s3", group: AccessGroup("ci")!, accessibility: .afterFirstUnlock)
        return (vault, try VaultFile.decode(fileBytes(dir.location().path)).file)
    }

    @Test func oneBlockPerGroupAndClassListsEveryItem() throws {
        let dir = try TempDirectory()
        let (vault, file) = try vault(dir)
        #expect(file.listings.map(\.classID) == [Accessibility.whenUnlocked.fileID, Accessibility.afterFirstUnlock.fileID])
        #expect(try vault.listing(matching: Query()).items.map(\.service).sorted() == ["db", "github", "npm"])
        #expect(try vault.listing(matching: Query(label: "GitHub")).items.map(\.service) == ["github"])
    }

    /// `list` does not open records: a damaged record still lists (from its block), while reading it is refused and verify names it.
    @Test func listReadsTheBlockNotTheRecords() throws {
        let dir = try TempDirectory()
        let (vault, _) = try vault(dir)
        var bytes = fileBytes(dir.location().path)
        bytes[bytes.count - 1] ^= 0x01  // the last record's tag
        writeBytes(bytes, to: dir.location().path)
        #expect(try vault.listing(matching: Query()).items.count == 3)
        #expect(try vault.verify().damagedRecords == 1)
    }

    /// A damaged block fails `list` of its pair and `verify`, never lists wrong names; `get` reads records and is unaffected.
    @Test func aDamagedBlockIsDamageNotWrongNames() throws {
        let dir = try TempDirectory()
        let (vault, file) = try vault(dir)
        var bytes = fileBytes(dir.location().path)
        let block = try #require(file.listings.last)
        let start = try #require(bytes.firstRange(of: block.sealed.bytes)).lowerBound
        bytes[start + 20] ^= 0x01
        writeBytes(bytes, to: dir.location().path)
        #expect(throws: VaultError.corrupted(path: dir.location().path, detail: .doesNotOpen(.listingBlock))) {
            try vault.listing(matching: Query())
        }
        #expect(try vault.secret("npm", "publish") == "s2")
        #expect(try vault.verify().damagedListings == 1)
    }

    /// A vault of 768 items of one group and class: its listing is four buckets (of 256).
    func largeVault(_ dir: TempDirectory) throws -> Vault {
        let vault = try Vault.makeTest(at: dir.location())
        try vault.addAll((0..<768).map { NewItem(service: "svc-\($0)", account: "acct", secret: SecretBytes(Array("s\($0)".utf8))) })
        return vault
    }

    /// A change seals again the bucket of the item it changed and leaves the other buckets byte for byte.
    @Test func aChangeSealsOnlyItsItemsBucket() throws {
        let dir = try TempDirectory()
        let vault = try largeVault(dir)
        let before = try VaultFile.decode(fileBytes(dir.location().path)).file
        #expect(before.listings.map(\.bucket) == [0, 1, 2, 3])
        _ = try vault.update(matching: Query(service: "svc-384", account: "acct"), with: ItemChange(details: ItemDetails(label: "changed")))
        let after = try VaultFile.decode(fileBytes(dir.location().path)).file
        #expect(after.listings.map(\.bucket) == [0, 1, 2, 3])
        #expect(zip(before.listings, after.listings).filter { $0.digest != $1.digest }.count == 1)
        let listed = try vault.listing(matching: Query()).items
        #expect(listed.count == 768 && listed.filter { $0.details.label == "changed" }.map(\.service) == ["svc-384"])
    }

    /// Growing past twice the items a bucket is made for spreads the pair again over more buckets;
    /// shrinking below a quarter spreads it over fewer. Every item lists throughout.
    @Test func aPairIsSpreadAgainWhenItGrowsOrShrinksPastItsBuckets() throws {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.addAll((0..<512).map { NewItem(service: "svc-\($0)", account: "acct", secret: SecretBytes([1])) })
        func buckets() throws -> [Int] {
            try VaultFile.decode(fileBytes(dir.location().path)).file.listings.filter {
                $0.classID != Tombstone.blockClassID && $0.classID != TrashEntry.blockClassID
            }.map(\.bucket)
        }
        #expect(try buckets() == [0, 1])
        try vault.addAll((512..<1050).map { NewItem(service: "svc-\($0)", account: "acct", secret: SecretBytes([1])) })
        #expect(try buckets() == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(try vault.listing(matching: Query()).items.count == 1050)
        _ = try vault.delete(matching: Query(account: "acct"), allMatching: true)
        try vault.add("last", "one", "s")
        #expect(try buckets() == [0])
        #expect(try vault.listing(matching: Query()).items.map(\.service) == ["last"])
    }

    /// Checked before any key, as structure: a pair's blocks must be its buckets 0 … K − 1 in
    /// order, K a power of two. A renumbered bucket and a dropped one are damage (93), named.
    @Test func bucketsOutOfOrderOrNotAPowerOfTwoAreDamage() throws {
        let dir = try TempDirectory()
        let vault = try largeVault(dir)
        let path = dir.location().path
        let decoded = try VaultFile.decode(fileBytes(path))
        func write(_ change: (inout VaultFile) -> Void) {
            var file = decoded.file
            change(&file)
            writeBytes(
                file.encode(
                    parameters: Array(decoded.header[..<decoded.parametersEnd]),
                    checksum: Array(decoded.header[decoded.parametersEnd...]), headerMAC: decoded.headerMAC), to: path)
        }
        write { $0.listings[1].bucket = 2 }
        #expect(throws: VaultError.corrupted(path: path, detail: .violates(.listingBlockOrder))) {
            try vault.listing(matching: Query())
        }
        write { $0.listings.removeLast() }
        #expect(throws: VaultError.corrupted(path: path, detail: .violates(.listingBucketCount))) {
            try vault.listing(matching: Query())
        }
    }

    /// Two buckets exchanged, with the group MACs made again by the owner's keys: the AAD binds
    /// each block to its bucket and the bucket count, so neither opens; nothing wrong is listed.
    @Test func bucketsExchangedDoNotOpen() throws {
        let dir = try TempDirectory()
        _ = try largeVault(dir)
        var open = WorkingCopy(
            try Snapshot.unlock(
                fileBytes(dir.location().path), secret: testKeyFile,
                deviceKey: try deviceKey(of: dir.location()), path: "test"))
        let (first, second) = (open.file.listings[0], open.file.listings[1])
        open.file.listings[0].sealed = second.sealed
        open.file.listings[0].digest = second.digest
        open.file.listings[1].sealed = first.sealed
        open.file.listings[1].digest = first.digest
        let exchanged = try Snapshot.unlock(try open.encode(), secret: testKeyFile, deviceKey: open.keys.deviceKey, path: "test")
        #expect(throws: VaultError.corrupted(path: "test", detail: .doesNotOpen(.listingBlock))) {
            try exchanged.listedItems(of: ListingPair(groupID: first.groupID, classID: first.classID))
        }
    }
}

/// The index read in place: entries decoded on use, and repeated item ids found before a write.
@Suite struct IndexTableTests {
    func entry(_ itemID: Bytes16) -> IndexEntry {
        IndexEntry(
            recordID: SecureRandom.bytes(16), itemID: itemID, lookupTag: SecureRandom.bytes(16),
            groupID: GroupID(1), classID: ClassID(1), sealed: SecureRandom.bytes(40)[...])
    }

    /// Among 20 000 distinct ids none is reported repeated; one id given twice, anywhere, is.
    @Test func repeatedItemIDsAreFoundAndDistinctOnesAreNot() {
        var table = IndexTable((0..<20_000).map { _ in entry(Bytes16.random()) })
        let distinct = !table.hasRepeatedItemID
        #expect(distinct)
        table.append(entry(table[12_345].itemID))
        let repeated = table.hasRepeatedItemID
        #expect(repeated)
        #expect(!IndexTable().hasRepeatedItemID)
    }

    /// Ids that differ only in their top bits (a product's low half ignores them) still spread over
    /// the table's slots: forged ids cannot make the repeated-id check quadratic. Found by review:
    /// with low halves as the slot, 80 000 such ids took 2.9 s against 0.02 s for random ones.
    @Test func idsDifferingInTheirTopBitsSpreadOverSlots() {
        let key: (UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9)
        let slots = Set(
            (0..<1024).map { top -> Int in
                var bytes = [UInt8](repeating: 0x5A, count: 16)
                bytes[0] = UInt8(top >> 2)
                bytes[8] = UInt8(top & 3) << 6
                return Bytes16(bytes).probe(key) & 2047
            })
        #expect(slots.count > 512)
    }

    /// A file whose two entries share an item id is not written on (its listing blocks are rebuilt by item id), and verify names it.
    @Test func aWriteRefusesRepeatedItemIDs() throws {
        var open = try twoItemsOpenedByTheOwner(try TempDirectory())
        open.file.index[1] = open.file.index[1].withDigest(of: open.file.records[1], itemID: open.file.index[0].itemID)
        #expect(try open.problemsBeyondOpening().repeatedItemIDs)
        #expect(throws: VaultError.corrupted(path: "test", detail: .violates(.repeatedItemID))) { _ = try open.encode() }
    }
}

/// A key-file vault in `dir` holding two items (first/a, second/b), opened in memory by its owner with path "test".
func twoItemsOpenedByTheOwner(_ dir: TempDirectory) throws -> WorkingCopy {
    let vault = try Vault.makeTest(at: dir.location())
    try vault.add("first", "a", "secret-one")
    try vault.add("second", "b", "secret-two")
    return WorkingCopy(
        try Snapshot.unlock(fileBytes(dir.location().path), secret: testKeyFile, deviceKey: try deviceKey(of: dir.location()), path: "test")
    )
}

/// A mapped file shows what another program writes to it in place. What opening checks must be
/// what is used afterwards: an index entry and record spliced in from an older copy, written over
/// the file after its MACs passed, must never come back as the secret (a review got the old
/// secret from `get` this way when the index was read from the mapping after the check).
@Suite struct InPlaceRewriteTests {
    /// A vault whose last item, target/a, was AAAAAAAA in an older copy and is BBBBBBBB now (deleted and
    /// added again, so its entry and record keep their lengths), and the current
    /// file with the older copy's entry and record of it spliced in: what another program writes in place.
    func spliceOlderTarget(_ dir: TempDirectory) throws -> (path: String, position: Int, spliced: [UInt8]) {
        let path = dir.location().path
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("other", "a", "other-secret")
        try vault.add("target", "a", "AAAAAAAA")
        let old = fileBytes(path)
        _ = try vault.delete(matching: Query(service: "target", account: "a"))
        try vault.add("target", "a", "BBBBBBBB")
        let current = fileBytes(path)
        func place(_ bytes: [UInt8]) throws -> (position: Int, entry: Range<Int>, record: Range<Int>) {
            let decoded = try VaultFile.decode(FileBytes(bytes))
            let position = try #require(decoded.file.index.indices.last)
            let entry = indexStart(decoded) + position * IndexEntry.v2Size
            let record = try #require(decoded.file.records.stored(at: position).fileRange).1
            return (position, entry..<entry + IndexEntry.v2Size, record)
        }
        let (oldPlace, currentPlace) = (try place(old), try place(current))
        // The deletion's tombstone block makes the current file longer; the entry and record keep their lengths.
        try #require(oldPlace.record.count == currentPlace.record.count)
        var spliced = current
        spliced.replaceSubrange(currentPlace.entry, with: old[oldPlace.entry])
        spliced.replaceSubrange(currentPlace.record, with: old[oldPlace.record])
        return (path, currentPlace.position, spliced)
    }

    @Test func anEntrySwappedInAfterTheChecksIsNeverUsed() throws {
        let dir = try TempDirectory()
        let (path, _, spliced) = try spliceOlderTarget(dir)

        let mapped = try FileSystem.readVaultFile(path, directory: dir.path, missing: .noSuchVault(path: path))
        let open = try Snapshot.unlock(mapped, secret: testKeyFile, deviceKey: try deviceKey(of: dir.location()), path: path)
        let fd = Glibc.open(path, O_WRONLY)
        try #require(fd >= 0)
        #expect(spliced.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) } == spliced.count)
        close(fd)
        let read = try? open.openRecord(at: open.file.index.count - 1).secret.copyBytes()
        #expect(read != Array("AAAAAAAA".utf8), "the spliced-in older secret came back")
        #expect(throws: VaultError.corrupted(path: path, detail: .violates(.recordDigestMismatch))) {
            _ = try open.openRecord(at: open.file.index.count - 1)
        }
    }

    /// The same race against `get`, which reads the index in the file itself: the lookup copies
    /// out the bucket it checks, and the record opened is checked against that copy's entry, so the
    /// older entry and record written over the file after the lookup are never used.
    @Test func anEntrySwappedInAfterALookupInPlaceIsNeverUsed() throws {
        let dir = try TempDirectory()
        let (path, position, spliced) = try spliceOlderTarget(dir)
        let mapped = try FileSystem.readVaultFile(path, directory: dir.path, missing: .noSuchVault(path: path))
        let open = try Snapshot.unlock(
            mapped, secret: testKeyFile, deviceKey: try deviceKey(of: dir.location()), path: path,
            checking: .lookupsOnly)
        #expect(open.file.index.isInPlace)
        let found = try open.positions(matching: Query(service: "target", account: "a"))
        #expect(found == [position])
        let fd = Glibc.open(path, O_WRONLY)
        try #require(fd >= 0)
        #expect(spliced.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) } == spliced.count)
        close(fd)
        let read = try? open.openRecord(at: position).secret.copyBytes()
        #expect(read != Array("AAAAAAAA".utf8), "the spliced-in older secret came back")
        #expect(throws: VaultError.corrupted(path: path, detail: .violates(.recordDigestMismatch))) {
            _ = try open.openRecord(at: position)
        }
    }
}

/// Record attributes are UTF-8 text: ASCII and well-formed text read back as written, and ill-formed
/// bytes (which a reader's string decoding would quietly replace) make the record damaged.
@Suite struct RecordTextTests {
    func plaintext(service: [UInt8]) -> SecretBytes {
        var w = ByteWriter()
        func field(_ tag: UInt8, _ value: [UInt8]) {
            w.u8(tag)
            w.lengthPrefixed(value)
        }
        field(1, service)
        field(2, Array("me".utf8))
        field(7, [UInt8](repeating: 0, count: 8))
        field(8, [UInt8](repeating: 0, count: 8))
        field(10, Array("secret".utf8))
        return SecretBytes(w.bytes)
    }

    @Test func wellFormedTextReadsBackAndIllFormedIsDamage() throws {
        for text in ["github", "café-ü", "日本", ""] {
            #expect(
                try RecordCodec.decodePlaintext(plaintext(service: Array(text.utf8)), group: .default, accessibility: .default).attributes
                    .service == text)
        }
        for bytes: [UInt8] in [[0x61, 0xC3, 0x28], [0xFF], [0x61, 0xE2, 0x82], [0xED, 0xA0, 0x80]] {
            #expect(throws: MalformedInput.self) {
                try RecordCodec.decodePlaintext(plaintext(service: bytes), group: .default, accessibility: .default)
            }
        }
    }
}
