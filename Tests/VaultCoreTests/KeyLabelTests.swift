import Foundation
import Testing
@testable import VaultCore

/// Every label that separates one use of a key from another is a case of `KeyLabel`: no source
/// file of VaultCore spells one out in code (doc comments may quote them).
@Suite struct KeyLabelTests {
    @Test func noLabelIsSpelledOutsideKeyLabel() throws {
        let sources = TestVectorTests.packageRoot + "/Sources/VaultCore"
        let files = try #require(FileManager.default.enumerator(atPath: sources)?.allObjects as? [String])
        let prefixes = Set(KeyLabel.allCases.map { "\"" + $0.rawValue.split(separator: " ").prefix(2).joined(separator: " ") + " " })
        #expect(prefixes == ["\"vault v1 ", "\"vault v2 ", "\"vault v3 ", "\"vault team "])
        var spelled: [String] = []
        for file in files where file.hasSuffix(".swift") && file != "Keys/KeyLabel.swift" {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if prefixes.contains(where: { line.contains($0) }) { spelled.append("\(file): \(line)") }
            }
        }
        #expect(spelled.isEmpty, "labels spelled outside Keys/KeyLabel.swift: \(spelled)")
    }
}
