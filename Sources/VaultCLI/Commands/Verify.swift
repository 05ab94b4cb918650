import VaultCore

/// `vault verify`: checks the vault's files, format and records, changing nothing.
enum VerifyCommand {
    static func run(_ invocation: Invocation) throws {
        let access = VaultAccess(invocation)
        let report = try access.vault().verify()
        let terminal = invocation.terminal
        for file in report.exposedFiles {
            terminal.writeOut("exposed: \(quoted(file.path)) has mode 0\(String(file.mode, radix: 8)); restrict it with 'chmod \(file.path == access.location.directory ? "700" : "600") \(shellQuoted(file.path))'\n")
        }
        if let damage = report.damage {
            terminal.writeOut("damaged: \(damage)\n")
        } else if !report.checkedRecords {
            terminal.writeOut("records: not checked while the vault file is exposed\n")
        } else {
            terminal.writeOut("records: \(report.itemCount) in all, \(report.opened) opened, \(report.unopened) not opened with the keys at hand, \(report.damagedRecords) damaged\n")
        }
        if report.isDamaged {
            throw CommandFailure(.decode, "the vault \(quoted(access.location.path)) is damaged or was tampered with",
                                 hint: "restore the file from a backup, or save what still opens with 'vault export'")
        }
        if !report.exposedFiles.isEmpty {
            throw CommandFailure(.failure, "files of the vault are exposed to other users", hint: "run the chmod commands above")
        }
        terminal.writeErr("vault: the vault is intact\(report.unopened > 0 ? " as far as the keys at hand can tell; unlock to check every record" : "")\n")
    }
}
