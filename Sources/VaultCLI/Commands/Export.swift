import VaultCore

/// `vault export`: writes the portable items to an encrypted bundle.
enum ExportCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        let out = try ItemArguments(invocation).newOutputFile(for: "bundle", allowsStdout: true)
        if out == "-", invocation.wantsJSON {
            throw UsageError("--json and --out - would both write to stdout", hint: "give --out FILE with --json")
        }
        if out == "-", invocation.terminal.stdoutIsTTY {
            throw UsageError("a bundle is binary and stdout is a terminal", hint: "redirect it, as in 'vault export --out - > FILE', or give --out FILE")
        }
        let kdf = try KDFCost.parse(arguments.value(.kdfCost))
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let credential = try access.bundleCredential(creating: true)
        let progress = ProgressLine.attach(to: vault, invocation, label: "export")
        defer { progress?.finish() }
        let outcome: Vault.ExportOutcome
        if out == "-" {
            let sealed = try vault.sealedBundle(credential: credential, kdf: kdf)
            sealed.bundle.withUnsafeBytes { invocation.terminal.writeOut($0) }
            outcome = sealed.outcome
        } else {
            outcome = try vault.export(to: out, credential: credential, kdf: kdf)
        }
        var line = "exported \(counted(outcome.exported, "item")) to \(out == "-" ? "stdout" : quoted(out))"
        if outcome.leftOut > 0 {
            line += "; left out \(outcome.leftOut) -this-device-only item\(outcome.leftOut == 1 ? "" : "s"), whose keys never leave this machine"
        }
        if outcome.damaged > 0 {
            line += "; left out \(outcome.damaged) damaged record\(outcome.damaged == 1 ? "" : "s") (see 'vault verify')"
        }
        invocation.report(line, json: .object([
            ("file", .string(out)), ("exported", .number(outcome.exported)),
            ("left_out_device_bound", .number(outcome.leftOut)), ("left_out_damaged", .number(outcome.damaged)),
        ]))
    }
}
