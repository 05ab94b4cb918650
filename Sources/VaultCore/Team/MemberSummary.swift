import FoundationEssentials
import VaultCrypto

/// A member of a vault as `vault member list` shows it.
public struct MemberSummary: Equatable, Sendable {
    /// Unique in the vault.
    public let name: String
    /// The age recipient (`age1…`) its slot is sealed to.
    public let recipient: String
    /// The groups it opens; nil for a full member (the master key: every group, and the header).
    public let groups: [AccessGroup]?
    /// Whether a scoped member lacks its groups' write keys.
    public let readOnly: Bool
    /// When it was added.
    public let addedAt: Date
}

/// What `vault member add` did.
public struct MemberAddition: Sendable {
    /// The member as added.
    package let member: MemberSummary
    /// Whether the team log named it removed earlier: it came back under fresh keys.
    package let addedBack: Bool
    /// The re-key made before its slot was sealed (an add-back, or fresh history asked); nil when none.
    package let renewal: KeyRenewal?
}

/// What `vault member remove` did.
public struct MemberRemoval: Sendable {
    /// The member as it was.
    public let member: MemberSummary
    /// The key epoch the vault is at now.
    public let keyEpoch: UInt64
    /// A full member's removal re-keys the whole vault: what that re-key did.
    public let rekey: RekeyOutcome?
}

extension MemberSummary {
    /// `member` as `vault member list` shows it, its groups named with the keys of `vault`.
    init(_ member: Member, in vault: some OpenVault) throws {
        let added = Date(timeIntervalSince1970: Double(member.addedAt) / 1000)
        switch member.scope {
        case .full:
            self.init(name: member.name, recipient: member.recipient.description, groups: nil, readOnly: false, addedAt: added)
        case .groups(let ids, let readOnly):
            let groups = ids.compactMap { vault.keys.groups[$0]?.group }
            self.init(name: member.name, recipient: member.recipient.description, groups: groups, readOnly: readOnly, addedAt: added)
        }
    }
}
