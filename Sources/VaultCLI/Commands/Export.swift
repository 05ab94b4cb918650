import VaultCore

/// `vault export`: writes the portable items to an encrypted bundle.
enum ExportCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let out = try ItemArguments(invocation).newOutputFile(for: "bundle", allowsStdout: false)
        let kdf = try KDFCost.parse(arguments.value(.kdfCost))
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let outcome = try vault.export(to: out, credential: try access.bundleCredential(creating: true), kdf: kdf)
        var line = "vault: exported \(counted(outcome.exported, "item")) to \(quoted(out))"
        if outcome.leftOut > 0 {
            line += "; left out \(outcome.leftOut) -this-device-only item\(outcome.leftOut == 1 ? "" : "s"), whose keys never leave this machine"
        }
        if outcome.damaged > 0 {
            line += "; left out \(outcome.damaged) damaged record\(outcome.damaged == 1 ? "" : "s") (see 'vault verify')"
        }
        invocation.terminal.writeErr(line + "\n")
    }
}
