import Testing
@testable import VaultCLI

/// The parser against the real table, and against a small table for what the
/// real one does not use (`--` with a command to run, repeatable options,
/// variadic arguments).
@Suite struct ParserTests {
    // MARK: accepted forms

    @Test func longOptionWithSeparateValue() throws {
        let parsed = try Parser.parse(["get", "--service", "github", "--account", "ci-bot"])
        #expect(parsed.command.name == "get")
        #expect(parsed.value(ItemSelection.service.name) == "github")
        #expect(parsed.value(ItemSelection.account.name) == "ci-bot")
    }

    @Test func longOptionWithEquals() throws {
        let parsed = try Parser.parse(["get", "--service=github", "--account=a=b"])
        #expect(parsed.value(ItemSelection.service.name) == "github")
        #expect(parsed.value(ItemSelection.account.name) == "a=b")
    }

    @Test func shortOptionSeparateAttachedAndWithEquals() throws {
        let parsed = try Parser.parse(["get", "-s", "github", "-aci-bot", "-l=label"])
        #expect(parsed.value(ItemSelection.service.name) == "github")
        #expect(parsed.value(ItemSelection.account.name) == "ci-bot")
        #expect(parsed.value(ItemSelection.label.name) == "label")
    }

    @Test func valueBeginningWithDashInEqualsForm() throws {
        let parsed = try Parser.parse(["get", "--service=-x", "-a=-y"])
        #expect(parsed.value(ItemSelection.service.name) == "-x")
        #expect(parsed.value(ItemSelection.account.name) == "-y")
    }

    @Test func loneDashAndEmptyStringAreValues() throws {
        let parsed = try Parser.parse(["add", "--secret-file", "-", "-s", "", "-a", "a"])
        #expect(parsed.value(SecretSourceOptions.secretFile.name) == "-")
        #expect(parsed.value(ItemSelection.service.name) == "")
    }

    @Test func clusteredShortFlags() throws {
        let table = SmallTable()
        let parsed = try Parser.parse(["flags", "-xyz"], globalOptions: table.globals, commands: table.commands)
        #expect(parsed.flag(OptionName("x")) && parsed.flag(OptionName("y")) && parsed.flag(OptionName("z")))
    }

    @Test func clusterEndingInAnOptionThatTakesAValue() throws {
        let separate = try Parser.parse(["add", "-Uw", "secret", "-s", "s", "-a", "a"])
        #expect(separate.flag(AddArguments.update.name))
        #expect(separate.value(SecretSourceOptions.password.name) == "secret")
        let attached = try Parser.parse(["add", "-Uwsecret"])
        #expect(attached.flag(AddArguments.update.name))
        #expect(attached.value(SecretSourceOptions.password.name) == "secret")
    }

    @Test func flagsHoldAnEmptyValue() throws {
        let parsed = try Parser.parse(["list", "--json"])
        #expect(parsed.flag(JSONArguments.json.name) && parsed.values(JSONArguments.json.name) == [""])
        #expect(!parsed.flag(ItemSelection.accessibility.name))
    }

    @Test func globalOptionsBeforeAndAfterTheCommand() throws {
        let before = try Parser.parse(["--vault", "/tmp/v", "--no-interaction", "list"])
        #expect(before.command.name == "list")
        #expect(before.value(GlobalOptions.vault.name) == "/tmp/v")
        #expect(before.flag(GlobalOptions.noInteraction.name))
        let after = try Parser.parse(["list", "--key-file=k", "--json"])
        #expect(after.value(GlobalOptions.keyFile.name) == "k")
        #expect(after.flag(JSONArguments.json.name))
    }

    @Test func positionalArgument() throws {
        let parsed = try Parser.parse(["__complete", "services"])
        #expect(parsed.command.name == "__complete")
        #expect(parsed.positionals == ["services"])
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try Parser.parse(["help", "--", "--json"])
        // `--json` is a positional now, and not a command name: the help command says so when it runs.
        #expect(parsed.command.name == "help")
        #expect(parsed.positionals == ["--json"])
        #expect(parsed.trailing.isEmpty)
    }

    @Test func doubleDashGivesTheRestToACommandThatRunsOne() throws {
        let table = SmallTable()
        let parsed = try Parser.parse(
            ["run", "-e", "A", "--", "./deploy.sh", "--help", "-e", "B"],
            globalOptions: table.globals, commands: table.commands)
        #expect(parsed.command.name == "run")
        #expect(parsed.values(RunArguments.env.name) == ["A"])
        #expect(parsed.trailing == ["./deploy.sh", "--help", "-e", "B"])
        #expect(parsed.positionals.isEmpty)
    }

    @Test func repeatableOptionKeepsEveryValue() throws {
        let table = SmallTable()
        let parsed = try Parser.parse(["run", "-e", "A", "--env=B", "-eC"], globalOptions: table.globals, commands: table.commands)
        #expect(parsed.values(RunArguments.env.name) == ["A", "B", "C"])
        #expect(parsed.value(RunArguments.env.name) == "C")
    }

    @Test func variadicPositionalTakesTheRest() throws {
        let table = SmallTable()
        let parsed = try Parser.parse(["copy", "a", "b", "c"], globalOptions: table.globals, commands: table.commands)
        #expect(parsed.positionals == ["a", "b", "c"])
    }

    @Test func hiddenCommandsParse() throws {
        #expect(try Parser.parse(["__generate", "man"]).command.name == "__generate")
    }

    // MARK: help and version

    @Test(arguments: [
        ["add", "--help"], ["add", "-h"], ["--help", "add"], ["-h", "add"],
        ["--vault", "v", "add", "-s", "x", "--help"], ["add", "--bogus", "--help"], ["add", "-s", "-h"]
    ])
    func helpAnywhereShowsTheHelpOfTheCommand(argv: [String]) throws {
        let parsed = try Parser.parse(argv)
        #expect(parsed.command.name == "help")
        #expect(parsed.positionals == ["add"])
    }

    @Test func helpAfterDoubleDashIsNotHelp() throws {
        let table = SmallTable()
        let parsed = try Parser.parse(["run", "--", "ls", "--help"], globalOptions: table.globals, commands: table.commands)
        #expect(parsed.command.name == "run")
    }

    @Test(arguments: [[String](), ["--help"], ["-h"], ["--no-interaction"]])
    func noCommandShowsTheOverview(argv: [String]) throws {
        let parsed = try Parser.parse(argv)
        #expect(parsed.command.name == "help")
        #expect(parsed.positionals.isEmpty)
    }

    @Test func helpCommandWithACommand() throws {
        let parsed = try Parser.parse(["help", "add"])
        #expect(parsed.command.name == "help")
        #expect(parsed.positionals == ["add"])
        #expect(try Parser.parse(["help", "--help"]).positionals == ["help"])
    }

    @Test(arguments: [["--version"], ["add", "--version"]])
    func versionParsesAsHelpWithTheVersionFlag(argv: [String]) throws {
        let parsed = try Parser.parse(argv)
        #expect(parsed.command.name == "help")
        #expect(parsed.flag(GlobalOptions.version.name))
    }

    @Test func unknownCommandWithHelpIsStillAnError() {
        #expect(
            usageError(["ad", "--help"])
                == UsageError(
                    "unknown command \"ad\"", hint: "did you mean \"add\"? (see 'vault help')"))
    }

    // MARK: errors

    @Test func unknownCommandSuggestsTheClosest() {
        #expect(
            usageError(["ad"])
                == UsageError(
                    "unknown command \"ad\"", hint: "did you mean \"add\"? (see 'vault help')"))
        #expect(
            usageError(["lsit"])
                == UsageError(
                    "unknown command \"lsit\"", hint: "did you mean \"list\"? (see 'vault help')"))
    }

    @Test func unknownCommandWithoutACloseOne() {
        #expect(usageError(["frobnicate"]) == UsageError("unknown command \"frobnicate\"", hint: "see 'vault help'"))
    }

    @Test func hiddenCommandsAreNeverSuggested() {
        #expect(usageError(["__complet"]) == UsageError("unknown command \"__complet\"", hint: "see 'vault help'"))
    }

    @Test func unknownLongOptionSuggestsTheClosest() {
        #expect(
            usageError(["add", "--servce", "x"])
                == UsageError(
                    "unknown option \"--servce\" for \"vault add\"", hint: "did you mean \"--service\"?"))
        #expect(
            usageError(["list", "--josn"])
                == UsageError(
                    "unknown option \"--josn\" for \"vault list\"", hint: "did you mean \"--json\"?"))
    }

    @Test func unknownOptionWithoutACloseOne() {
        #expect(
            usageError(["add", "--frobnicate"])
                == UsageError(
                    "unknown option \"--frobnicate\" for \"vault add\"", hint: "see 'vault help add'"))
        #expect(
            usageError(["init", "--json"])
                == UsageError(
                    "unknown option \"--json\" for \"vault init\"", hint: "see 'vault help init'"))
    }

    @Test func unknownShortOption() {
        #expect(
            usageError(["add", "-x"])
                == UsageError(
                    "unknown option \"-x\" for \"vault add\"", hint: "see 'vault help add'"))
        #expect(
            usageError(["add", "-Ux"])
                == UsageError(
                    "unknown option \"-x\" for \"vault add\"", hint: "see 'vault help add'"))
    }

    @Test func commandOptionBeforeTheCommand() {
        #expect(
            usageError(["-s", "x", "get"])
                == UsageError(
                    "unknown option \"-s\" for \"vault\"", hint: "options of a command go after its name, as in 'vault get -s …'"))
        #expect(usageError(["--bogus"]) == UsageError("unknown option \"--bogus\" for \"vault\"", hint: "see 'vault help'"))
    }

    @Test func missingValueAtTheEnd() {
        #expect(
            usageError(["get", "--service"])
                == UsageError(
                    "missing value for \"--service\"", hint: "write --service SERVICE"))
        #expect(usageError(["get", "-s"]) == UsageError("missing value for \"-s\"", hint: "write -s SERVICE"))
    }

    @Test func valueBeginningWithDashAfterASpaceSuggestsEquals() {
        #expect(
            usageError(["get", "--service", "-x"])
                == UsageError(
                    "missing value for \"--service\"", hint: "to give a value that begins with \"-\", write --service=-x"))
        #expect(
            usageError(["get", "-s", "-dash"])
                == UsageError(
                    "missing value for \"-s\"", hint: "to give a value that begins with \"-\", write --service=-dash"))
    }

    @Test func flagGivenAValue() {
        #expect(
            usageError(["list", "--json=yes"])
                == UsageError(
                    "option \"--json\" takes no value", hint: "write --json alone"))
        #expect(usageError(["add", "-U=yes"]) == UsageError("option \"-U\" takes no value", hint: "write -U alone"))
    }

    @Test func repeatedOption() {
        let expected = UsageError("option \"--service\" given more than once", hint: "give --service once")
        #expect(usageError(["get", "-s", "a", "-s", "b"]) == expected)
        #expect(usageError(["get", "--service=a", "-sb"]) == expected)
        #expect(
            usageError(["--vault", "a", "list", "--vault", "b"])
                == UsageError(
                    "option \"--vault\" given more than once", hint: "give --vault once"))
    }

    @Test func tooManyPositionals() {
        #expect(
            usageError(["list", "svc", "extra"])
                == UsageError(
                    "unexpected argument \"extra\" for \"vault list\"", hint: "see 'vault help list'"))
        #expect(
            usageError(["help", "add", "get"])
                == UsageError(
                    "unexpected argument \"get\" for \"vault help\"", hint: "see 'vault help help'"))
    }

    @Test func commandToRunWithoutDoubleDash() {
        let table = SmallTable()
        #expect(
            usageError(["run", "./deploy.sh"], table)
                == UsageError(
                    "unexpected argument \"./deploy.sh\" for \"vault run\"", hint: "put the command to run after \"--\""))
    }

    @Test func missingPositional() {
        #expect(
            usageError(["__complete"])
                == UsageError(
                    "missing KIND for \"vault __complete\"", hint: "see 'vault help __complete'"))
    }

    @Test func invalidValueSuggestsTheClosest() {
        #expect(
            usageError(["list", "--class", "alwys"])
                == UsageError(
                    "invalid value \"alwys\" for \"--class\"", hint: "did you mean \"always\"?"))
        #expect(
            usageError(["__complete", "service"])
                == UsageError(
                    "invalid value \"service\" for \"KIND\"", hint: "did you mean \"services\"?"))
    }

    @Test func invalidValueListsTheChoices() {
        #expect(
            usageError(["get", "--field", "emoji"])
                == UsageError(
                    "invalid value \"emoji\" for \"--field\"",
                    hint:
                        "choose one of: service, account, group, class, label, comment, kind, generic, env_name, created, modified, expires, expired, notes, otp"
                ))
    }

    @Test func aliasesAreAcceptedValues() throws {
        let parsed = try Parser.parse(["list", "--class", "kSecAttrAccessibleAlways"])
        #expect(parsed.value(ItemSelection.accessibility.name) == "kSecAttrAccessibleAlways")
    }

    @Test func messagesFollowTheHouseStyle() {
        let argvs = [
            ["ad"], ["add", "--servce"], ["add", "-x"], ["get", "-s"], ["list", "--json=1"],
            ["get", "-s", "a", "-s", "b"], ["list", "x", "y"], ["__complete"], ["-s", "x", "get"], ["list", "--class", "x"]
        ]
        for argv in argvs {
            let error = usageError(argv)
            #expect(error != nil, "\(argv) should fail")
            guard let error else { continue }
            for line in [error.message, error.hint ?? ""] {
                #expect(line.first?.isLowercase == true, "\(line)")
                #expect(!line.hasSuffix("."), "\(line)")
            }
            #expect(error.hint != nil)
        }
    }

    // MARK: suggestions

    @Test func editDistanceCountsASwapAsOneEdit() {
        #expect(Suggestion.distance("servce", "service") == 1)
        #expect(Suggestion.distance("lsit", "list") == 1)
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.closest(to: "frobnicate", among: ["add", "get"]) == nil)
    }
}

private func usageError(_ argv: [String], _ table: SmallTable? = nil) -> UsageError? {
    do {
        _ = try Parser.parse(
            argv, globalOptions: table?.globals ?? CommandTable.globalOptions,
            commands: table?.commands ?? CommandTable.commands)
        return nil
    } catch {
        return error
    }
}

/// The arguments of the commands of `SmallTable`, which read none.
private struct NoArguments: CommandArguments {
    init(_ options: OptionReader) {}
}

/// A table with what the real one lacks.
private struct SmallTable {
    let globals = [OptionSpec(GlobalOptions.help.name, short: "h", help: "help")]
    let commands = [
        CommandSpec(
            "run", summary: "run a command",
            options: [OptionSpec(RunArguments.env.name, short: "e", value: "NAME", help: "a name", repeatable: true)],
            takesCommandAfterDashDash: true, run: { (_: NoArguments, _) in }),
        CommandSpec(
            "flags", summary: "flags",
            options: ["x", "y", "z"].map { OptionSpec(OptionName($0), short: Character($0), help: $0) }, run: { (_: NoArguments, _) in }),
        CommandSpec(
            "copy", summary: "copy",
            positionals: [PositionalSpec("FROM", help: "from"), PositionalSpec("TO", help: "to", variadic: true)],
            run: { (_: NoArguments, _) in }),
        CommandSpec(
            "help", summary: "help", positionals: [PositionalSpec("COMMAND", help: "", optional: true)],
            run: { (_: NoArguments, _) in })
    ]
}
