import Foundation
import Testing

/// Small files with one job (docs/ARCHITECTURE.md, "The house"): no Swift file under Sources/ or
/// Tests/ is longer than 450 lines, but the word list's table.
@Suite struct FileLengthRuleTests {
    static let maximumLines = 450

    /// Files allowed to be longer, each for a reason of its own.
    static let longerAllowed: Set<String> = [
        "Sources/VaultCore/Generator/EFFLargeWordList+Words.swift"  // the 7 776 words, twelve to a line (generated)
    ]

    @Test func noSwiftFileIsLongerThanTheLimit() throws {
        var tooLong: [String] = []
        for folder in ["Sources", "Tests"] {
            for (path, lines) in try Self.swiftFileLengths(under: folder)
            where lines > Self.maximumLines && !Self.longerAllowed.contains(path) {
                tooLong.append("\(path): \(lines) lines")
            }
        }
        #expect(tooLong.isEmpty, "longer than \(Self.maximumLines) lines (split by topic): \(tooLong.sorted())")
    }

    /// The allowance names files that exist, so a renamed word list does not leave a hole in the rule.
    @Test func theAllowedFilesExist() {
        for path in Self.longerAllowed {
            #expect(FileManager.default.fileExists(atPath: Self.packageRoot + "/" + path), "\(path) is allowed but missing")
        }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Every Swift file under `folder` of the package (its path from the package root) with its line count.
    static func swiftFileLengths(under folder: String) throws -> [(path: String, lines: Int)] {
        let base = packageRoot + "/" + folder
        guard let paths = FileManager.default.enumerator(atPath: base)?.allObjects as? [String] else { return [] }
        return try paths.filter { $0.hasSuffix(".swift") }.map { path in
            let text = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            return (folder + "/" + path, lines)
        }
    }
}
