import FoundationEssentials

/// One version of a vault file: a blob of its git history, or the file as it is now.
package struct VaultFileVersion: Sendable {
    /// The commits that wrote these bytes, oldest first (empty: the file itself, not committed).
    package var commits: [String]
    /// The bytes of the file.
    package var bytes: [UInt8]

    /// A version written by `commits`.
    package init(commits: [String], bytes: [UInt8]) {
        self.commits = commits
        self.bytes = bytes
    }
}

/// Whose exposure is asked: what a member, or whoever held a group's keys, could open.
package enum ExposurePrincipal: Sendable, Equatable {
    /// A member, by name: every key generation its slot carried, in any version of the file.
    case member(String)
    /// A group, by name: every key generation the group ever had (what any credential of it could open).
    case group(AccessGroup)
    /// A credential the grant ledger records: its groups' key generations while their key was the
    /// one it was granted under, whatever its expiry (vault checks that; its keys do not).
    case credential(GrantEntry)
}

/// Which value of an item an exposed value is.
package enum ExposedValueKind: String, Sendable, CaseIterable {
    /// The item's secret.
    case current
    /// An earlier secret kept in the record (`vault history`).
    case revision
    /// The other version of a merge conflict.
    case conflict
    /// The item's notes.
    case notes
    /// The item's one-time code secret.
    case otp
}

/// Whether an exposed value is still in use.
package enum ExposureState: String, Sendable {
    /// It is the secret, notes, one-time code or a conflict version of an item of the current file.
    case live
    /// No item of the current file holds it any more.
    case rotated
}

/// A value a principal could open, never the value itself.
package struct ExposedValue: Sendable {
    /// The item's id (hex), stable for its life.
    package var itemID: String
    /// The item's group, as the newest version the principal could open names it.
    package var group: AccessGroup
    /// The item's service, as that version names it.
    package var service: String
    /// The item's account, as that version names it.
    package var account: String
    /// Which value of the item.
    package var kind: ExposedValueKind
    /// Its number (1 the newest) when it is a revision.
    package var revision: Int?
    /// Where the newest version that exposes it kept it: the item was in the trash there.
    package var trashed: Bool
    /// The item is neither in the current file nor in its trash.
    package var deleted: Bool
    /// Live or rotated.
    package var state: ExposureState
    /// When the item took this value, when known.
    package var set: Date?
    /// When the item replaced it, when known.
    package var replaced: Date?
    /// The oldest commit that carries it under a key generation the principal held (nil: only the
    /// file as it is now).
    package var firstCommit: String?
    /// The newest such commit (nil: the file as it is now, not committed).
    package var lastCommit: String?
    /// The owner's acceptance of this live value, if any.
    package var accepted: ExposureAcceptance?
}

/// The owner's signed note that a live exposed value is accepted (`vault exposure accept`).
package struct ExposureAcceptance: Sendable, Equatable {
    /// The item's id (hex).
    package var itemID: String
    /// When it was accepted: it covers the values the item held then, and any change to the item
    /// after it ends it.
    package var acceptedAt: Date
    /// Why, as the owner wrote it.
    package var reason: String
}

/// What `exposure` found: the values, and how much of the history it read.
package struct ExposureReport: Sendable {
    /// Every value the principal could open, oldest first seen first.
    package var values: [ExposedValue]
    /// Whether the principal appears anywhere in the history (a member's name, a group's).
    package var principalFound: Bool
    /// How many versions of the file were read (the current file included).
    package var versionsRead: Int
    /// How many versions the keys at hand did not open (not read).
    package var versionsNotOpened: Int
    /// How many sealed records were decrypted: each once, however many versions carry it.
    package var recordsOpened: Int
}

/// A live value exposed to someone who has since lost access (`vault exposure check`).
package struct ExposureFinding: Sendable {
    /// The member that lost access, or the credential revoked or expired.
    package var principal: ExposurePrincipal
    /// The value.
    package var value: ExposedValue
}
