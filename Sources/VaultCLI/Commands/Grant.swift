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
        let now = Date()
        let expires = try ItemArguments(invocation).expiry(now: now)
        if let expires, expires <= now {
            throw UsageError("--expires \(quoted(arguments.value("expires") ?? "")) is in the past", hint: "give a later date")
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
