import Foundation
import Testing
@testable import VaultCore
import VaultCrypto

/// The pure parsers of `vault import --from`: CSV and JSON read into locked memory, and the
/// entries each format makes.
@Suite struct ImportParserTests {
    static func bytes(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }

    /// Every row of `text` read as a stream, the header first.
    static func rows(_ text: String) throws -> [CSVRows.Row] {
        var reader = try CSVRows(ExportStream(bytes: bytes(text)))
        var rows: [CSVRows.Row] = []
        while let row = try reader.next() { rows.append(row) }
        return rows
    }

    @Test func csvReadsQuotesCommasLineBreaksAndBothLineEnds() throws {
        let rows = try Self.rows("\u{FEFF}a,\"b\"\r\n\"x, \"\"y\"\"\",\"two\nlines\"\n\n1,\n")
        #expect(rows.map { $0.cells.map(\.text) } == [["a", "b"], ["x, \"y\"", "two\nlines"], ["1", ""]])
        #expect(rows.map(\.line) == [1, 2, 5])
    }

    @Test func csvNamesTheLineOfWhatIsWrong() throws {
        #expect(throws: ImportProblem(.line(2), .unterminatedQuote)) { try Self.rows("a,b\n1,\"open\n2,3\n") }
        #expect(throws: ImportProblem(.line(2), .textAfterQuote)) { try Self.rows("a,b\n\"1\"x,2\n") }
        let batch = try ColumnMapping(parsing: "service=a,secret=b").entries(from: Self.bytes("a,b\n1\n2,3\n"))
        #expect(batch.bad == [ImportProblem(.line(2), .fieldCount(expected: 2, found: 1))])
        #expect(batch.entries.count == 1)
    }

    @Test func jsonKeepsStringsWithTheirEscapes() throws {
        let tree = try JSONTree.parse(
            Self.bytes(#"{"a": ["x\"\\\/\n\u00e9\ud83d\ude00", 1.5e3, true, null], "b": {}}"#), origin: .named("f"))
        #expect(tree["a"]?.elements.first?.bytes?.text == "x\"\\/\né😀")
        guard case .number("1.5e3")? = tree["a"]?.elements[1] else { Issue.record("a number"); return }
        for bad in [
            #"{"a": }"#, #"{"a": "open}"#, #"[1,]x"#, "\"\u{01}\"", String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        ] {
            #expect(throws: ImportProblem.self, "\(bad)") { try JSONTree.parse(Self.bytes(bad), origin: .named("f")) }
        }
    }

    @Test func passEntriesAreNamedByTheirPath() throws {
        let entry = try PassEntry.entry(
            path: ["github", "alice"], plaintext: Self.bytes("pw\r\nuser: alice\n\notpauth://totp/x?secret=ABC\nlast\n"))
        #expect(entry.service == "github" && entry.account == "alice" && entry.folders.isEmpty && entry.secret.text == "pw")
        #expect(entry.fields[.notes]?.text == "user: alice\n\nlast" && entry.fields[.oneTimeCode]?.text == "otpauth://totp/x?secret=ABC")
        let top = try PassEntry.entry(path: ["token"], plaintext: Self.bytes("t\n"))
        #expect(top.service == "token" && top.account == "" && top.fields.isEmpty)
        let deep = try PassEntry.entry(path: ["work", "aws", "eu", "bob"], plaintext: Self.bytes("d"))
        #expect(deep.folders == ["work"] && deep.service == "aws/eu" && deep.account == "bob")
        #expect(throws: ImportProblem(.named("empty"), .nothingToKeep)) {
            try PassEntry.entry(path: ["empty"], plaintext: Self.bytes("\n\n"))
        }
    }

    @Test func columnMappingsNeedServiceAndSecret() throws {
        #expect(throws: ImportProblem(.columnMapping, .badMapping("secret=…"))) { try ColumnMapping(parsing: "service=Name") }
        #expect(throws: ImportProblem(.columnMapping, .badMapping("colour=Red"))) {
            try ColumnMapping(parsing: "service=A,secret=B,colour=Red")
        }
        #expect(throws: ImportProblem(.columnMapping, .badMapping("service=C"))) {
            try ColumnMapping(parsing: "service=A,secret=B,service=C")
        }
        let mapping = try ColumnMapping(parsing: "service=Name,secret=Pw,notes=Note,notes=Pin,url=Site,folder=Dir")
        let batch = try mapping.entries(
            from: Self.bytes("name,pw,note,pin,site,dir\nA,p,free,1234,https://a,x/y\nB,,only a note,,,\n,p,,,,\nC,,,,,\n"))
        #expect(batch.entries.map(\.service) == ["A", "B"])
        #expect(batch.entries[0].fields[.notes]?.text == "url: https://a\npin: 1234\nfree" && batch.entries[0].folders == ["x", "y"])
        #expect(batch.entries[1].secret.text == "only a note" && batch.entries[1].kind == .note && batch.entries[1].fields.isEmpty)
        #expect(batch.skipped == [ImportProblem(.line(4), .noName), ImportProblem(.line(5), .nothingToKeep)])
    }

    @Test func repeatedNamesAreSeparatedNotMerged() {
        var batch = ImportBatch()
        batch.entries = [ImportOrigin.line(2), .line(3), .line(4)].enumerated().map { number, origin in
            ImportEntry(origin: origin, folders: [], service: number == 1 ? "b" : "a", account: "", secret: Self.bytes("s"))
        }
        batch.separateRepeatedNames { $0.service }
        #expect(batch.entries.map(\.origin) == [.line(2), .line(3)])
        #expect(batch.bad == [ImportProblem(.line(4), .sameNameAs(.line(2)))])
    }

    @Test func foldersBecomeValidGroupNames() {
        #expect(AccessGroup(folders: ["Work", "Social Media"])?.name == "Work-Social-Media")
        #expect(AccessGroup(folders: ["_private"])?.name == "private")
        #expect(AccessGroup(folders: ["Ünïcode"])?.name == "n-code")
        #expect(AccessGroup(folders: []) == nil)
        #expect(AccessGroup(folders: [String(repeating: "a", count: 100)])?.name.count == 64)
    }
}
