import Foundation
import Testing
@testable import VaultCLI
@testable import VaultOpenBao

/// The committed inputs of the VaultCLI fuzz harnesses (Fuzz/Regressions/NAME
/// and Fuzz/Corpus/NAME) through the parser each fuzzes; see Fuzz/README.md.
@Suite struct CLIFuzzRegressionTests {
    static let parsers: [String: @Sendable ([UInt8]) -> Void] = [
        "Arguments": { bytes in
            let argv = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            do {
                _ = try Parser.parse(argv)
            } catch {
                #expect(!ErrorReport(error).message.isEmpty)
            }
        },
        "HTTPResponse": { bytes in
            bytes.withUnsafeBytes { buffer in
                for atEnd in [false, true] {
                    guard let parsed = try? HTTPResponseParser.parse(buffer, atEnd: atEnd) else { continue }
                    #expect(parsed.body.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= buffer.count })
                }
            }
        }
    ]

    @Test(arguments: parsers.keys.sorted())
    func committedInputs(harness: String) throws {
        let directory = Sandbox.packageRoot + "/Fuzz"
        let inputs = ["Regressions", "Corpus"].flatMap { kind -> [[UInt8]] in
            let path = directory + "/\(kind)/\(harness)"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.sorted().compactMap { FileManager.default.contents(atPath: path + "/" + $0).map { Array($0) } }
        }
        #expect(!inputs.isEmpty, "no seeds in Fuzz/Corpus/\(harness)")
        let regressions = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/Regressions/\(harness)")) ?? []
        #expect(!regressions.isEmpty, "no inputs in Fuzz/Regressions/\(harness)")
        for input in inputs { Self.parsers[harness]!(input) }
    }
}
