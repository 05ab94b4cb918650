import VaultCore

/// `vault export`'s options.
struct ExportArguments: CommandArguments {
    static let plaintext = OptionSpec("plaintext", help: "with --format csv or json: write the secrets in the clear, as asked")
    static let bundlePassphraseFile = OptionSpec(
        "bundle-passphrase-file", value: "FILE", help: "read the bundle's passphrase from FILE", completion: .file)
    static let bundleKeyFile = OptionSpec(
        "bundle-key-file", value: "FILE", help: "seal the bundle with the key file FILE, created if missing",
        completion: .file)

    static let options: [OptionSpec] =
        [
            OptionSpec(
                GrantArguments.out.name, short: "o", value: "FILE",
                help: "the new file; - writes it to stdout (where a plaintext export goes without --out)",
                completion: .file),
            OptionSpec(
                EnvArguments.format.name, value: "FORMAT", help: "bundle (encrypted), or csv or json (in the clear, with --plaintext)",
                default: "bundle",
                completion: .values(["bundle", "csv", "json"])),
            plaintext,
            OptionSpec(
                ItemSelection.group.name, value: "GROUP",
                help: "only items of this group (from --group only, never VAULT_GROUP or the config: a backup takes every group)",
                completion: .group),
            ItemSelection.service.with(help: "only items of this service"),
            ItemSelection.account.with(help: "only items of this account"),
            ItemSelection.accessibility("only items of this accessibility class"),
            OptionSpec(NameFilter.search.name, value: "TEXT", help: "only items whose service, account or label contains TEXT, in any case")
        ] + NameFilter.globs + [
            bundlePassphraseFile,
            bundleKeyFile,
            KDFCost.option,
            JSONArguments.resultJSON
        ]

    /// --out: the new file, or - for stdout.
    var out: String?
    /// --format: bundle, or csv or json in the clear.
    var format: String?
    /// --plaintext: a csv or json export in the clear is meant.
    var plaintext: Bool
    var item: ItemSelection
    var names: NameFilter
    var bundle: BundleCredentialOptions
    /// --kdf-cost: the scrypt cost of the bundle's passphrase.
    var kdf: Scrypt.Parameters
    var json: Bool

    init(_ options: OptionReader) throws {
        out = options.value(GrantArguments.out)
        format = options.value(EnvArguments.format)
        plaintext = options.flag(ExportArguments.plaintext)
        item = ItemSelection(options, class: true)
        names = NameFilter(options)
        bundle = BundleCredentialOptions(options)
        kdf = try KDFCost.parse(options.value(KDFCost.option))
        json = options.flag(JSONArguments.json)
    }

    /// The plaintext format --format names; nil for a bundle.
    var plaintextFormat: PlaintextExport.Format? {
        format.flatMap { $0 == "bundle" ? nil : $0 == "csv" ? .csv : .json }
    }

    func validate() throws {
        guard let format = plaintextFormat else {
            if plaintext {
                throw UsageError(
                    "--plaintext goes with --format csv or json; a bundle is encrypted",
                    hint: "add --format csv or --format json to write the items in the clear")
            }
            return
        }
        guard plaintext else {
            throw UsageError(
                "--format \(format.rawValue) writes every secret in the clear and needs --plaintext",
                hint: "add --plaintext to say so, or leave out --format for an encrypted bundle")
        }
        if let bundleOption = bundle.firstGiven {
            throw UsageError(
                "--\(bundleOption.long) seals a bundle; a plaintext export is not sealed",
                hint: "leave out --\(bundleOption.long), or --format for a bundle")
        }
    }
}

/// `vault export`: writes the portable items that match to an encrypted bundle (or, with
/// `--format csv|json --plaintext`, in the clear: `PlaintextExport`).
enum ExportCommand {
    static func run(_ arguments: ExportArguments, _ invocation: Invocation) throws {
        if let format = arguments.plaintextFormat {
            try PlaintextExport.run(arguments, invocation, format: format)
            return
        }
        let out = try ItemArguments.newOutputFile(arguments.out, for: "bundle", allowsStdout: true)
        if out == "-", arguments.json {
            throw UsageError("--json and --out - would both write to stdout", hint: "give --out FILE with --json")
        }
        if out == "-", invocation.terminal.stdoutIsTTY {
            throw UsageError(
                "a bundle is binary and stdout is a terminal", hint: "redirect it, as in 'vault export --out - > FILE', or give --out FILE")
        }
        let kdf = arguments.kdf
        let query = try ItemArguments(arguments.item, invocation).query()
        let names = arguments.names
        let access = VaultAccess(invocation)
        let progress = ProgressLine.start(invocation, label: "export")
        defer { progress?.finish() }
        let vault = try access.vault(progress: progress)
        let credential = try access.bundleCredential(arguments.bundle, creating: true)
        let outcome: Vault.ExportOutcome
        if out == "-" {
            let sealed = try vault.sealedBundle(matching: query, where: names.matches, credential: credential, kdf: kdf)
            sealed.bundle.withUnsafeBytes { invocation.terminal.writeOut($0) }
            outcome = sealed.outcome
        } else {
            outcome = try vault.export(to: out, matching: query, where: names.matches, credential: credential, kdf: kdf)
        }
        report(outcome, to: out, json: arguments.json, invocation)
    }

    /// What an export wrote and left out, on stderr (or as JSON).
    static func report(_ outcome: Vault.ExportOutcome, to out: String, inTheClear: Bool = false, json: Bool, _ invocation: Invocation) {
        var line =
            "exported \(counted(outcome.exported, "item"))\(inTheClear ? " in the clear" : "") to \(out == "-" ? "stdout" : quoted(out))"
        if outcome.leftOut > 0 {
            line +=
                "; left out \(outcome.leftOut) -this-device-only item\(outcome.leftOut == 1 ? "" : "s"), whose keys never leave this machine"
        }
        if outcome.damaged > 0 {
            line += "; left out \(outcome.damaged) damaged record\(outcome.damaged == 1 ? "" : "s") (see 'vault verify')"
        }
        invocation.report(
            line,
            json: .object([
                ("file", .string(out)), ("exported", .number(outcome.exported)),
                ("left_out_device_bound", .number(outcome.leftOut)), ("left_out_damaged", .number(outcome.damaged))
            ]), asJSON: json)
    }
}
