import FoundationEssentials

/// Who holds the keys at hand, told once from where they came (`KeySource`), and what that lets
/// them do: the one place a role is told from the keys (docs/TEAMS.md, "Members"). The authority
/// checks are its methods, each named for what it checks; `KeyVocabularyRuleTests` keeps role
/// tests out of the rest of the code.
enum KeyHolder {
    /// The master key (a passphrase, a key file, an unlock session, the login keyring's slot): the
    /// team owner, the only holder of the trust key.
    case owner
    /// Age identities: a team member. What its slot holds — every key but the trust key (a full
    /// member) or some groups' keys (a scoped member, as a credential naming it) — is read from the
    /// vault file only when a check must tell the two apart (`slot`), so a check that refuses every
    /// member reads nothing.
    case member(slot: () throws -> ScopedCredential?)
    /// A scoped credential (`vault grant`): its groups' keys, their write keys unless read-only.
    case scopedCredential(ScopedCredential)
    /// No unlock: what this device's key opens, and the after-first-unlock cache.
    case deviceOnly

    /// The holder of the keys `source` gives; `memberSlot` reads an identity's slot (nil for a full member).
    init(_ source: KeySource, memberSlot: @escaping () throws -> ScopedCredential?) {
        switch source {
        case .credential, .session: self = .owner
        case .identity: self = .member(slot: memberSlot)
        case .scoped(let credential): self = .scopedCredential(credential)
        case .none: self = .deviceOnly
        }
    }

    /// The credential whose groups the keys are limited to: a scoped credential's or a scoped
    /// member's; nil for the owner, a full member and this device's keys alone.
    func scope() throws -> ScopedCredential? {
        switch self {
        case .scopedCredential(let credential): return credential
        case .member(let slot): return try slot()
        case .owner, .deviceOnly: return nil
        }
    }

    /// Refuses, when the keys are limited to some groups, a group outside them, and any change
    /// (`writing`) when they lack the write keys (whatever the credential's read-only flag says).
    func requireReach(_ group: AccessGroup?, writing: Bool = false) throws {
        guard let credential = try scope() else { return }
        if writing, !credential.canWrite {
            throw credential.memberName.map { VaultError.readOnlyMember($0) } ?? VaultError.readOnlyCredential
        }
        if let group, !credential.groups.contains(group) {
            if let name = credential.memberName { throw VaultError.outsideMember(name: name, group: group, covered: credential.groups) }
            throw VaultError.outsideCredential(group: group, covered: credential.groups)
        }
    }

    /// Refuses what needs every group's keys (the owner's or a full member's) when the keys are
    /// limited to some groups: a scoped credential (`ownerOnly`) or a scoped member (`scopedMemberCannot`).
    func requireUnscoped(_ action: OwnerAction) throws {
        switch self {
        case .scopedCredential: throw VaultError.ownerOnly(action)
        case .member(let slot):
            if let member = try slot() { throw VaultError.scopedMemberCannot(name: member.memberName ?? "", action: action) }
        case .owner, .deviceOnly: return
        }
    }

    /// Refuses, with a member's keys, what raises the key epoch (a re-key, a member's removal, a
    /// revoke, a group's deletion or quarantine) or is signed with the trust key: a new epoch's trust
    /// statement is signed with the trust key, which only the master key unwraps and no member holds
    /// (docs/TEAMS.md, "Trust").
    func requireTrustKey(_ action: OwnerAction) throws {
        try requireUnscoped(action)
        if case .member = self { throw VaultError.trustKeyNeeded(action) }
    }

    /// Refuses a keyslot change with a member's keys: even a full member, which holds every group's
    /// keys, does not replace or remove the owner's passphrase, key files or keyring key.
    func requireKeyslotSecret(_ action: OwnerAction) throws {
        if case .member = self { throw VaultError.identityCannot(action) }
    }
}

/// What a key ring's holder may do, told by which keys it holds: the ring's side of `KeyHolder`.
extension KeyRing {
    /// Whether the ring holds the master key: the owner's, who alone unwraps the trust key.
    var isOwners: Bool { masterKey != nil }

    /// Whether the ring holds every group and class key (the wrap key): the owner's or a full member's.
    var isFull: Bool { wrapKey != nil }

    /// Whether the ring holds the header MAC key, and so checks and may rewrite the header, sign
    /// the team log and seal the member slots: the owner's, a full member's, or a v1 file's device copy.
    var mayWriteHeader: Bool { headerMACKey != nil }
}
