import VaultCore

/// `vault export`: writes the portable items to an encrypted bundle.
enum ExportCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        guard let out = arguments.value("out"), !out.isEmpty else {
            throw UsageError("no --out given", hint: "name a new file for the bundle with --out FILE")
        }
        if KeyFile.exists(path: out) {
            throw UsageError("\(quoted(out)) already exists", hint: "choose a new file for --out; vault never overwrites a bundle")
        }
        let kdf = try KDFCost.parse(arguments.value("kdf-cost"))
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let outcome = try vault.export(to: out, credential: try access.bundleCredential(creating: true), kdf: kdf)
        var line = "vault: exported \(outcome.exported) item\(outcome.exported == 1 ? "" : "s") to \(quoted(out))"
        if outcome.leftOut > 0 {
            line += "; left out \(outcome.leftOut) -this-device-only item\(outcome.leftOut == 1 ? "" : "s"), whose keys never leave this machine"
        }
        if outcome.damaged > 0 {
            line += "; left out \(outcome.damaged) damaged record\(outcome.damaged == 1 ? "" : "s") (see 'vault verify')"
        }
        invocation.terminal.writeErr(line + "\n")
    }
}
