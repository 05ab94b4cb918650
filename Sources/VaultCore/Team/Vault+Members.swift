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
    public let member: MemberSummary
    /// Whether the team log named it removed earlier: it came back under fresh keys.
    public let addedBack: Bool
    /// The re-key made before its slot was sealed (an add-back, or fresh history asked); nil when none.
    public let renewal: KeyRenewal?
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

/// Members: public-key keyslots sealed to age recipients (docs/TEAMS.md).
extension Vault {
    /// The members, by name. The owner (or a full member) only: the roster is sealed under the wrap key.
    public func members() throws -> [MemberSummary] {
        try requireOwner(.listMembers)
        return try withKeys {
            let vault = try readSnapshot()
            guard vault.keys.isFull else { throw VaultError.locked(nil) }
            return try vault.readMembers().map { try summary(of: $0, in: vault) }.sorted { $0.name < $1.name }
        }
    }

    /// Adds a member: a slot sealed to `recipient` with the master key (no `groups`), or with the
    /// keys `grant` gives for `groups` (`readOnly`: without their write keys). A member removed
    /// earlier (the team log names its name or recipient) is added back under fresh keys, and
    /// `freshHistory` asks for them for anyone: what the slot opens is re-keyed first in the same
    /// write (`renewKeys`: the whole vault for a full member, with `confirm` shown what that drops,
    /// and `kdf` the cost of the keyslot it makes; its groups for a scoped one), so the slot opens
    /// nothing sealed before, and with `freshHistory` the revisions and trash of what it opens go.
    /// Throws `invalidValue` (usage) for a malformed or repeated name, a recipient already a
    /// member's, or `readOnly` without groups; `noSuchGroup` for a group the vault lacks.
    @discardableResult
    public func addMember(name: String, recipient: AgeRecipient, groups: [AccessGroup], readOnly: Bool, freshHistory: Bool = false,
                          kdf: Scrypt.Parameters = .interactive, confirm: (RekeyPlan) throws -> Void = { _ in }) throws -> MemberAddition {
        guard AccessGroup(name) != nil else {
            throw VaultError.invalidValue(.memberName(name))
        }
        if readOnly, groups.isEmpty {
            throw VaultError.invalidValue(.readOnlyMemberWithoutGroups)
        }
        try requireTrustKey(.addMembers)
        let add = { (vault: inout WorkingCopy) throws -> MemberSummary in
            let member = try vault.addMember(name: name, recipient: recipient, groups: groups, readOnly: readOnly, addedAt: self.host.now())
            return try self.summary(of: member, in: vault)
        }
        let addedBack = try wasRemovedEarlier(name: name, recipient: recipient)
        guard addedBack || freshHistory else {
            return MemberAddition(member: try transaction(add), addedBack: false, renewal: nil)
        }
        let renewed: RenewedKeys = groups.isEmpty ? .vault : .groups(groups)
        let (member, renewal) = try renewKeys(renewed, freshHistory: freshHistory, kdf: kdf, confirm: confirm, then: add)
        return MemberAddition(member: member, addedBack: addedBack, renewal: renewal)
    }

    /// Removes a member and re-keys what it could open, in one write: a full member's removal
    /// re-keys the whole vault (as `rekey`, with `confirm` shown what that drops, and needing the
    /// passphrase or key file, and keeping the trust key, which no member held); a scoped member's
    /// gives each of its groups a fresh key (as `revoke`). The other members' slots are sealed
    /// again to the new keys. The owner's only: it raises the key epoch (`requireTrustKey`).
    public func removeMember(named name: String, kdf: Scrypt.Parameters = .interactive,
                             confirm: (RekeyPlan) throws -> Void) throws -> MemberRemoval {
        try requireTrustKey(.removeMembers)
        let existing = try members()
        guard let shown = existing.first(where: { $0.name == name }) else { throw VaultError.noSuchMember(name) }
        if shown.groups == nil {
            let outcome = try rekey(kdf: kdf, confirm: confirm, keepingTrustKey: true, carryingSessions: true) { vault in
                _ = try vault.removeMember(named: name)
            }
            return MemberRemoval(member: shown, keyEpoch: outcome.keyEpoch, rekey: outcome)
        }
        let epoch = try transaction { vault -> UInt64 in
            let removed = try vault.removeMember(named: name)
            guard case .groups(let ids, _) = removed.scope else { throw VaultError.changedSinceShown }
            for id in ids where vault.file.groups.contains(where: { $0.groupID == id }) {
                guard let group = vault.keys.groups[id]?.group else { continue }
                _ = try vault.rotateGroupKey(id, progress: configuration.progress)
            }
            return vault.file.keyEpoch
        }
        return MemberRemoval(member: shown, keyEpoch: epoch, rekey: nil)
    }

    func summary(of member: Member, in vault: some OpenVault) throws -> MemberSummary {
        let added = Date(timeIntervalSince1970: Double(member.addedAt) / 1000)
        switch member.scope {
        case .full:
            return MemberSummary(name: member.name, recipient: member.recipient.description, groups: nil, readOnly: false, addedAt: added)
        case .groups(let ids, let readOnly):
            let groups = ids.compactMap { vault.keys.groups[$0]?.group }
            return MemberSummary(name: member.name, recipient: member.recipient.description, groups: groups, readOnly: readOnly, addedAt: added)
        }
    }
}

extension Vault {
    /// Whether one of `identities` opens a member slot of the vault file: the file is parsed, not
    /// trusted (no pin, no signature checked), since this only decides whether an identity nobody
    /// named is worth trying. Every read with it then checks the trust pin and the owner's signature.
    public func memberSlotOpens(with identities: [AgeIdentity]) -> Bool {
        guard let parsed = try? Snapshot.parse(try readFile(), path: location.path, checking: .lookupsOnly) else { return false }
        return (try? Snapshot.openMemberSlot(parsed.file, identities: identities, path: location.path)) != nil
    }
}

/// Trust: the fingerprint a member or CI job pins so it reads only vaults the owner's keys signed.
extension Vault {
    /// The vault's trust fingerprint (the SHA-256 of its trust public key, in hex), read with the
    /// owner's keys, whose header MAC vouches for the key: a member cannot learn it from a file
    /// that anyone who can write it could have made, so it is given to them from here.
    public func trustFingerprint() throws -> String {
        try requireOwner(.printTrustFingerprint)
        return try withKeys {
            let vault = try readSnapshot()
            guard vault.keys.headerMACKey != nil else { throw VaultError.locked(nil) }
            guard vault.file.version >= 2 else { throw VaultError.upgradeNeeded(path: location.path, byOwner: true) }
            return Snapshot.trustFingerprint(of: vault.file.trustPublicKey)
        }
    }
}
