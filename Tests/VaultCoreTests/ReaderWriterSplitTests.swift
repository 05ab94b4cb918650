import Foundation
import Testing
@testable import VaultCore

/// One reader, one writer (docs/ARCHITECTURE.md): a read gives a `Snapshot`, which cannot change;
/// only a `WorkingCopy` changes, and only Transaction/ writes the vault file. Read from the sources,
/// since what these rules forbid would compile.
@Suite struct ReaderWriterSplitTests {
    static let sources = TestVectorTests.packageRoot + "/Sources/VaultCore"

    /// Each top-level declaration block of VaultCore (`extension X {` … `}` at the margin), with its file.
    static func topLevelBlocks() throws -> [(file: String, header: String, lines: [Substring])] {
        let files = try #require(FileManager.default.enumerator(atPath: sources)?.allObjects as? [String])
        var blocks: [(file: String, header: String, lines: [Substring])] = []
        for file in files.sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            var current: (header: String, lines: [Substring])?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if let block = current {
                    if line == "}" {
                        blocks.append((file, block.header, block.lines))
                        current = nil
                    } else {
                        current?.lines.append(line)
                    }
                } else if line.hasSuffix("{"), let first = line.first, first.isLetter {
                    current = (String(line), [])
                }
            }
        }
        return blocks
    }

    @Test func aSnapshotCannotChange() throws {
        let blocks = try Self.topLevelBlocks()
        let snapshot = try #require(blocks.first { $0.header.hasPrefix("struct Snapshot:") })
        let variables = snapshot.lines.filter { $0.hasPrefix("    var ") && !$0.contains("{") }
        #expect(variables.isEmpty, "stored variables of Snapshot: \(variables)")
        var changing: [String] = []
        for block in blocks where ["struct Snapshot", "extension Snapshot", "protocol OpenVault", "extension OpenVault"]
            .contains(where: { block.header.hasPrefix($0) }) {
            changing += block.lines.filter { $0.contains("mutating func") }.map { "\(block.file): \($0)" }
        }
        #expect(changing.isEmpty, "a snapshot or every opened vault changed by: \(changing)")
    }

    @Test func onlyTransactionWritesTheVaultFile() throws {
        let blocks = try Self.topLevelBlocks()
        let writers = blocks.flatMap { block in
            block.lines.filter { $0.contains("writeAtomically(") && $0.contains("to: location.path") }.map { (block.file, $0) }
        }
        #expect(!writers.isEmpty)
        let elsewhere = writers.filter { !$0.0.hasPrefix("Transaction/") }
        #expect(elsewhere.isEmpty, "the vault file written outside Transaction/: \(elsewhere)")
        let sealing = blocks.filter { block in block.lines.contains { $0.contains("func encode() throws") } }.map(\.header)
        #expect(sealing == ["extension WorkingCopy {"], "what seals a vault file: \(sealing)")
    }
}
