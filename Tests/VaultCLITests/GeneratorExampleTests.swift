import Foundation
import Testing
@testable import VaultCLI

/// The generator examples people copy work as printed: those of `vault help
/// add`/`update` (the man page renders the same table) and the README's.
@Suite struct GeneratorExampleTests {
    /// The table's examples of add, then update (whose items the add examples made).
    static let tableExamples = [CommandTable.addCommand, CommandTable.updateCommand].flatMap { command in
        command.examples.map(\.command).filter { $0.contains("--generate") }
    }

    /// The README's lines that run `vault … --generate`, comments included (sh drops them).
    static var readmeExamples: [String] {
        let text = (try? String(contentsOfFile: Sandbox.packageRoot + "/README.md", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("vault ") && $0.contains("--generate") }
    }

    @Test func examplesExist() {
        #expect(GeneratorExampleTests.tableExamples.count >= 4)
        #expect(GeneratorExampleTests.readmeExamples.contains { $0.contains("--require upper,lower,digit,symbol") })
    }

    @Test(arguments: [("table", tableExamples), ("README", readmeExamples)])
    func examplesRunAsPrinted(source: String, lines: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        for line in lines {
            // script(1) gives the example a terminal, as --print needs.
            let result = try sandbox.run("/usr/bin/script", ["-qec", line, "/dev/null"])
            #expect(result.status == 0, "\(source): \(line): exit \(result.status): \(result.stdoutText)")
        }
    }
}
