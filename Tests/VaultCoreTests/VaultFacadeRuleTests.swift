import Foundation
import Testing

/// `Vault` is a façade over its rooms (docs/ARCHITECTURE.md, "Vault and the operations"): few files
/// extend it, no `Operations/` room of left-overs, and one mutable value in it (the reads' state).
@Suite struct VaultFacadeRuleTests {
    /// How many files may extend `Vault`: Vault+Reads.swift, Vault+Writes.swift and
    /// Unlock/Vault+Authority.swift (which the holder value replaces). Never raised: a new
    /// operation is a type of its room, and the façade method that runs it a few lines in one of these.
    static let filesExtendingVaultAtMost = 3
    /// The longest a file of the façade may be (Vault.swift and the files that extend it).
    static let facadeFileLinesAtMost = 450

    @Test func fewFilesExtendVault() throws {
        let extending = try Self.swiftFiles(under: "Sources/VaultCore").filter { file in
            file.text.split(separator: "\n").contains { Self.extendsVault(String($0)) }
        }.map(\.path)
        #expect(
            extending.count <= Self.filesExtendingVaultAtMost,
            "\(extending.count) files extend Vault (at most \(Self.filesExtendingVaultAtMost)): \(extending.sorted())")
    }

    @Test func facadeFilesAreShort() throws {
        let facade = try Self.swiftFiles(under: "Sources/VaultCore").filter { file in
            file.path == "Vault.swift" || file.text.split(separator: "\n").contains { Self.extendsVault(String($0)) }
        }
        #expect(facade.count > 1)
        for file in facade {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(
                lines <= Self.facadeFileLinesAtMost,
                "\(file.path) is \(lines) lines (at most \(Self.facadeFileLinesAtMost)): hand its work to a type of its room")
        }
    }

    @Test func noOperationsFolder() {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: Self.packageRoot + "/Sources/VaultCore/Operations", isDirectory: &isDirectory)
        #expect(!exists, "Sources/VaultCore/Operations/ is back: give each operation to the room whose work it does")
    }

    @Test func vaultHoldsOneMutableValue() throws {
        let text = try String(contentsOfFile: Self.packageRoot + "/Sources/VaultCore/Vault.swift", encoding: .utf8)
        let stored = Self.storedVariables(ofClass: "Vault", in: text)
        #expect(stored.count <= 1, "Vault's stored vars (at most one: the reads' state): \(stored)")
    }

    /// Whether `line` begins an extension of `Vault` itself (not of a type whose name starts with it).
    static func extendsVault(_ line: String) -> Bool {
        line.range(of: #"^((public|package) )?extension Vault\b"#, options: .regularExpression) != nil
    }

    /// The names of the stored `var`s declared in the body of `class name` in `text`: those at the
    /// class's own depth (its nested types' aside) that are not computed (no body on the line).
    static func storedVariables(ofClass name: String, in text: String) -> [String] {
        var depth = 0
        var classDepth: Int?
        var found: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            if classDepth == nil, code.range(of: #"\bclass \#(name)\b"#, options: .regularExpression) != nil { classDepth = depth + 1 }
            if depth == classDepth, !code.contains("{"),
                let match = code.range(
                    of: #"^((public|private|fileprivate|internal|package)(\(set\))? )*var \w+"#, options: .regularExpression)
            {
                found.append(String(code[match].split(separator: " ").last ?? ""))
            }
            depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
        }
        return found
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Every Swift file under `folder` of the package, with its text.
    static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
        let base = packageRoot + "/" + folder
        guard let paths = FileManager.default.enumerator(atPath: base)?.allObjects as? [String] else { return [] }
        return try paths.filter { $0.hasSuffix(".swift") }.map { ($0, try String(contentsOfFile: base + "/" + $0, encoding: .utf8)) }
    }
}
