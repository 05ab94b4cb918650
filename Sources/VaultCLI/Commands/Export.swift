import VaultCore

/// `vault export`: writes the portable items that match to an encrypted bundle (or, with
/// `--format csv|json --plaintext`, in the clear: `PlaintextExport`).
enum ExportCommand {
    static func run(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        switch arguments.value(.format) ?? "bundle" {
        case "bundle":
            if arguments.flag(.plaintext) {
                throw UsageError("--plaintext goes with --format csv or json; a bundle is encrypted",
                                 hint: "add --format csv or --format json to write the items in the clear")
            }
        case let format:
            try PlaintextExport.run(invocation, format: format == "csv" ? .csv : .json)
            return
        }
        let out = try ItemArguments.newOutputFile(invocation.arguments.value(.out), for: "bundle", allowsStdout: true)
        if out == "-", invocation.wantsJSON {
            throw UsageError("--json and --out - would both write to stdout", hint: "give --out FILE with --json")
        }
        if out == "-", invocation.terminal.stdoutIsTTY {
            throw UsageError("a bundle is binary and stdout is a terminal", hint: "redirect it, as in 'vault export --out - > FILE', or give --out FILE")
        }
        let kdf = try KDFCost.parse(arguments.value(.kdfCost))
        let query = try ItemArguments(invocation).query()
        let names = NameFilter(OptionReader(arguments))
        let access = VaultAccess(invocation)
        let vault = try access.vault()
        let credential = try access.bundleCredential(creating: true)
        let progress = ProgressLine.attach(to: vault, invocation, label: "export")
        defer { progress?.finish() }
        let outcome: Vault.ExportOutcome
        if out == "-" {
            let sealed = try vault.sealedBundle(matching: query, where: names.matches, credential: credential, kdf: kdf)
            sealed.bundle.withUnsafeBytes { invocation.terminal.writeOut($0) }
            outcome = sealed.outcome
        } else {
            outcome = try vault.export(to: out, matching: query, where: names.matches, credential: credential, kdf: kdf)
        }
        report(outcome, to: out, invocation)
    }

    /// What an export wrote and left out, on stderr (or as JSON).
    static func report(_ outcome: Vault.ExportOutcome, to out: String, inTheClear: Bool = false, _ invocation: Invocation) {
        var line = "exported \(counted(outcome.exported, "item"))\(inTheClear ? " in the clear" : "") to \(out == "-" ? "stdout" : quoted(out))"
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
