import FoundationEssentials
import VaultCore

/// `vault grant`: writes a scoped credential for some groups.
enum GrantCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let options = ItemArguments(invocation)
        let groups = try options.namedGroups(purpose: "the credential opens")
        let out = try options.newOutputFile(for: "credential", allowsStdout: true)
        let expires = try options.expiry()
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
