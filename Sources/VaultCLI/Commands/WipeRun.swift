import FoundationEssentials
import VaultCore

/// A wipe as the command line does it, for `wipe`, `first-run` and the
/// first-run config keys: work out what goes, show it and ask when asked to,
/// then remove it.
struct WipeRun {
    let invocation: Invocation
    let access: VaultAccess
    /// --yes: wipe without asking.
    let confirmed: Bool

    /// Wipes what `filter` selects. With `confirm`, prints the items and asks
    /// (or needs --yes) before removing any. A whole-group wipe runs even when
    /// the group is empty, so the group still gets a fresh key.
    func perform(_ filter: WipeFilter, on vault: Vault, confirm: Bool) throws -> WipeOutcome {
        let plan = try vault.wipe(filter, dryRun: true)
        if plan.removedCount == 0, !filter.selectsWholeGroups { return plan }
        if confirm, plan.removedCount > 0 {
            // The list is the question's context; with --yes it is a record of what goes, which -q leaves out.
            // With --yes nobody reads the list before it goes: its first lines and a count, not a line per item.
            if !(invocation.terminal.quiet && confirmed) {
                invocation.terminal.writeErr(WipeRun.describe(plan, now: invocation.now, upTo: confirmed ? WipeRun.recordedItems : nil))
            }
            try Confirmation.require(
                invocation, confirmed: confirmed, access: access,
                question: "Remove \(counted(plan.removedCount, "item"))?")
        }
        return try vault.wipe(filter, dryRun: false, expecting: confirm ? plan.removed : nil)
    }

    /// How many items a wipe with --yes lists before it counts the rest.
    static let recordedItems = 10

    /// The items a wipe removes, as a table (the first `limit` of them, the
    /// rest counted, when a limit is given), with the unread ones counted.
    static func describe(_ outcome: WipeOutcome, now: Date, upTo limit: Int? = nil) -> String {
        let shown = limit.map { Array(outcome.removed.prefix($0)) } ?? outcome.removed
        var text = shown.isEmpty ? "" : ItemOutput.table(shown, now: now)
        if shown.count < outcome.removed.count {
            text += "and \(counted(outcome.removed.count - shown.count, "more item")) (--dry-run lists them all)\n"
        }
        if outcome.removedUnread > 0 {
            text += "and \(counted(outcome.removedUnread, "item")) bound to another device, unread\n"
        }
        return text
    }

    /// What a wipe did (or would do), for --json.
    static func json(_ outcome: WipeOutcome, dryRun: Bool, now: Date) -> JSONValue {
        .object([
            ("dry_run", .bool(dryRun)), ("removed", .items(outcome.removed, now: now)),
            ("removed_unread", .number(outcome.removedUnread)), ("kept_unread", .number(outcome.keptUnread)),
            ("rekeyed_groups", .array(outcome.rekeyedGroups.map { .string($0.name) }))
        ])
    }

    /// One line saying what a wipe did.
    static func summary(_ outcome: WipeOutcome) -> String {
        var line = "removed \(counted(outcome.removedCount, "item"))"
        if !outcome.rekeyedGroups.isEmpty {
            line +=
                "; new key for group\(outcome.rekeyedGroups.count == 1 ? "" : "s") "
                + outcome.rekeyedGroups.map { quoted($0.name) }.joined(separator: ", ")
        }
        if outcome.keptUnread > 0 {
            line += "; kept \(counted(outcome.keptUnread, "item")) bound to another device that could not be read"
        }
        return line
    }
}
