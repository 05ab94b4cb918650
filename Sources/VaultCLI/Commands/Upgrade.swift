import VaultCore

/// `vault upgrade`: a vault file of an older format (v1, v2) converted to the current one (v3).
enum UpgradeCommand {
    static func run(_ arguments: UpgradeArguments, _ invocation: Invocation) throws {
        let outcome = try VaultAccess(invocation).vault().upgrade()
        if arguments.json {
            invocation.terminal.writeOut(
                JSONValue.object([
                    ("from", .number(outcome.fromVersion)), ("to", .number(outcome.toVersion)), ("backup", .optional(outcome.backup))
                ]).text + "\n")
        } else if outcome.fromVersion >= outcome.toVersion {
            invocation.terminal.say("the vault is format v\(outcome.toVersion) already; nothing was changed")
        } else {
            let kept =
                outcome.backup.map { "the v1 file is kept at \(quoted($0))" }
                ?? "git's history keeps the v\(outcome.fromVersion) file: commit the v\(outcome.toVersion) one"
            invocation.terminal.say("converted the vault from format v\(outcome.fromVersion) to v\(outcome.toVersion); \(kept)")
        }
    }
}

/// `vault upgrade`'s options.
struct UpgradeArguments: CommandArguments {
    static let options = [JSONArguments.resultJSON]

    var json: Bool

    init(_ options: OptionReader) {
        json = options.flag(JSONArguments.json)
    }
}
