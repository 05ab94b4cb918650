import Foundation
import Testing

/// `vault import` reads a Bitwarden JSON or CSV export as a stream (docs/IMPORT.md, "Bounds"): its
/// peak memory follows the largest item, not the export. An export of 24 items of 1 MiB each (the
/// most one item may hold), every one of them left out, costs about what an export of one does.
@Suite struct ImportStreamingTests {
    /// A Bitwarden export of `count` cards (left out by the import), each with a note of `noteBytes`.
    static func export(cards count: Int, noteBytes: Int) -> [UInt8] {
        let note = String(repeating: "n", count: noteBytes)
        let items = (0..<count).map { "{\"type\":3,\"name\":\"card-\($0)\",\"notes\":\"\(note)\"}" }
        return Array("{\"encrypted\":false,\"folders\":[],\"items\":[\(items.joined(separator: ","))]}".utf8)
    }

    /// A CSV export of `count` rows with no title (left out by the import), each with a note of `noteBytes`.
    static func csv(rows count: Int, noteBytes: Int) -> [UInt8] {
        let note = String(repeating: "n", count: noteBytes)
        return Array(("Title,Password,Notes\n" + (0..<count).map { _ in ",pw,\"\(note)\"\n" }.joined()).utf8)
    }

    /// The peak resident memory (ru_maxrss) of `vault import --from FORMAT FILE --dry-run`, in bytes.
    static func peakOfImport(_ sandbox: Sandbox, _ file: String, _ format: [String] = ["bitwarden-json"]) throws -> Int {
        let measure =
            "import resource, subprocess, sys; status = subprocess.run(sys.argv[1:]).returncode; "
            + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024); sys.exit(status)"
        let run = try sandbox.run(
            "/usr/bin/python3", ["-c", measure, Sandbox.vaultBinary, "import", "--from"] + format + [file, "--dry-run"])
        #expect(run.status == 0, "\(run.stderr)")
        return Int(run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Int.max
    }

    @Test func peakMemoryFollowsTheLargestItemNotTheExport() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.write("one.json", Self.export(cards: 1, noteBytes: 1 << 20))
        try sandbox.write("many.json", Self.export(cards: 24, noteBytes: 1 << 20))
        let one = try Self.peakOfImport(sandbox, "one.json"), many = try Self.peakOfImport(sandbox, "many.json")
        // Reading the 24 MiB export whole (and its tree) cost three times its size more.
        #expect(many - one < 8 << 20, "one item: \(one >> 20) MiB, 24 items: \(many >> 20) MiB")
    }

    @Test func aCSVExportStreamsToo() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.write("one.csv", Self.csv(rows: 1, noteBytes: 1 << 20))
        try sandbox.write("many.csv", Self.csv(rows: 24, noteBytes: 1 << 20))
        let format = ["csv", "--columns", "service=Title,secret=Password,notes=Notes"]
        let one = try Self.peakOfImport(sandbox, "one.csv", format), many = try Self.peakOfImport(sandbox, "many.csv", format)
        #expect(many - one < 8 << 20, "one row: \(one >> 20) MiB, 24 rows: \(many >> 20) MiB")
    }
}
