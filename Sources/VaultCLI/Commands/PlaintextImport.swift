import FoundationEssentials
import VaultCore
import VaultCrypto

/// `vault import --from vault-csv|vault-json FILE`: a plaintext export read back, byte for byte,
/// in one write; a malformed file imports nothing and names its row (or item).
enum PlaintextImport {
    /// The `--from` values of vault's own plaintext exports.
    static let formats = ["vault-csv", "vault-json"]

    static func run(_ invocation: Invocation, from format: String, path: String, policy: ConflictPolicy, json: Bool) throws {
        let bytes = try PlainFile.readSecrets(path, kind: .plaintextExport)
        let items = try readItems(bytes, format: format, path: path, now: invocation.now)
        let progress = ProgressLine.start(invocation, label: "import")
        let vault = try VaultAccess(invocation).vault(progress: progress)
        defer { progress?.finish() }
        // An item twice in the file meets itself: "exists here" covers that too.
        try ImportCommand.addAll(from: path, holder: quoted(path), json: json, invocation) {
            try vault.importItems(items, onConflict: policy)
        }
    }

    /// Every item of the file, or a usage error naming the row (CSV) or item (JSON) that is wrong.
    private static func readItems(_ bytes: SecretBytes, format: String, path: String, now: Date) throws -> [Item] {
        let records = try readRecords(bytes, format: format, path: path)
        let place = format == "vault-csv" ? "row" : "item"
        return try records.map { record in
            do {
                return try PlainExportFields.item(from: record.fields, now: now)
            } catch let problem as PlainExportFields.Problem {
                throw UsageError("\(quoted(path)) \(place) \(record.number): \(problem.message); nothing was imported", hint: problem.hint)
            }
        }
    }

    /// The fields of each row (CSV) or item (JSON), numbered as a reader counts them.
    private static func readRecords(_ bytes: SecretBytes, format: String, path: String) throws -> [(
        number: Int, fields: [String: SecretBytes]
    )] {
        do {
            if format == "vault-csv" { return try PlainExportCSV.parse(bytes).map { ($0.row, $0.fields) } }
            return try PlainExportJSON.parse(bytes).enumerated().map { ($0.offset + 1, $0.element) }
        } catch let malformed as PlainExportCSV.Malformed {
            throw UsageError("\(quoted(path)) row \(malformed.row): \(malformed.problem); nothing was imported", hint: fileHint(format))
        } catch let malformed as PlainExportJSON.Malformed {
            throw UsageError("\(quoted(path)) item \(malformed.item): \(malformed.problem); nothing was imported", hint: fileHint(format))
        } catch let syntax as UsageError {
            throw UsageError("\(quoted(path)): \(syntax.message); nothing was imported", hint: syntax.hint)
        }
    }

    private static func fileHint(_ format: String) -> String {
        "import reads what 'vault export --format \(format == "vault-csv" ? "csv" : "json") --plaintext' writes (docs/CLI.md, \"Plaintext exports\")"
    }
}
