import VaultCore

/// `vault grant`: writes a scoped credential for some groups.
enum GrantCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let options = ItemArguments(invocation)
        let groups = try ItemArguments.namedGroups(arguments.values(.group), purpose: "the credential opens")
        let out = try options.newOutputFile(for: "credential", allowsStdout: true)
        if out == "-", invocation.wantsJSON {
            throw UsageError("--json and --out - would both write to stdout", hint: "give --out FILE with --json")
        }
        let expires = try options.expiry()
        let credential = try VaultAccess(invocation).vault().grant(groups: groups, readOnly: arguments.flag(.readOnly), expires: expires)
        if out == "-" {
            invocation.terminal.writeOut(credential.encoded())
        } else {
            try credential.write(to: out)
        }
        let names = groups.map { quoted($0.name) }.joined(separator: ", ")
        let mode = credential.readOnly ? "read-only" : "read-write"
        let until = credential.expires.map { "until \(DateText.iso($0))" } ?? "with no expiry"
        let place = out == "-" ? "stdout" : quoted(out)
        invocation.report("wrote a \(mode) credential for group\(groups.count == 1 ? "" : "s") \(names), \(until), to \(place)",
                          json: .object([("file", .string(out)), ("groups", .array(groups.map { .string($0.name) })),
                                         ("read_only", .bool(credential.readOnly)),
                                         ("expires", .optional(credential.expires.map(DateText.iso)))]))
    }
}
