/// `vault __generate FILE`: prints a file rendered from the command table;
/// `make generate` (scripts/generate.sh) writes them into the repository.
enum GenerateCommand {
    static func run(_ arguments: FileArgument, _ invocation: Invocation) throws {
        let name = arguments.path
        guard let file = GeneratedFile(rawValue: name) else {
            throw UsageError(
                "unknown generated file \"\(name)\"",
                hint: "choose one of: " + GeneratedFile.allCases.map(\.rawValue).joined(separator: ", "))
        }
        invocation.terminal.writeOut(file.render())
    }
}
