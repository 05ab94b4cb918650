import Foundation
import Testing

/// Every public declaration of VaultCore and VaultCrypto has a `///` doc
/// comment (scripts/check-public-docs.sh), and the checker finds one that has none.
@Suite struct PublicDocsTests {
    @Test func everyPublicDeclarationHasADocComment() throws {
        let result = try runChecker()
        #expect(result.status == 0, "public declarations without a /// doc comment:\n\(result.output)")
    }

    @Test func theCheckerListsWhatHasNoDocComment() throws {
        let directory = FileManager.default.temporaryDirectory.path + "/vault-docs-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
        /// Documented.
        public enum Shade {
            /// Documented.
            case light
            case dark
            /// Documented.
            public func name() -> String {
                switch self {
                case .light: return "{"
                case .dark: return "}"
                }
            }
        }
        /// Documented.
        public protocol Store {
            func get() throws
        }
        struct Hidden {
            public var field: Int
            var other: Int
        }
        /// Documented.
        public struct Shown {
            @discardableResult
            public func run() -> Int { 0 }
            /// Documented.
            @discardableResult
            public func walk() -> Int { 0 }
        }
        """.write(toFile: directory + "/Sample.swift", atomically: true, encoding: .utf8)
        let result = try runChecker(directory)
        #expect(result.status != 0)
        let listed = result.output.split(separator: "\n").filter { $0.contains("Sample.swift:") }.map {
            String($0.split(separator: ":", maxSplits: 2)[1])
        }
        #expect(listed == ["5", "16", "19", "25"], "\(result.output)")
    }

    /// Runs the checker on `directory` (VaultCore and VaultCrypto when nil).
    private func runChecker(_ directory: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: packageRoot + "/scripts/check-public-docs.sh")
        process.arguments = directory.map { [$0] } ?? []
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}

/// The package root, from this file's place in Tests/VaultCoreTests.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
