import Foundation
import Testing
@testable import VaultCLI

/// Walks the table: every visible command and option reaches help, the man
/// page and all three completions, and the table itself keeps the house rules.
@Suite struct TableCoverageTests {
    static let commandNames = CommandTable.visibleCommands.map(\.name)
    /// "add --service", for every visible option of every visible command.
    static let commandOptions = CommandTable.visibleCommands.flatMap { command in
        command.visibleOptions.map { "\(command.name) --\($0.long)" }
    }
    static let globalOptionNames = CommandTable.visibleGlobalOptions.map(\.long)

    let man = GeneratedFile.man.render()
    let bash = GeneratedFile.bash.render()
    let zsh = GeneratedFile.zsh.render()
    let fish = GeneratedFile.fish.render()

    @Test(arguments: commandNames)
    func commandAppearsEverywhere(name: String) throws {
        let command = try #require(CommandTable.commands.first { $0.name == name })
        #expect(HelpRenderer.overview(all: true).contains("\n  \(name) "), "vault help --all lists \(name)")
        #expect(HelpRenderer.command(command).hasPrefix("vault \(name) - "))
        #expect(man.contains("\n.Nm\n.Cm \(name)\n"), "man SYNOPSIS has \(name)")
        #expect(man.contains("\n.It Cm \(name)\n"), "man COMMANDS has \(name)")
        #expect(bash.contains("\n        \(name)) echo "), "bash knows the options of \(name)")
        // A command name completes as `vault help` lists it: the plumbing is offered nowhere, as help leaves it out.
        let offered = !CommandTable.plumbingCommands.contains { $0.name == name }
        #expect(bashWords("_vault_commands").contains(name) == offered, "bash completes \(name): \(offered)")
        #expect(zsh.contains("\n    '\(name):") == offered, "zsh completes \(name): \(offered)")
        #expect(zsh.contains("\n    \(name))\n"), "zsh knows the options of \(name)")
        #expect(fish.contains("-n __vault_no_command -a \(name) -d ") == offered, "fish completes \(name): \(offered)")
    }

    @Test(arguments: commandOptions)
    func optionAppearsEverywhere(pair: String) throws {
        let parts = pair.split(separator: " ").map(String.init)
        let command = try #require(CommandTable.commands.first { $0.name == parts[0] })
        let option = try #require(command.options.first { "--" + $0.long == parts[1] })
        let spellings = ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? [])

        #expect(HelpRenderer.command(command).contains(option.listSpelling), "vault help \(pair)")
        let manSection = section(of: man, from: "\n.It Cm \(command.name)\n", to: "\n.It Cm ")
        #expect(manSection.contains("Fl " + ("-" + option.long).replacingEvery("-", with: "\\-")), "man \(pair)")
        let bashOptions = bash.split(separator: "\n").first { $0.hasPrefix("        \(command.name)) echo ") } ?? ""
        for spelling in spellings {
            #expect(bashOptions.split(separator: " ").contains { $0.trimmingQuotes == spelling }, "bash \(spelling) of \(command.name)")
        }
        let zshSection = section(of: zsh, from: "\n    \(command.name))\n", to: "\n      ;;")
        #expect(zshSection.contains("--\(option.long)"), "zsh \(pair)")
        let fishLine = fish.split(separator: "\n").first {
            $0.contains("'__vault_using \(command.name)'") && $0.contains(" -l \(option.long) ")
        }
        #expect(fishLine != nil, "fish \(pair)")
        if let short = option.short, let fishLine { #expect(fishLine.contains(" -s \(short) ")) }
    }

    @Test(arguments: globalOptionNames)
    func globalOptionAppearsEverywhere(long: String) {
        #expect(HelpRenderer.overview().contains("--\(long)"), "vault help --\(long)")
        let options = section(of: man, from: "\n.Sh OPTIONS\n", to: "\n.Sh ")
        #expect(options.contains("Fl " + ("-" + long).replacingEvery("-", with: "\\-")), "man --\(long)")
        let bashDefault = bash.split(separator: "\n").first { $0.hasPrefix("        *) echo ") } ?? ""
        #expect(bashDefault.contains("--\(long)"), "bash --\(long)")
        let zshGlobals = section(of: zsh, from: "globals=(\n", to: "\n  )")
        #expect(zshGlobals.contains("--\(long)"), "zsh --\(long)")
        #expect(fish.contains("\ncomplete -c vault -l \(long) ") || fish.contains(" -l \(long) -d "), "fish --\(long)")
    }

    @Test func generatedFilesSayTheyAreGenerated() {
        let notice = "Generated from CommandTable.swift by `make generate`; do not edit"
        #expect(man.hasPrefix(".\\\" " + notice + "\n"))
        #expect(bash.hasPrefix("# " + notice + "\n"))
        // compinit reads `#compdef` only on the first line.
        #expect(zsh.hasPrefix("#compdef vault\n# " + notice + "\n"))
        #expect(fish.hasPrefix("# " + notice + "\n"))
    }

    // MARK: the table keeps the house rules

    /// Option names are spelled only in their declarations (`OptionSpec("…")`,
    /// `OptionsDeclaredOnceRuleTests`): a command that made its own `OptionName("…")`
    /// could read a name no option has.
    @Test func optionNamesAreSpelledOnlyInTheirDeclarations() throws {
        let root = Sandbox.packageRoot + "/Sources/VaultCLI"
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            #expect(!text.contains("OptionName(\""), "\(file) makes an option name from a string")
        }
    }

    /// A command's typed arguments read exactly the options its table entry
    /// declares (and the global ones): an option read but not declared could
    /// never be given, and one declared but not read would be accepted and ignored.
    @Test(arguments: CommandTable.commands.map(\.name))
    func typedArgumentsReadTheDeclaredOptions(name: String) throws {
        let command = try #require(CommandTable.commands.first { $0.name == name })
        let reader = OptionReader(ParsedArguments(command: command))
        _ = try command.arguments.init(reader)
        let asked = Set(reader.asked.map(\.long))
        let declared = Set(command.options.map(\.long))
        let global = Set(CommandTable.globalOptions.map(\.long))
        #expect(
            asked.subtracting(declared).subtracting(global).isEmpty,
            "\(name) reads options it does not declare: \(asked.subtracting(declared).subtracting(global).sorted())")
        #expect(declared.subtracting(asked).isEmpty, "\(name) declares options it never reads: \(declared.subtracting(asked).sorted())")
    }

    /// Each option's environment variable is one the table describes (and so
    /// the man page lists), and exactly these open secrets (the TPM PIN's file opens the device key; the
    /// BAO_ ones an OpenBao server's).
    @Test func environmentVariablesAreDescribedAndUnlockingOnesMarked() {
        let described = Set(CommandTable.environment.map(\.name))
        let options = CommandTable.globalOptions + CommandTable.commands.flatMap(\.options)
        for option in options {
            if let variable = option.environment { #expect(described.contains(variable.name), "--\(option.long): \(variable.name)") }
        }
        #expect(
            Set(CommandTable.unlockingVariables) == [
                "VAULT_SESSION", "VAULT_CREDENTIAL", "VAULT_KEY_FILE", "VAULT_PASSPHRASE_FILE", "VAULT_IDENTITY",
                "VAULT_TPM_PIN_FILE", "BAO_TOKEN", "BAO_APPROLE_SECRET_ID_FILE", "BAO_APPROLE_SECRET_ID"
            ])
        for variable in CommandTable.environment { #expect(man.contains(".It Ev " + variable.name)) }
    }

    @Test func optionNamesAreUniqueWithinEachCommand() {
        for command in CommandTable.commands {
            let options = command.options + CommandTable.globalOptions
            let longs = options.map(\.long)
            let shorts = options.compactMap(\.short)
            #expect(Set(longs).count == longs.count, "long names of \(command.name): \(longs)")
            #expect(Set(shorts).count == shorts.count, "short names of \(command.name): \(shorts)")
        }
    }

    @Test(arguments: commandNames)
    func commandIsDocumented(name: String) throws {
        let command = try #require(CommandTable.commands.first { $0.name == name })
        #expect(isFragment(command.summary), "summary of \(name): \(command.summary)")
        #expect(!command.discussion.isEmpty, "discussion of \(name)")
        #expect(!command.examples.isEmpty, "examples of \(name)")
        for option in command.options + CommandTable.globalOptions {
            #expect(isFragment(option.help), "help of --\(option.long): \(option.help)")
        }
        for example in command.examples {
            #expect(isFragment(example.explanation), "explanation of \(example.command)")
        }
    }

    @Test(arguments: CommandTable.visibleCommands.flatMap(\.examples).map(\.command))
    func exampleParses(line: String) throws {
        let argv = try #require(vaultInvocation(in: line), "no vault invocation in \(line)")
        let parsed = try Parser.parse(argv)
        #expect(parsed.command.name != "help" || argv.contains("help"), "\(line) parses as \(parsed.command.name)")
        #expect(argv.contains(parsed.command.name))
    }

    /// `vault help` lists each visible command in one section, but for the plumbing, which only --all lists.
    @Test func helpSectionsHoldEveryCommandOnce() {
        let listed = CommandTable.helpSections.flatMap(\.commands).map(\.name)
        #expect(Set(listed).count == listed.count, "a command in two sections: \(listed)")
        #expect(
            CommandTable.plumbingCommands.map(\.name).sorted() == [
                "aws-credential", "cargo-credential", "docker-credential", "git-credential",
                "kube-credential", "merge-driver", "terraform-credential", "textconv"
            ])
        let overview = HelpRenderer.overview()
        for name in listed { #expect(overview.contains("\n  \(name) "), "vault help lists \(name)") }
        for command in CommandTable.plumbingCommands {
            #expect(!overview.contains("\n  \(command.name) "), "vault help lists the plumbing \(command.name)")
            #expect(HelpRenderer.overview(all: true).contains("\n  \(command.name) "), "vault help --all lists \(command.name)")
        }
        for title in ["Items:", "CI and scripts:", "Teams and sharing:", "Unlocking and maintenance:"] {
            #expect(overview.contains("\n" + title + "\n"))
        }
    }

    @Test func firstExampleOfEachCommandUsesIt() {
        for command in CommandTable.visibleCommands {
            let argv = command.examples.first.flatMap { vaultInvocation(in: $0.command) } ?? []
            #expect(argv.contains(command.name), "first example of \(command.name)")
        }
    }

    private func bashWords(_ variable: String) -> [String] {
        let line = bash.split(separator: "\n").first { $0.hasPrefix(variable + "=") } ?? ""
        return line.dropFirst(variable.count + 1).trimmingQuotes.split(separator: " ").map(String.init)
    }
}

/// Lowercase, and no final period: the style of summaries, option help and examples.
private func isFragment(_ text: String) -> Bool {
    text.first?.isLowercase == true && !text.hasSuffix(".")
}

/// The text of `source` after `start` up to the next `end`.
private func section(of source: String, from start: String, to end: String) -> Substring {
    guard let from = source.range(of: start) else { return "" }
    let rest = source[from.upperBound...]
    return rest[..<(rest.range(of: end)?.lowerBound ?? rest.endIndex)]
}

/// The arguments of the first `vault` command in a shell line, quotes
/// removed: `printf %s "$T" | vault add -s x` gives `add -s x`.
private func vaultInvocation(in line: String) -> [String]? {
    guard let start = line.range(of: "vault ") else { return nil }
    var words: [String] = []
    var word = ""
    var quote: Character?
    for character in line[start.upperBound...] {
        if let open = quote {
            if character == open { quote = nil } else { word.append(character) }
        } else if character == "\"" || character == "'" {
            quote = character
        } else if character == " " || ")|;&".contains(character) {
            if !word.isEmpty { words.append(word) }
            word = ""
            if character != " " { break }
        } else {
            word.append(character)
        }
    }
    if !word.isEmpty { words.append(word) }
    return words
}

private extension StringProtocol {
    var trimmingQuotes: String {
        var text = String(self)
        while text.first == "\"" { text.removeFirst() }
        while text.last == "\"" { text.removeLast() }
        return text
    }
}
