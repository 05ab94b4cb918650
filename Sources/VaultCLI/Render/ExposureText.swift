import VaultCore

/// The words of `vault exposure`: its table, its JSON, its summaries, and the pointer `member
/// remove` and `revoke` print.
enum ExposureText {
    /// Where exposure read the file's versions.
    enum Source {
        /// The vault file's git history, every commit of any local ref.
        case git
        /// The vault file alone: it is in no git work tree.
        case fileAlone
    }

    /// Which value, as a word: current, revision N, conflict, notes, otp; "(trash)" after one in the trash.
    static func which(_ value: ExposedValue) -> String {
        let kind = value.revision.map { "revision \($0)" } ?? value.kind.rawValue
        return kind + (value.trashed ? " (trash)" : value.deleted ? " (deleted)" : "")
    }

    /// A commit's short form, or "working tree" for the file as it is now.
    static func commit(_ commit: String?) -> String { commit.map { String($0.prefix(10)) } ?? "working tree" }

    /// One line per value: state, group, service, account, which value, set, replaced, first and last commit.
    static func table(_ values: [ExposedValue]) -> String {
        values.map { value in
            let state = value.accepted == nil ? value.state.rawValue : "accepted"
            return [
                state, value.group.name, ItemOutput.printable(value.service), ItemOutput.printable(value.account), which(value),
                value.set.map(DateText.iso) ?? "-", value.replaced.map(DateText.iso) ?? "-",
                commit(value.firstCommit), commit(value.lastCommit)
            ].joined(separator: "\t") + "\n"
        }.joined()
    }

    /// One value as `--json` prints it.
    static func object(_ value: ExposedValue) -> JSONValue {
        .object([
            ("group", .string(value.group.name)), ("service", .string(value.service)), ("account", .string(value.account)),
            ("item_id", .string(value.itemID)), ("value", .string(value.kind.rawValue)),
            ("revision", value.revision.map { .number($0) } ?? .null),
            ("where", .string(value.trashed ? "trash" : value.deleted ? "deleted" : "item")),
            ("state", .string(value.state.rawValue)),
            ("set", .optional(value.set.map(DateText.iso))), ("replaced", .optional(value.replaced.map(DateText.iso))),
            ("first_commit", .optional(value.firstCommit)), ("last_commit", .optional(value.lastCommit)),
            (
                "accepted",
                value.accepted.map { .object([("at", .string(DateText.iso($0.acceptedAt))), ("reason", .string($0.reason))]) } ?? .null
            )
        ])
    }

    static func name(_ principal: ExposurePrincipal) -> String {
        switch principal {
        case .member(let name): "member \(quoted(name))"
        case .group(let group): "the keys of group \(quoted(group.name))"
        case .credential(let grant): "credential \(grant.id)"
        }
    }

    /// The line after the table: how many, live and rotated, from what.
    static func summary(_ report: ExposureReport, of principal: ExposurePrincipal, source: Source) -> String {
        let live = report.values.filter { $0.state == .live }.count
        let from =
            switch source {
            case .git: "from \(counted(report.versionsRead, "version")) of the vault file in git (every commit of any local ref)"
            case .fileAlone: "from the vault file alone: it is in no git repository, so no earlier copy was read"
            }
        let unopened =
            report.versionsNotOpened == 0
            ? "" : "; \(counted(report.versionsNotOpened, "version")) did not open with these keys and were not read"
        return
            "\(name(principal)) could open \(counted(report.values.count, "value")) (\(live) live, \(report.values.count - live) rotated), \(from); \(counted(report.recordsOpened, "record")) decrypted\(unopened)"
    }

    /// One line of `exposure check`.
    static func line(_ finding: ExposureFinding) -> String {
        [
            column(finding.principal), finding.value.group.name, ItemOutput.printable(finding.value.service),
            ItemOutput.printable(finding.value.account),
            which(finding.value)
        ].joined(separator: "\t") + "\n"
    }

    /// A principal as the first column of a check line: a member's name as is, else as `who` says.
    static func column(_ principal: ExposurePrincipal) -> String {
        if case .member(let name) = principal { return ItemOutput.printable(name) }
        return who(principal)
    }

    /// A principal in one word or two: a member's name, quoted; "credential ID"; "group G".
    static func who(_ principal: ExposurePrincipal) -> String {
        switch principal {
        case .member(let name): quoted(name)
        case .credential(let grant): "credential \(grant.id)"
        case .group(let group): "group \(quoted(group.name))"
        }
    }

    static func checkFailure(_ findings: [ExposureFinding]) -> String {
        let principals = Set(findings.map { who($0.principal) }).sorted()
        return
            "\(counted(findings.count, "live value")) could be read by \(principals.joined(separator: ", ")), who no longer \(principals.count == 1 ? "has" : "have") access"
    }

    static let checkHint =
        "rotate each at its service and store the new value (vault update), then run 'vault exposure check' again; 'vault exposure --member NAME' or '--grant ID' lists everything"

    /// `lost`: the members that lost access and the credentials revoked or expired.
    static func checkPassed(lost: [ExposurePrincipal], source: Source) -> String {
        let alone = source == .fileAlone ? " (the vault file alone: it is in no git repository)" : ""
        if lost.isEmpty { return "no member or credential has lost access: nothing to rotate\(alone)" }
        return "no live value exposed to \(lost.map(who).joined(separator: ", ")) is left\(alone)"
    }

    /// Lines of the acceptances file that no trust key of this vault signed.
    static func unverified(_ count: Int, path: String) -> String {
        "\(counted(count, "line")) of \(quoted(path)) \(count == 1 ? "is" : "are") signed by no trust key of this vault and accept\(count == 1 ? "s" : "") nothing"
    }

    /// What `exposure accept` did.
    static func accepted(_ name: String, _ acceptance: ExposureAcceptance, path: String) -> String {
        "accepted the live exposed values of \(quoted(name)) as of \(DateText.iso(acceptance.acceptedAt)), signed with the trust key; commit \(quoted(path)) with the vault file"
    }

    /// The command that lists what `principal` could open.
    static func command(for principal: ExposurePrincipal) -> String {
        switch principal {
        case .member(let name): "vault exposure --member \(shellQuoted(name))"
        case .group(let group): "vault exposure --group \(shellQuoted(group.name))"
        case .credential(let grant): "vault exposure --grant \(grant.id)"
        }
    }

    /// What `member remove` and `revoke` print (`live` nil: the history could not be read with these keys).
    static func pointer(live: Int?, principal: ExposurePrincipal) -> String {
        let count =
            live.map { "could open \(counted($0, "live value")) through the file's git history" }
            ?? "may have read values kept in the file's git history"
        return
            "\(name(principal)) \(count): rotate them; '\(command(for: principal))' lists them, 'vault exposure check' says when none is left"
    }
}
