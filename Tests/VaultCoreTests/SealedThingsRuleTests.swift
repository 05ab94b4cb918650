import Foundation
import Testing

/// Each sealed thing is sealed and opened in one file: AES-GCM is called (`AESGCM.seal`,
/// `AESGCM.open…`, or any `open` given a key and an AAD) only in VaultCrypto and in the files of
/// `Sealed/` docs/ARCHITECTURE.md's "Sealed things" table names, each of which exists and both
/// seals and opens (a row marked "opened only" opens). The table is read from the document, so the
/// document and the code cannot drift apart.
@Suite struct SealedThingsRuleTests {
    static let root = TestVectorTests.packageRoot
    static let vaultCore = "Sources/VaultCore/"

    struct Row {
        let thing: String
        /// Relative to Sources/VaultCore.
        let file: String
        var opensOnly: Bool { thing.contains("opened only") }
    }

    /// The rows of the table under "## Sealed things".
    static func rows() throws -> [Row] {
        let text = try String(contentsOfFile: root + "/docs/ARCHITECTURE.md", encoding: .utf8)
        let section = try #require(
            text.components(separatedBy: "\n## Sealed things\n").dropFirst().first,
            "docs/ARCHITECTURE.md has no \"## Sealed things\" section")
        let body = section.components(separatedBy: "\n## ").first ?? section
        var rows: [Row] = []
        for line in body.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 2, cells[2].hasPrefix("`"), cells[2].hasSuffix(".swift`") else { continue }
            rows.append(Row(thing: cells[1], file: String(cells[2].dropFirst().dropLast())))
        }
        return rows
    }

    /// Whether `line` calls AES-GCM: VaultCrypto's `AESGCM.seal`/`AESGCM.open…`, or an `open`
    /// given a key and an AAD (a cipher context's, `AESGCM.Opener`).
    static func callsAESGCM(_ line: Substring) -> (seals: Bool, opens: Bool) {
        let code = line.trimmingCharacters(in: .whitespaces)
        if code.hasPrefix("//") { return (false, false) }
        let opensWithKeyAndAAD = code.range(of: #"\.open\w*\([^()]*key:.*aad:"#, options: .regularExpression) != nil
        return (code.contains("AESGCM.seal"), code.contains("AESGCM.open") || opensWithKeyAndAAD)
    }

    /// Every Swift file under Sources but VaultCrypto, relative to the package root, with what it calls.
    static func callers() throws -> [String: (seals: Bool, opens: Bool)] {
        let sources = root + "/Sources"
        let files = try #require(FileManager.default.enumerator(atPath: sources)?.allObjects as? [String])
        var found: [String: (seals: Bool, opens: Bool)] = [:]
        for file in files where file.hasSuffix(".swift") && !file.hasPrefix("VaultCrypto/") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            var calls = (seals: false, opens: false)
            for line in text.split(separator: "\n") {
                let call = callsAESGCM(line)
                calls = (calls.seals || call.seals, calls.opens || call.opens)
            }
            if calls.seals || calls.opens { found["Sources/" + file] = calls }
        }
        return found
    }

    @Test func aesGCMIsCalledOnlyInTheListedFiles() throws {
        let listed = Set(try Self.rows().map { Self.vaultCore + $0.file })
        let outside = try Self.callers().keys.filter { !listed.contains($0) }.sorted()
        #expect(outside.isEmpty, "AES-GCM called outside the files docs/ARCHITECTURE.md's \"Sealed things\" lists: \(outside)")
    }

    @Test func everyListedFileExistsAndBothSealsAndOpens() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 15, "the \"Sealed things\" table lists \(rows.count) rows")
        let callers = try Self.callers()
        for row in rows {
            let path = Self.vaultCore + row.file
            #expect(row.file.hasPrefix("Sealed/"), "\(row.thing): \(row.file) is outside Sealed/")
            #expect(FileManager.default.fileExists(atPath: Self.root + "/" + path), "\(row.thing): \(path) does not exist")
            let calls = callers[path] ?? (false, false)
            #expect(calls.opens, "\(row.thing): \(path) opens nothing")
            #expect(calls.seals || row.opensOnly, "\(row.thing): \(path) seals nothing (mark the row \"opened only\" if it is read only)")
        }
    }

    /// `Sealed/` seals and opens bytes it is given: `Storage/` reads and writes the files.
    @Test func theSealedRoomTouchesNoPath() throws {
        let room = Self.root + "/" + Self.vaultCore + "Sealed"
        var touching: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: room) where name.hasSuffix(".swift") {
            let text = try String(contentsOfFile: room + "/" + name, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if ["FileSystem.", "FileManager", "fopen(", "open(path"].contains(where: { line.contains($0) }) {
                    touching.append("\(name): \(line)")
                }
            }
        }
        #expect(touching.isEmpty, "Sealed/ touches paths: \(touching)")
    }

    @Test func everyFileOfTheSealedRoomIsListed() throws {
        let listed = Set(try Self.rows().map(\.file))
        let room = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/" + Self.vaultCore + "Sealed")
        let unlisted = room.filter { $0.hasSuffix(".swift") && !listed.contains("Sealed/" + $0) }.sorted()
        #expect(unlisted.isEmpty, "files of Sealed/ the \"Sealed things\" table does not list: \(unlisted)")
    }
}
