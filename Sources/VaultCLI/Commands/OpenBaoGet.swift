import VaultCore

/// `vault get openbao://[MOUNT/]PATH#FIELD[?version=N]`: one field of a secret in an OpenBao
/// server, written exactly as `get` writes an item's secret; no vault is opened.
enum OpenBaoGet {
    static func run(_ name: String, _ arguments: GetArguments, _ invocation: Invocation) throws {
        let others: [(String, Bool)] = [
            ("--json", arguments.json), ("--field", arguments.field != nil), ("--clip", arguments.clipboard.clip),
            ("--revision", arguments.revision != nil), ("--theirs", arguments.theirs), ("--conflict", arguments.conflict != nil),
            ("-s", arguments.item.service != nil), ("-a", arguments.item.account != nil), ("--group", arguments.item.group != nil)
        ]
        if let other = others.first(where: \.1)?.0 {
            throw UsageError(
                "\(other) does not go with an openbao:// reference",
                hint: "'vault get openbao://MOUNT/PATH#FIELD' prints the field; a version is ?version=N")
        }
        let reference: OpenBaoReference
        do {
            reference = try OpenBaoReference(parsing: name)
        } catch {
            throw UsageError("\(ItemOutput.printable(name)) cannot be read: \(error.problem)", hint: SecretReferenceError.syntaxHint)
        }
        let (secrets, problems) = try OpenBaoSecrets.resolve([(ReferenceUse(origin: "get", text: name), reference)], invocation)
        if let problem = problems.first { throw problem.error }
        guard let secret = secrets[reference] else { return }
        secret.withUnsafeBytes { invocation.terminal.writeOut($0) }
        if invocation.terminal.stdoutIsTTY { invocation.terminal.writeOut("\n") }
    }
}
