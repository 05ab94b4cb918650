import VaultCore

/// `vault upgrade`: a format v1 vault file converted to v2.
enum UpgradeCommand {
    static func run(_ arguments: JSONArguments, _ invocation: Invocation) throws {
        let outcome = try VaultAccess(invocation).vault().upgrade()
        if arguments.json {
            invocation.terminal.writeOut(JSONValue.object([
                ("from", .number(outcome.fromVersion)), ("to", .number(2)), ("backup", .optional(outcome.backup)),
            ]).text + "\n")
        } else if outcome.fromVersion >= 2 {
            invocation.terminal.say("the vault is format v2 already; nothing was changed")
        } else {
            let kept = outcome.backup.map { "the v1 file is kept at \(quoted($0))" } ?? "git's history keeps the v1 file: commit the v2 one"
            invocation.terminal.say("converted the vault from format v\(outcome.fromVersion) to v2; \(kept)")
        }
    }
}
