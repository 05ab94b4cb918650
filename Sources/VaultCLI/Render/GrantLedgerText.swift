import FoundationEssentials
import VaultCore

/// The words of `vault grant --list`: one line or one JSON object per credential the grant ledger records.
enum GrantLedgerText {
    /// id, state, groups, mode, granted, expires, revoked: tab-separated.
    static func line(_ grant: GrantEntry, now: Date) -> String {
        [
            grant.id, grant.state(at: now).rawValue, grant.groups.map(\.name).joined(separator: ","),
            grant.readOnly ? "read-only" : "read-write", "granted \(DateText.iso(grant.issued))",
            grant.expires.map { "expires \(DateText.iso($0))" } ?? "no expiry",
            grant.revoked.map { "revoked \(DateText.iso($0))" } ?? "-"
        ].joined(separator: "\t") + "\n"
    }

    /// One credential as `--json` prints it.
    static func object(_ grant: GrantEntry, now: Date) -> JSONValue {
        .object([
            ("id", .string(grant.id)), ("groups", .array(grant.groups.map { .string($0.name) })),
            ("read_only", .bool(grant.readOnly)), ("issued", .string(DateText.iso(grant.issued))),
            ("expires", .optional(grant.expires.map(DateText.iso))), ("revoked", .optional(grant.revoked.map(DateText.iso))),
            ("state", .string(grant.state(at: now).rawValue))
        ])
    }

    static let empty = "the grant ledger records no credential (one granted before the ledger, or with an older vault, is not in it)"
}
