import VaultCore

/// `vault verify`'s options.
struct VerifyArguments: CommandArguments {
    static let quarantine = OptionSpec(
        "quarantine", help: "set aside the items of damaged groups, after a yes, keeping the file as it was in the state directory")

    static let options: [OptionSpec] = [
        quarantine,
        WipeArguments.yes,
        JSONArguments.resultJSON
    ]

    /// --quarantine: set the items of damaged groups aside.
    var quarantine: Bool
    /// --yes: quarantine without asking.
    var yes: Bool
    var json: Bool

    init(_ options: OptionReader) {
        quarantine = options.flag(VerifyArguments.quarantine)
        yes = options.flag(SharedOptions.yes)
        json = options.flag(JSONArguments.json)
    }
}

/// `vault verify`: checks the vault's files, format and records, changing nothing.
enum VerifyCommand {
    static func run(_ arguments: VerifyArguments, _ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let progress = ProgressLine.start(invocation, label: "verify")
        let vault = try access.vault(progress: progress)
        defer { progress?.finish() }
        var report = try vault.verify()
        let terminal = invocation.terminal
        let damaged = report.damagedGroups.map { "group \(quoted($0))" }.joined(separator: ", ")
        // On a terminal verify offers the quarantine; otherwise --quarantine (and --yes) asks for it.
        var offered = false
        if !report.damagedGroups.isEmpty, !arguments.quarantine, access.reasonPromptsAreOff == nil {
            let answer = try terminal.readLine(
                prompt: "\(damaged) failed its MAC; set its items aside so the other groups can be written again? [y/N] ")
            offered = ["y", "yes"].contains(answer?.lowercased() ?? "")
        }
        if offered || arguments.quarantine, !report.damagedGroups.isEmpty {
            terminal.diagnostics.warning("the items of \(damaged) are set aside; the group keeps its name with a new key")
            if !offered {
                try Confirmation.require(invocation, confirmed: arguments.yes, access: access, question: "Quarantine the damaged groups?")
            }
            let (groups, keptAt) = try vault.quarantineDamagedGroups()
            terminal.say("quarantined \(groups.map(quoted).joined(separator: ", ")); the file as it was is kept at \(quoted(keptAt ?? ""))")
            report = try vault.verify()
        }
        if arguments.json {
            terminal.writeOut(json(report).text + "\n")
        } else {
            terminal.writeOut(text(report, directory: access.location.directory))
        }
        if report.isDamaged {
            // Export saves around damaged records, but cannot open a file whose header or MACs fail.
            let onlyReadMACs =
                report.damage == nil && report.damagedGroups.isEmpty && report.damagedRecords == 0 && report.damagedListings == 0
            let hint =
                onlyReadMACs && report.damagedRoster != nil
                ? "every item opens as before, but members cannot be listed or changed: restore the vault file from before the member change that damaged it (its git history, or a backup)"
                : onlyReadMACs
                    ? "your keys read every item; the next change to the vault makes the read MACs again for the readers who check them"
                    : !report.damagedGroups.isEmpty && report.damage == nil
                        ? "every group but the damaged ones opens as before: set the damaged ones aside with 'vault verify --quarantine', or restore the file from a backup"
                        : report.damage == nil
                            ? "save what still opens with 'vault export --out FILE' (it leaves the damaged records out), or restore the file from a backup"
                            : "restore the file from a backup; nothing opens from a file damaged there, so 'vault export' cannot save it either"
            throw CommandFailure(.decode, "the vault \(quoted(access.location.path)) is damaged or was tampered with", hint: hint)
        }
        if !report.exposedFiles.isEmpty {
            throw CommandFailure(.failure, "files of the vault are exposed to other users", hint: "run the chmod commands above")
        }
        if !arguments.json {
            terminal.say(
                "the vault is intact\(report.unopened > 0 ? " as far as the keys at hand can tell; unlock to check every record" : "")")
        }
    }

    private static func text(_ report: VerifyReport, directory: String) -> String {
        var lines = report.exposedFiles.map { file in
            "exposed: \(quoted(file.path)) has mode 0\(String(file.mode, radix: 8)); restrict it with 'chmod \(file.path == directory ? "700" : "600") \(shellQuoted(file.path))'"
        }
        if let damage = report.damage {
            lines.append("damaged: \(damage)")
        } else if !report.checkedRecords {
            lines.append("records: not checked while the vault file is exposed")
        } else {
            lines.append(
                "format: v\(report.formatVersion)"
                    + (report.formatVersion >= 2
                        ? ", key epoch \(report.keyEpoch), write generation \(report.writeGeneration)"
                        : " (convert it with 'vault upgrade')"))
            lines += report.damagedGroups.map { "damaged: group \(quoted($0)): its index does not match its MAC" }
            lines += report.groupsFailingTheirReadMAC.map {
                "damaged: group \(quoted($0)): its read MAC does not match (readers without its write key refuse it; the next change to the vault makes it again)"
            }
            if report.damagedListings > 0 { lines.append("damaged: \(counted(report.damagedListings, "listing block")) (what list reads)") }
            if let roster = report.damagedRoster { lines.append("damaged: the member roster: \(roster) (what 'vault member list' reads)") }
            lines += report.damagedVersions.map {
                "damaged: a version kept in service \(quoted($0.service)), account \(quoted($0.account)) in group \(quoted($0.group.name)) does not open (a revision, a conflict version or a sealed field)"
            }
            lines.append(
                "records: \(report.itemCount) in all, \(report.opened) opened, \(report.unopened) not opened with the keys at hand, \(report.damagedRecords) damaged"
            )
            if report.unopenedVersions > 0 {
                lines.append("conflict versions: \(report.unopenedVersions) sealed under a group or class the keys at hand do not open")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    private static func json(_ report: VerifyReport) -> JSONValue {
        let records: JSONValue =
            report.damage == nil && report.checkedRecords
            ? .object([
                ("total", .number(report.itemCount)), ("opened", .number(report.opened)),
                ("unopened", .number(report.unopened)), ("damaged", .number(report.damagedRecords)),
                ("damaged_listings", .number(report.damagedListings)),
                (
                    "damaged_versions",
                    .array(
                        report.damagedVersions.map { key in
                            .object([
                                ("service", .string(key.service)), ("account", .string(key.account)), ("group", .string(key.group.name))
                            ])
                        })
                ), ("unopened_versions", .number(report.unopenedVersions))
            ])
            : .null
        return .object([
            ("intact", .bool(!report.isDamaged && report.exposedFiles.isEmpty)),
            ("damage", .optional(report.damage?.description)),
            ("format", .number(report.formatVersion)), ("key_epoch", .number(Int(report.keyEpoch))),
            ("write_generation", .number(Int(report.writeGeneration))),
            ("damaged_groups", .array(report.damagedGroups.map { .string($0) })),
            ("read_mac_failures", .array(report.groupsFailingTheirReadMAC.map { .string($0) })),
            ("damaged_roster", .optional(report.damagedRoster?.description)),
            (
                "exposed",
                .array(
                    report.exposedFiles.map { .object([("path", .string($0.path)), ("mode", .string("0" + String($0.mode, radix: 8)))]) })
            ),
            ("records", records)
        ])
    }
}
