import FoundationEssentials
import VaultCore

/// `vault grant`: writes a scoped credential for some groups.
enum GrantCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let groups = try ItemArguments(invocation).namedGroups(purpose: "the credential opens")
        guard let out = arguments.value("out"), !out.isEmpty else {
            throw UsageError("no --out given", hint: "name a new file for the credential with --out FILE, or --out - for stdout")
        }
        var expires: Date?
        if let text = arguments.value("expires") {
            let now = Date()
            guard let date = DateText.durationOrDate(text, now: now) else {
                throw UsageError("invalid --expires \(quoted(text))", hint: "give a duration such as 12h or 30d, or a date such as 2027-01-31 or 2027-01-31T12:00Z")
            }
            guard date > now else { throw UsageError("--expires \(quoted(text)) is in the past", hint: "give a later date") }
            expires = date
        }
        if out != "-", KeyFile.exists(path: out) {
            throw UsageError("\(quoted(out)) already exists", hint: "choose a new file for --out; vault never overwrites a credential")
        }
        let credential = try VaultAccess(invocation).vault().grant(groups: groups, readOnly: arguments.flag("read-only"), expires: expires)
        if out == "-" {
            invocation.terminal.writeOut(credential.encoded())
        } else {
            try credential.write(to: out)
        }
        let names = groups.map { quoted($0.name) }.joined(separator: ", ")
        let mode = credential.readOnly ? "read-only" : "read-write"
        let until = credential.expires.map { "until \(DateText.iso($0))" } ?? "with no expiry"
        let place = out == "-" ? "stdout" : quoted(out)
        invocation.terminal.writeErr("vault: wrote a \(mode) credential for group\(groups.count == 1 ? "" : "s") \(names), \(until), to \(place)\n")
    }
}
