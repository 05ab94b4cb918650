import VaultCore

/// `vault revoke`'s options.
struct RevokeArguments: CommandArguments {

    static let options: [OptionSpec] = [
        OptionSpec(
            ItemSelection.group.name, value: "GROUP", help: "a group whose credentials end; repeat it for several",
            repeatable: true, completion: .group),
        JSONArguments.resultJSON
    ]

    /// Every --group given.
    var groups: [String]
    var json: Bool

    init(_ options: OptionReader) {
        groups = options.values(ItemSelection.group)
        json = options.flag(JSONArguments.json)
    }
}

/// `vault revoke`: rotates group keys so every credential granted for them ends.
enum RevokeCommand {
    static func run(_ arguments: RevokeArguments, _ invocation: Invocation) throws {
        let groups = try ItemArguments.namedGroups(arguments.groups, purpose: "whose credentials end")
        let progress = ProgressLine.start(invocation, label: "revoke")
        defer { progress?.finish() }
        let vault = try VaultAccess(invocation).vault(progress: progress)
        var resealed: [JSONValue] = []
        // Read before the revoke: the group's keys as its credentials hold them.
        let exposure = try? ExposureCommand.read(vault, invocation)
        for group in groups {
            let count: Int
            do {
                count = try vault.revoke(group: group)
            } catch VaultError.keys(.boundToAnotherDevice) {
                throw CommandFailure(
                    .failure,
                    "cannot revoke group \(quoted(group.name)) here: it holds -this-device-only items that only the machine they were added on can re-seal",
                    hint:
                        "run 'vault revoke --group \(shellQuoted(group.name))' on that machine, or 'vault wipe --group \(shellQuoted(group.name))' here to drop its items and renew its key"
                )
            }
            let live = exposure.map { ExposureCommand.liveCount(exposedTo: .group(group), in: $0) }
            if !arguments.json {
                invocation.terminal.say(
                    "revoked every credential of group \(quoted(group.name)); re-sealed \(counted(count, "item")) under a new group key")
                invocation.terminal.say(ExposureText.pointer(live: live, principal: .group(group)))
            }
            resealed.append(
                .object([
                    ("group", .string(group.name)), ("resealed", .number(count)),
                    ("live_exposed", live.map { .number($0) } ?? .null),
                    ("exposure", .string(ExposureText.command(for: .group(group))))
                ]))
        }
        if arguments.json { invocation.terminal.writeOut(JSONValue.object([("revoked", .array(resealed))]).text + "\n") }
    }
}
