/// `vault help`'s options, and the global --version, which parses as help.
struct HelpArguments: CommandArguments {

    static let options: [OptionSpec] = [OptionSpec(LockArguments.all.name, help: "also list the plumbing commands other programs run")]

    /// The command to show the help of; the overview without one.
    var command: String?
    /// --all: the overview lists the plumbing commands too.
    var all: Bool
    /// --version: print the version instead.
    var version: Bool

    init(_ options: OptionReader) {
        command = options.positionals.first
        all = options.flag(LockArguments.all)
        version = options.flag(GlobalOptions.version.name)
    }
}

/// `vault help [COMMAND]`, and what `--help`, `--version` and a bare `vault` parse to.
enum HelpCommand {
    static func run(_ arguments: HelpArguments, _ invocation: Invocation) throws {
        let terminal = invocation.terminal
        if arguments.version {
            return terminal.writeOut("vault \(CommandTable.version)\n")
        }
        // NO_COLOR counts when set and not empty (https://no-color.org).
        let noColor = Settings(invocation).value(variable: .noColor) != nil
        let style = HelpRenderer.Style(width: terminal.width ?? 80, bold: terminal.stdoutIsTTY && !noColor)
        if let name = arguments.command {
            let command = try Parser.command(named: name, in: CommandTable.commands)
            terminal.writeOut(HelpRenderer.command(command, style))
        } else {
            terminal.writeOut(HelpRenderer.overview(style, all: arguments.all))
        }
    }
}
