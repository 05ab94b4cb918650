import Foundation
import Testing
@testable import VaultCLI

/// The rules of the command-line edge (docs/ARCHITECTURE.md, "The command-line edge"), checked on
/// the sources: environment variables and config keys are named by `EnvironmentVariable` and
/// `ConfigKey` and read through Settings/; unlockers are built by one function; a command's `run`
/// parses no text.
@Suite struct CLIEdgeRuleTests {
    /// Every Swift file of VaultCLI and of the `vault` executable, by its path from Sources/.
    static let sources: [(path: String, text: String)] = {
        let root = Sandbox.packageRoot + "/Sources/"
        return ["VaultCLI", "vault"].flatMap { module in
            (FileManager.default.enumerator(atPath: root + module)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".swift") }
                .compactMap { file in
                    (try? String(contentsOfFile: root + module + "/" + file, encoding: .utf8)).map { (module + "/" + file, $0) }
                }
        }
    }()

    static let settingsRoom = "VaultCLI/Settings/"

    /// The lines of files outside Settings/ that match `pattern`, as "path:line: text".
    static func linesOutsideSettings(matching pattern: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return sources.filter { !$0.path.hasPrefix(settingsRoom) }.flatMap { file in
            file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
                let text = String(line)
                let range = NSRange(text.startIndex..., in: text)
                return regex.firstMatch(in: text, range: range) == nil ? nil : "\(file.path):\(number + 1): \(text.trimmed())"
            }
        }
    }

    @Test func sourcesAreFound() {
        #expect(Self.sources.count > 150)
        #expect(Self.sources.contains { $0.path == "VaultCLI/Settings/EnvironmentVariable.swift" })
    }

    /// No environment variable is named by a string outside Settings/: not read or set with
    /// `environment["…"]`, not read with `getenv("…")`.
    @Test func noEnvironmentStringOutsideSettings() throws {
        let found = try Self.linesOutsideSettings(matching: #"environment\["|getenv\(""#)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Vault's own variables (those the man page describes) are read only in Settings/: elsewhere
    /// only set, for a program vault runs.
    @Test func describedVariablesAreReadOnlyInSettings() throws {
        let described = EnvironmentVariable.allCases.filter { !EnvironmentVariable.undescribed.contains($0) }
        let cases = described.map { "\($0)" }.joined(separator: "|")
        let found = try Self.linesOutsideSettings(matching: #"\[\.("# + cases + #")\](?!\s*=[^=])"#)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Each variable is described once in the table (so the man page lists it), but for the
    /// system's and other programs', which it describes not at all.
    @Test func describedVariablesAreTheEnumsOwn() {
        let described = CommandTable.environment.map(\.variable)
        #expect(Set(described).count == described.count, "a variable described twice")
        #expect(Set(described) == Set(EnvironmentVariable.allCases).subtracting(EnvironmentVariable.undescribed))
    }

    /// No config key is spelled as a string outside Settings/: not read (`value("…")`), not written
    /// (`Config.set("…"`), not named by an option (`configKey: "…"`).
    @Test func noConfigKeyStringOutsideSettings() throws {
        let keys = ConfigKey.allCases.map { NSRegularExpression.escapedPattern(for: $0.name) }.joined(separator: "|")
        let found = try Self.linesOutsideSettings(matching: #"(value|set)\(""# + "(" + keys + ")" + #""|configKey: ""#)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Unlockers are made in one place: `VaultAccess.unlockers(for:)` builds every list a `Vault`
    /// is given, and only Access/ makes an `Unlocker`.
    @Test func unlockersAreBuiltByOneFunction() throws {
        let lists = try Self.linesOutsideSettings(matching: #"unlockers: "#).filter { !$0.contains("unlockers: try unlockers(for: .") }
        #expect(lists.isEmpty, "\(lists.joined(separator: "\n"))")
        let made = try Self.linesOutsideSettings(matching: #"AskedUnlocker\(|Unlocker\.|-> \[?Unlocker\b|\[Unlocker"#)
            .filter { !$0.hasPrefix("VaultCLI/Access/") }
        #expect(made.isEmpty, "\(made.joined(separator: "\n"))")
        let builders = try Self.linesOutsideSettings(matching: #"-> \[Unlocker\]"#)
        #expect(builders.count == 1, "\(builders.joined(separator: "\n"))")
    }

    /// A command's `run` parses no text: in the body of each `…Command` type of Commands/, no
    /// number read from text, no duration or date parsed, no choice made of a given string. Its
    /// arguments' `init` converts them (`Converted`), or Settings/ does for a setting the
    /// environment or config may give.
    @Test func commandsParseNoText() throws {
        let parsing = try NSRegularExpression(
            pattern:
                #"\b(U?Int(8|16|32|64)?|Double)\((text|\$0|\w+Text)\)|\.flatMap\(\{ ?(U?Int\d*|Double)\(|DurationText\.(?!describe)\w+\(|PointInTime\(|DateText\.parse|\(rawValue: (arguments|text)"#
        )
        let commandStart = try NSRegularExpression(pattern: #"^(enum|extension) \w+Command\b"#)
        let otherStart = try NSRegularExpression(
            pattern: #"^(public |private |fileprivate )?(struct|enum|extension|final class|class|func) "#)
        var found: [String] = []
        for file in Self.sources where file.path.hasPrefix("VaultCLI/Commands/") {
            var inCommand = false
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let text = String(line)
                let range = NSRange(text.startIndex..., in: text)
                if commandStart.firstMatch(in: text, range: range) != nil {
                    inCommand = true
                } else if otherStart.firstMatch(in: text, range: range) != nil {
                    inCommand = false
                }
                if inCommand, parsing.firstMatch(in: text, range: range) != nil {
                    found.append("\(file.path):\(number + 1): \(text.trimmed())")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}

/// Options converted in their arguments' `init` name a bad value at the point the command named it
/// when its `run` parsed the text: when two things are wrong, the same one wins.
@Suite struct TypedOptionErrorOrderTests {
    /// The usage error reading and validating `argv`'s arguments gives, if any.
    func usageError(_ argv: [String]) throws -> UsageError? {
        let parsed = try Parser.parse(argv)
        do {
            try parsed.command.arguments.init(OptionReader(parsed)).validate()
            return nil
        } catch let error as UsageError {
            return error
        }
    }

    @Test func aBadNumberLosesToTheConflictNamedBeforeIt() throws {
        #expect(try usageError(["get", "s/a", "--revision", "x", "--json"])?.message == "--revision prints an earlier secret alone")
        #expect(try usageError(["get", "s/a", "--revision", "x"])?.message.hasPrefix("invalid revision") == true)
        #expect(try usageError(["get", "s/a", "--conflict", "0", "--show-secret"])?.message == "--show-secret goes with --json")
        #expect(try usageError(["get", "s/a", "--conflict", "0"])?.message.hasPrefix("invalid conflict number") == true)
        #expect(try usageError(["scan", "--exit-code", "300", "--update-baseline"])?.message.hasPrefix("--exit-code") == true)
    }

    /// A value read in `init` but checked by `run` (a number of secrets to keep, a time, a clipboard
    /// timeout, a point in time) leaves `validate()` alone: its error still comes from `run`.
    @Test func aValueRunChecksPassesValidation() throws {
        for argv in [
            ["update", "s/a", "--keep", "x"], ["otp", "s/a", "--at=-1"], ["get", "s/a", "--clip", "--clip-timeout", "2d"],
            ["wipe", "--older-than", "soon"], ["add", "s/a", "--expires", "180"]
        ] {
            #expect(try usageError(argv) == nil, "\(argv)")
        }
    }
}
