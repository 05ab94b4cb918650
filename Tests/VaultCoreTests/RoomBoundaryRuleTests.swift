import Foundation
import Testing

/// What each room may touch (docs/ARCHITECTURE.md, "What each room may touch"), read from the
/// sources: each C library has one Swift module that imports it; the library prints nothing and
/// names no flag; git and every other program are started in two files of the command line.
@Suite struct RoomBoundaryRuleTests {
    /// Each C target and the one folder of Sources whose Swift files may import it.
    static let cImporters = [
        "COpenSSL": "VaultCrypto/",
        "CTLS": "VaultOpenBao/",
        "CTPM": "VaultTPM/",
        "CDBus": "VaultSecretProvider/",
        "CLibSecret": "VaultSecretService/",
        "CKernelKeyring": "VaultCore/Storage/",
        "CTraceGuard": "VaultCLI/Process/"
    ]

    /// The files that start a process: the git runner, and the child of `run`, `edit`, the clipboard
    /// and the importers' programs.
    static let processStarters: Set<String> = ["VaultCLI/Git/Git.swift", "VaultCLI/Process/ChildProcess.swift"]

    @Test func eachCLibraryIsImportedByOneModule() throws {
        var misplaced: [String] = []
        for (path, line) in try Self.codeLines(under: "") {
            guard
                let match = line.range(
                    of: #"^(@_implementationOnly |internal |public |package )?import (C[A-Z]\w*)\b"#,
                    options: .regularExpression)
            else { continue }
            let module = String(line[match].split(separator: " ").last ?? "")
            if !path.hasPrefix(Self.cImporters[module] ?? "(a C target not in cImporters)") { misplaced.append("\(path): \(line)") }
        }
        #expect(misplaced.isEmpty, "a C library imported outside its one module (docs/ARCHITECTURE.md): \(misplaced)")
    }

    /// VaultCore and VaultCrypto write nothing to stdout or stderr: the command line says what happened.
    @Test func theLibraryPrintsNothing() throws {
        let printing = #"\bprint\(|\bdebugPrint\(|\bdump\(|FileHandle\.standard|\bfputs\(|\bfwrite\(|\bputs\(|STDOUT_FILENO|STDERR_FILENO"#
        let found = try (Self.codeLines(under: "VaultCore/") + Self.codeLines(under: "VaultCrypto/")).filter {
            $0.line.range(of: printing, options: .regularExpression) != nil
        }
        #expect(found.isEmpty, "the library writes to a terminal stream: \(found.map { "\($0.path): \($0.line)" })")
    }

    /// VaultCore knows no flag: no string literal in its code starts with a dash and a letter.
    @Test func theLibraryNamesNoFlag() throws {
        let found = try Self.codeLines(under: "VaultCore/").filter {
            $0.line.range(of: #""--?[A-Za-z]"#, options: .regularExpression) != nil
        }
        #expect(found.isEmpty, "a flag spelled in VaultCore: \(found.map { "\($0.path): \($0.line)" })")
    }

    /// git is run by the one runner (`Git/Git.swift`: the C locale, its exit status decides); no other
    /// file spells the program's name or starts a process.
    @Test func gitAndOtherProgramsStartInTwoFiles() throws {
        let lines = try Self.codeLines(under: "")
        let spawning = lines.filter { $0.line.contains("posix_spawn") || $0.line.contains("Process()") || $0.line.contains("execv") }
            .map(\.path).filter { !Self.processStarters.contains($0) }
        #expect(Set(spawning).isEmpty, "a process started outside \(Self.processStarters.sorted()): \(Set(spawning).sorted())")
        let namingGit = lines.filter { $0.line.contains(#""git""#) || $0.line.contains(#""/usr/bin/git""#) }
            .map(\.path).filter { $0 != "VaultCLI/Git/Git.swift" }
        #expect(Set(namingGit).isEmpty, "git named as a program outside VaultCLI/Git/Git.swift: \(Set(namingGit).sorted())")
    }

    static let sources =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/Sources/"

    /// The lines of code (comments left out) of every Swift file under `folder` of Sources, with the
    /// file's path relative to Sources.
    static func codeLines(under folder: String) throws -> [(path: String, line: String)] {
        let base = sources + folder
        let paths = try #require(FileManager.default.enumerator(atPath: base)?.allObjects as? [String], "no \(base)")
        var lines: [(path: String, line: String)] = []
        for path in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: base + path, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let code = line.trimmingCharacters(in: .whitespaces)
                if !code.hasPrefix("//") { lines.append((folder + path, code)) }
            }
        }
        #expect(!lines.isEmpty, "no Swift file under Sources/\(folder)")
        return lines
    }
}
