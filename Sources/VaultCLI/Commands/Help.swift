/// `vault help [COMMAND]`, and what `--help`, `--version` and a bare `vault` parse to.
enum HelpCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let terminal = invocation.terminal
        if arguments.flag(.version) {
            return terminal.writeOut("vault \(CommandTable.version)\n")
        }
        // NO_COLOR counts when set and not empty (https://no-color.org).
        let noColor = !(invocation.environment["NO_COLOR"] ?? "").isEmpty
        let style = HelpRenderer.Style(width: terminal.width ?? 80, bold: terminal.stdoutIsTTY && !noColor)
        if let name = arguments.positionals.first {
            let command = try Parser.command(named: name, in: CommandTable.commands)
            terminal.writeOut(HelpRenderer.command(command, style))
        } else {
            terminal.writeOut(HelpRenderer.overview(style, all: arguments.flag(.all)))
        }
    }
}
