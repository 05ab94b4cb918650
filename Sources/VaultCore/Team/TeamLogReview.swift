/// What the owner is shown before signing team log entries it did not write here: the facts of
/// each entry; the command line writes the lines.
public struct TeamLogReview: Sendable, Equatable {
    /// Why the owner's write would sign entries it did not make here.
    package enum Reason: Sendable, Equatable {
        /// A file of the layout before the team log, converted: its members become the log's first entry.
        case conversion
        /// Two diverged team logs joined: the other branch's entries.
        case join
    }

    /// A member as the review shows it.
    package struct ReviewedMember: Sendable, Equatable {
        /// What a member opens.
        package enum Scope: Sendable, Equatable {
            /// Every group: the member holds the master key.
            case full
            /// `count` groups (deleted ones included); `readOnly` without their write keys.
            case groups(count: Int, readOnly: Bool)
        }

        /// Unique in the vault.
        package let name: String
        /// The age recipient (`age1…`) its slot is sealed to.
        package let recipient: String
        /// What it opens.
        package let scope: Scope

        /// A member named `name`, sealed to `recipient`, opening `scope`.
        package init(name: String, recipient: String, scope: Scope) {
            self.name = name
            self.recipient = recipient
            self.scope = scope
        }
    }

    /// One member of a converted file, or one entry of the other branch of a join.
    package enum Entry: Sendable, Equatable {
        /// A member of the converted file: the log's first entry names it.
        case member(ReviewedMember)
        /// The log started with this many members.
        case created(memberCount: Int)
        /// A member added.
        case memberAdded(ReviewedMember)
        /// A member removed, by name and recipient.
        case memberRemoved(name: String, recipient: String)
        /// Every key replaced; `trustKeyReplaced` when the trust key went too.
        case rekeyed(trustKeyReplaced: Bool)
        /// A group given a new key; nil when neither side's keys name it any more (deleted since).
        case groupKeyReplaced(AccessGroup?)
        /// A group deleted; nil when neither side's keys name it any more.
        case groupDeleted(AccessGroup?)
        /// Two branches joined, keeping this many members.
        case joined(memberCount: Int)
        /// The variable names a group's items may set, as the owner wrote them (nil: none); the
        /// group nil when neither side's keys name it any more.
        case envNamesAllowed(AccessGroup?, String?)
    }

    /// Why these entries are shown.
    package let reason: Reason
    /// One per member (a conversion) or per log entry (a join), in order.
    package let entries: [Entry]
    /// A conversion's members that the roster the owner last wrote on this machine does not hold as
    /// they are (every member when it wrote none here): `acceptTeamLog` alone does not sign them.
    package let unvouched: [String]

    /// A review of `entries`, shown for `reason`, `unvouched` naming the members of a conversion not as last written here.
    package init(reason: Reason, entries: [Entry], unvouched: [String] = []) {
        self.reason = reason
        self.entries = entries
        self.unvouched = unvouched
    }
}

extension TeamLogReview {
    /// The review of a conversion whose log starts with `members`, `unvouched` not as last written here.
    static func conversion(of members: [Member], unvouched: [String]) -> TeamLogReview {
        TeamLogReview(reason: .conversion, entries: members.map { .member(ReviewedMember($0)) }, unvouched: unvouched)
    }
}

extension TeamLogReview.ReviewedMember {
    /// `member` as the review shows it.
    init(_ member: Member) {
        switch member.scope {
        case .full: self.init(name: member.name, recipient: member.recipient.description, scope: .full)
        case .groups(let ids, let readOnly):
            self.init(name: member.name, recipient: member.recipient.description, scope: .groups(count: ids.count, readOnly: readOnly))
        }
    }
}
