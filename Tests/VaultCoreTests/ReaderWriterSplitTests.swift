import Foundation
import Testing
@testable import VaultCore

/// One reader, one writer (docs/ARCHITECTURE.md): a read gives a `Snapshot`, which cannot change;
/// only a `WorkingCopy` changes, and only Transaction/ writes the vault file. What these rules
/// forbid would compile, so the tests read the sources and the values.
@Suite struct ReaderWriterSplitTests {
    static let sources = TestVectorTests.packageRoot + "/Sources/VaultCore"

    /// A top-level declaration of VaultCore: its kind and name (access modifiers left out), its
    /// file, and its text up to the closing brace at the margin.
    struct Block {
        let file: String
        let kind: String
        let name: String
        let text: String
    }

    static func topLevelBlocks() throws -> [Block] {
        let files = try #require(FileManager.default.enumerator(atPath: sources)?.allObjects as? [String])
        let header = try Regex(#"^(?:(?:public|internal|private|fileprivate|final)\s+)*(extension|struct|protocol|class|enum)\s+(\w+)"#)
        var blocks: [Block] = []
        for file in files.sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            var open: (kind: String, name: String, lines: [Substring])?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if let block = open {
                    if line.hasPrefix("}") {
                        blocks.append(Block(file: file, kind: block.kind, name: block.name, text: block.lines.joined(separator: "\n")))
                        open = nil
                    } else {
                        open?.lines.append(line)
                    }
                } else if let match = line.firstMatch(of: header) {
                    open = (String(match.output[1].substring ?? ""), String(match.output[2].substring ?? ""), [line])
                }
            }
        }
        return blocks
    }

    /// Every stored property of `Snapshot` is a constant: its key path is not writable, and the
    /// list below is all of them (a new property must join it).
    @Test func aSnapshotHoldsOnlyConstants() throws {
        let paths: [PartialKeyPath<Snapshot>] = [
            \.file, \.keys, \.path, \.deviceMatches, \.isWritable, \.scope, \.storedHeader,
            \.signingKey, \.trustKey, \.trustAsRead, \.header, \.damagedGroups,
            \.groupsVerifiedByWriteKey, \.bucketChecks, \.roster, \.recordOpener, \.lastOpened,
            \.trustKeySealedWithoutTP
        ]
        let writable = paths.map { String(describing: type(of: $0)) }.filter { $0.contains("WritableKeyPath") }
        #expect(writable.isEmpty, "settable properties of Snapshot: \(writable)")
        let snapshot = try Self.ownersSnapshot()
        #expect(Mirror(reflecting: snapshot).children.count == paths.count, "a stored property of Snapshot not listed here")
    }

    @Test func nothingChangesASnapshot() throws {
        let blocks = try Self.topLevelBlocks().filter { ["Snapshot", "OpenVault"].contains($0.name) }
        #expect(blocks.contains { $0.kind == "struct" } && blocks.contains { $0.kind == "protocol" })
        let mutating = try Regex(#"\bmutating\b"#)
        let changing = blocks.filter { $0.text.contains(mutating) }.map { "\($0.file): \($0.kind) \($0.name)" }
        #expect(changing.isEmpty, "a mutating member of Snapshot or OpenVault in: \(changing)")
    }

    /// A working copy made from a snapshot and frozen again holds what the snapshot held: no property
    /// of either is left out of the other's initialiser.
    @Test func aWorkingCopyCarriesEverythingASnapshotHolds() throws {
        let snapshot = try Self.ownersSnapshot()
        #expect(snapshot.roster != nil && snapshot.trustKey != nil && snapshot.trustAsRead != nil)
        let working = WorkingCopy(snapshot)
        let held = Mirror(reflecting: snapshot).children.map { $0.label ?? "" }
        #expect(
            Mirror(reflecting: working).children.map { $0.label ?? "" }.filter { $0 != "pending" }
                == held.filter { $0 != "trustKeySealedWithoutTP" })
        let described = { (value: Any) in Mirror(reflecting: value).children.map { "\($0.label ?? ""): \(String(reflecting: $0.value))" } }
        #expect(described(Snapshot(working)) == described(snapshot))
    }

    @Test func onlyTransactionWritesTheVaultFile() throws {
        let blocks = try Self.topLevelBlocks()
        // A call to a writer of files whose destination is the vault's path, over however many lines.
        let write = try Regex(#"(writeAtomically|replaceAtomically|createExclusive)\([^;{}]*?\b(?:to|at):\s*(?:self\.)?location\.path\b"#)
        let writers = blocks.filter { $0.text.contains(write) }.map(\.file)
        #expect(!writers.isEmpty)
        let elsewhere = writers.filter { !$0.hasPrefix("Transaction/") }
        #expect(elsewhere.isEmpty, "the vault file written outside Transaction/: \(elsewhere)")
        let encoding = try Regex(#"func encode(Pieces)?\(\)"#)
        let sealing = blocks.filter { $0.text.contains(encoding) }.map { "\($0.kind) \($0.name)" }
        #expect(Set(sealing) == ["extension WorkingCopy"], "what seals a vault file: \(sealing)")
    }

    /// A vault of one item and one member opened by its owner: trust and signing keys, the trust
    /// read, a header, the members folded on opening.
    static func ownersSnapshot() throws -> Snapshot {
        let dir = try TempDirectory()
        let vault = try Vault.makeTest(at: dir.location())
        try vault.add("first", "a", "secret-one")
        try vault.addMember(name: "alice", recipient: try AgeIdentity.generate().recipient, groups: [], readOnly: false)
        return try Snapshot.unlock(
            fileBytes(dir.location().path), secret: testKeyFile, deviceKey: try deviceKey(of: dir.location()), path: "test")
    }
}
