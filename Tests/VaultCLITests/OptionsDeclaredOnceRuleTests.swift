import Foundation
import Testing
@testable import VaultCLI

/// Each option is declared once (docs/ARCHITECTURE.md, "Options"): its long name spelled in one
/// `OptionSpec("…")` on the arguments type of the command that reads it (or on the option group
/// several commands share), and the table takes each command's options from its arguments type,
/// so help, the man page and the completions show what the command reads.
@Suite struct OptionsDeclaredOnceRuleTests {
    /// Every Swift file of VaultCLI, by its path from Sources/VaultCLI.
    static let sources: [(path: String, text: String)] = {
        let root = Sandbox.packageRoot + "/Sources/VaultCLI/"
        return (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }
            .compactMap { file in (try? String(contentsOfFile: root + file, encoding: .utf8)).map { (file, $0) } }
    }()

    /// The declarations of option names in `text`: `OptionSpec("name"` and `OptionName("name")`.
    static func declaredNames(in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: #"\bOption(Spec|Name)\(\s*"([^"]*)""#)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 2), in: text).map { String(text[$0]) }
        }
    }

    @Test func sourcesAreFound() {
        #expect(Self.sources.count > 150)
        #expect(Self.sources.contains { $0.path == "Parsing/ItemSelection.swift" })
    }

    /// Each long name of the table is spelled in one declaration in all of VaultCLI: an option that
    /// shares another's name (a repeated --group) takes it from that declaration (`.name`).
    @Test func eachLongNameIsSpelledOnce() throws {
        var spelled: [String: [String]] = [:]
        for file in Self.sources {
            for name in try Self.declaredNames(in: file.text) { spelled[name, default: []].append(file.path) }
        }
        let names = Set((CommandTable.globalOptions + CommandTable.commands.flatMap(\.options)).map(\.long))
        for name in names.sorted() {
            #expect(spelled[name]?.count == 1, "--\(name) is spelled in \(spelled[name] ?? [])")
        }
        #expect(
            Set(spelled.keys).subtracting(names).isEmpty, "declared but in no command: \(Set(spelled.keys).subtracting(names).sorted())")
    }

    /// A command's options are its arguments type's, in its order: the table lists none itself.
    @Test(arguments: CommandTable.commands.map(\.name))
    func commandTakesItsOptionsFromItsArguments(name: String) throws {
        let command = try #require(CommandTable.commands.first { $0.name == name })
        #expect(
            command.options.map(\.long) == command.arguments.options.map(\.long),
            "\(name)'s table entry lists options its arguments type does not declare")
    }

    /// No command's option is declared in Table/: it holds the commands and the global options
    /// (`GlobalOptions`), and takes the commands' options from their arguments types.
    @Test func noCommandOptionIsDeclaredInTheTable() throws {
        for file in Self.sources where file.path.hasPrefix("Table/") && file.path != "Table/GlobalOptions.swift" {
            let declared = try Self.declaredNames(in: file.text)
            #expect(declared.isEmpty, "\(file.path) declares \(declared)")
        }
        let globals = try Self.declaredNames(in: Self.sources.first { $0.path == "Table/GlobalOptions.swift" }?.text ?? "")
        #expect(globals == CommandTable.globalOptions.map(\.long), "GlobalOptions declares the global options, in their order")
    }
}
