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

    /// The commands whose table entry still lists their options itself (`options:`), not yet
    /// declared on their arguments type. Shrinks to none; a converted command never comes back.
    static let stillListedInTable: Set<String> = [
        "group", "grant", "revoke", "identity", "member", "trust", "unlock", "lock", "status", "passwd", "rekey",
        "device-key", "sync", "check-history", "exposure", "conflicts", "resolve", "run", "env", "inject", "scan",
        "redact", "wipe", "first-run", "export", "import", "reset", "verify", "upgrade", "copy",
        "help", "__complete", "__clipboard-clear",
    ]

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
        #expect(Set(spelled.keys).subtracting(names).isEmpty, "declared but in no command: \(Set(spelled.keys).subtracting(names).sorted())")
    }

    /// A command's options are its arguments type's, in its order: the table lists none itself
    /// (but for the commands not yet converted, named above).
    @Test(arguments: CommandTable.commands.map(\.name))
    func commandTakesItsOptionsFromItsArguments(name: String) throws {
        let command = try #require(CommandTable.commands.first { $0.name == name })
        let declared = command.arguments.options.map(\.long)
        if Self.stillListedInTable.contains(name) {
            #expect(declared.isEmpty && !command.options.isEmpty, "\(name) is converted: take it out of stillListedInTable")
        } else {
            #expect(command.options.map(\.long) == declared, "\(name)'s table entry lists options its arguments type does not declare")
        }
    }

    /// No converted command's option is declared in Table/: the table holds the global options and
    /// the commands, and takes the commands' options from their arguments types.
    @Test func noCommandOptionIsDeclaredInTheTable() throws {
        let globals = Set(CommandTable.globalOptions.map(\.long))
        let converted = Set(CommandTable.commands.filter { !Self.stillListedInTable.contains($0.name) }.flatMap(\.options).map(\.long))
        for file in Self.sources where file.path.hasPrefix("Table/") {
            let commandOptions = try Self.declaredNames(in: file.text).filter { !globals.contains($0) && converted.contains($0) }
            #expect(commandOptions.isEmpty, "\(file.path) declares \(commandOptions)")
        }
    }
}
