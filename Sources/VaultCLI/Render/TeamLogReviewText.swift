import VaultCore

/// The words of a team log review: its heading and one line per member or entry. Member and group
/// names follow the rules of group names, and recipients are age1… text: nothing to escape.
enum TeamLogReviewText {
    /// The line before the entries, naming why they are shown.
    static func heading(_ review: TeamLogReview) -> String {
        switch review.reason {
        case .conversion: return "vault: this file predates the team log; its members become the log's first entry:"
        case .join: return "vault: the team log diverged; the other branch holds entries not made here:"
        }
    }

    /// One line per member or entry, in order.
    static func lines(_ review: TeamLogReview) -> [String] {
        review.entries.map { entry in
            guard case .member(let member) = entry, review.unvouched.contains(member.name) else { return line(entry) }
            return line(entry) + " (not as this machine last wrote it)"
        }
    }

    private static func line(_ entry: TeamLogReview.Entry) -> String {
        switch entry {
        case .member(let member): return line(member)
        case .created(let count): return "the log started with \(counted(count, "member"))"
        case .memberAdded(let member): return "added " + line(member)
        case .memberRemoved(let name, let recipient): return "removed \(name) (\(recipient))"
        case .rekeyed(let trustKeyReplaced): return trustKeyReplaced ? "re-keyed, with a new trust key" : "re-keyed"
        case .groupKeyReplaced(let group): return "gave \(words(group)) a new key"
        case .groupDeleted(let group): return "deleted \(words(group))"
        case .joined(let count): return "joined two branches, \(counted(count, "member")) kept"
        case .envNamesAllowed(let group, let names?): return "let the items of \(words(group)) set \(names)"
        case .envNamesAllowed(let group, .none): return "let the items of \(words(group)) set no variable a job does not name"
        }
    }

    /// "bob: full member, age1…" or "ci-runner: 1 group, read-only, age1…".
    private static func line(_ member: TeamLogReview.ReviewedMember) -> String {
        switch member.scope {
        case .full: return "\(member.name): full member, \(member.recipient)"
        case .groups(let count, let readOnly):
            return "\(member.name): \(counted(count, "group"))\(readOnly ? ", read-only" : ""), \(member.recipient)"
        }
    }

    private static func words(_ group: AccessGroup?) -> String {
        group.map { "group \"\($0.name)\"" } ?? "a group since deleted"
    }
}
