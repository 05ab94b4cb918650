import Foundation
import Testing
import VaultCLI
import VaultCore

/// The committed man page and completions are what the table renders now,
/// and the man page is clean under mandoc's lint.
@Suite struct DriftTests {
    @Test(arguments: GeneratedFile.allCases)
    func committedFileMatchesTheTable(file: GeneratedFile) throws {
        let url = packageRoot.appendingPathComponent(file.path)
        let committed = try? String(contentsOf: url, encoding: .utf8)
        let rendered = file.render()
        guard let committed else {
            Issue.record("\(file.path) is missing: run `make generate` and commit it")
            return
        }
        guard committed != rendered else { return }
        let old = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let new = rendered.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        let was = line < old.count ? String(old[line]) : "(end of file)"
        let now = line < new.count ? String(new[line]) : "(end of file)"
        Issue.record(
            """
            \(file.path) differs from what CommandTable.swift renders: run `make generate` and commit it
            first difference at line \(line + 1):
              committed: \(was)
              rendered:  \(now)
            """)
    }
}

extension DriftTests {
    @Test func manPageIsCleanUnderMandocLint() throws {
        guard let mandoc = installedTool("mandoc") else { return }
        let page = packageRoot.appendingPathComponent(GeneratedFile.man.path).path
        let result = try runTool(mandoc, ["-T", "lint", page])
        #expect(
            result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty,
            "mandoc -T lint \(GeneratedFile.man.path):\n\(result.stdout)\(result.stderr)")
    }
}

/// The package root, from this file's place in Tests/VaultCLITests.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

extension DriftTests {
    /// groff (what man(1) runs) warns of nothing in the page, with every warning on, on a terminal or on paper.
    @Test func manPageIsCleanUnderGroff() throws {
        guard let groff = installedTool("groff") else { return }
        let page = packageRoot.appendingPathComponent(GeneratedFile.man.path).path
        for device in ["utf8", "ps"] {
            let result = try runTool(groff, ["-mandoc", "-ww", "-T", device, "-z", page], environment: ["LC_ALL": "C"])
            #expect(result.status == 0 && result.stderr.isEmpty, "groff -T \(device) \(GeneratedFile.man.path):\n\(result.stderr)")
        }
    }

    /// Every exit code vault returns is in the man page's EXIT STATUS and the README's exit table.
    @Test func everyExitCodeIsDocumented() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent(GeneratedFile.man.path), encoding: .utf8)
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let exitStatus = page.components(separatedBy: ".Sh EXIT STATUS").last?.components(separatedBy: "\n.Sh ").first ?? ""
        for code in Set(Status.allCases.map(\.exitCode)).sorted() {
            #expect(exitStatus.contains("\n.It \(code)\n"), "the man page's EXIT STATUS lacks \(code)")
            #expect(readme.contains("\n| \(code) | "), "the README's exit table lacks \(code)")
        }
    }
}
