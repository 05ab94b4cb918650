import FoundationEssentials
import VaultCrypto

// Members: public-key keyslots (`MemberSlot`), what the owner lists and seals
// again, and what an identity opens.
extension OpenVault {
    /// The members, from the roster parts (needs the wrap key: the owner or a full member).
    /// Throws `corrupted` when a roster part does not open or parse, or two members share a name or recipient.
    mutating func members() throws -> [Member] {
        if let roster { return roster }
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        do {
            let members = try file.members.map { try $0.roster(wrapKey: wrapKey, vaultID: file.vaultID) }
            guard Set(members.map(\.name)).count == members.count, Set(members.map(\.recipient)).count == members.count else {
                throw MalformedInput(detail: "two member slots of one name or recipient")
            }
            roster = members
            return members
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.detail)
        }
    }

    /// The member removals (needs the wrap key: the owner or a full member). Throws `corrupted` when
    /// the sealed part does not open or parse.
    mutating func removalRecord() throws -> RemovalRecord {
        if let removals { return removals }
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        do {
            let record = try RemovalRecord.open(file.memberRemovals, wrapKey: wrapKey, vaultID: file.vaultID, keyEpoch: file.keyEpoch)
            removals = record
            return record
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.detail)
        }
    }

    /// Records what the owner did to a member's slot (a removal, an adding back) for merges to follow.
    mutating func recordMemberChange(_ change: (inout RemovalRecord) -> Void) throws {
        var record = try removalRecord()
        change(&record)
        removals = record
        removalsStale = true
    }

    /// Seals the member removals again when they or the wrap key changed: the trust statement, which
    /// holds their digest, is then signed again (the owner's trust key; a member's write cannot).
    mutating func sealRemovalsIfChanged() throws {
        guard removalsStale, let removals, let wrapKey = keys.wrapKey else { return }
        removalsStale = false
        file.memberRemovals = try removals.sealed(wrapKey: wrapKey, vaultID: file.vaultID)
    }

    /// Seals every member slot again from the roster with the keys held now, when a key they
    /// carry changed (`memberSlotsStale`): the master key for full members, the group and class
    /// keys (through the grants) for scoped ones. A scoped member's groups that were deleted
    /// leave its scope; a member left with no group leaves the vault. Called before the owner writes.
    mutating func refreshMemberSlots() throws {
        guard memberSlotsStale else { return }
        memberSlotsStale = false
        guard !file.members.isEmpty || !(roster ?? []).isEmpty else { return }
        var kept: [Member] = []
        for var member in try members() {
            if case .groups(let ids, let readOnly) = member.scope {
                let remaining = ids.filter { id in file.groups.contains { $0.groupID == id } }
                guard !remaining.isEmpty else { continue }
                member.scope = .groups(remaining, readOnly: readOnly)
            }
            kept.append(member)
        }
        roster = kept
        file.members = try kept.map { try sealSlot(for: $0) }
    }

    /// A fresh slot for `member` with the keys held now.
    func sealSlot(for member: Member) throws -> MemberSlot {
        guard let fullMemberKeys = keys.fullMemberKeys, let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        let memberKeys: MemberKeys
        switch member.scope {
        case .full:
            memberKeys = .full(fullMemberKeys)
        case .groups(let ids, let readOnly):
            memberKeys = .scoped(readOnly: readOnly, grants: try ids.map { id in
                guard let entry = file.groups.first(where: { $0.groupID == id }) else { throw KeyRingError.missingGroupKey(id) }
                return try GroupGrant.of(id, in: keys, keyCheck: entry.keyCheck, classes: Accessibility.allCases, writable: !readOnly)
            })
        }
        return try MemberSlot.seal(member, keys: memberKeys, vaultID: file.vaultID, wrapKey: wrapKey)
    }

    /// Adds a member: a slot sealed to `recipient` holding the master key (no groups), or the
    /// keys of `groups` (read-only: without their write keys). Throws `invalidValue` (usage) for
    /// a name or recipient already a member's and past 64 members, `noSuchGroup` for a group the vault lacks.
    mutating func addMember(name: String, recipient: AgeRecipient, groups: [AccessGroup], readOnly: Bool, addedAt: Date) throws -> Member {
        guard keys.isFull else { throw VaultError.locked(nil) }
        let existing = try members()
        if existing.contains(where: { $0.name == name }) {
            throw VaultError.invalidValue(field: "member", detail: "a member named \"\(name)\" exists; remove it first or choose another name")
        }
        if let other = existing.first(where: { $0.recipient == recipient }) {
            throw VaultError.invalidValue(field: "member", detail: "that recipient is the member \"\(other.name)\"'s already")
        }
        guard existing.count < MemberSlot.maxMembers else {
            throw VaultError.invalidValue(field: "member", detail: "a vault holds at most \(MemberSlot.maxMembers) members")
        }
        guard groups.count <= MemberSlot.maxMembers else {
            throw VaultError.invalidValue(field: "member", detail: "\(groups.count) groups; a member holds at most \(MemberSlot.maxMembers)")
        }
        var ids: [GroupID] = []
        for group in groups {
            guard let id = keys.groupID(of: group) else { throw VaultError.noSuchGroup(group) }
            if !ids.contains(id) { ids.append(id) }
        }
        // Adding back someone the owner removed changes the removals the trust key vouches for: the owner's
        // alone, and at a new key epoch, so no two files at one epoch hold different records.
        if try removalRecord().isRemoved(recipient) {
            guard keys.trustWrapKey != nil else { throw VaultError.trustKeyNeeded(action: "add back a removed member") }
            file.keyEpoch += 1
            let epoch = file.keyEpoch
            try recordMemberChange { $0.recordAddingBack(of: recipient, at: epoch) }
        }
        let member = Member(name: name, recipient: recipient, addedAt: Int64((addedAt.timeIntervalSince1970 * 1000).rounded(.down)),
                            scope: ids.isEmpty ? .full : .groups(ids, readOnly: readOnly))
        let slot: MemberSlot
        do {
            slot = try sealSlot(for: member)
        } catch is CryptoError {
            // OpenSSL refuses the all-zero secret a low-order public key gives.
            throw VaultError.invalidRecipient(recipient.description, reason: "an X25519 public key of low order, which nothing can be sealed to")
        }
        file.members.append(slot)
        roster = existing + [member]
        return member
    }

    /// Removes the member named `name` from the header (and the roster); nothing is re-keyed here.
    /// Throws `noSuchMember`.
    mutating func removeMemberSlot(named name: String) throws -> Member {
        let existing = try members()
        guard let at = existing.firstIndex(where: { $0.name == name }) else { throw VaultError.noSuchMember(name) }
        file.members.remove(at: at)
        roster = existing.filter { $0.name != name }
        return existing[at]
    }

    /// What `identities` open of the file's member slots: the first slot one of them opens, as
    /// age tries stanzas. Throws `noMemberSlot` (51) when none opens, `corrupted` (93) for a
    /// low-order ephemeral share or a key part that opens but does not parse.
    static func openMemberSlot(_ file: VaultFile, identities: [AgeIdentity], path: String) throws -> (name: String, keys: MemberKeys) {
        do {
            for identity in identities {
                for slot in file.members {
                    if let opened = try slot.open(with: identity, vaultID: file.vaultID) { return opened }
                }
            }
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.detail)
        }
        throw VaultError.noMemberSlot(recipients: identities.map(\.recipient.description))
    }

    /// Opens `bytes` with an identity: a full member with every key but the master and trust keys
    /// (the header MAC checked), a scoped member as a scoped credential of its groups (`open(_:credential:…)`).
    static func open(_ bytes: FileBytes, identities: [AgeIdentity], deviceKey: SecretBytes?, path: String,
                     checking indexCheck: IndexCheck = .everyBucket) throws -> OpenVault {
        let parsed = try parse(bytes, path: path, checking: indexCheck)
        let (name, memberKeys) = try openMemberSlot(parsed.file, identities: identities, path: path)
        switch memberKeys {
        case .full(let fullMemberKeys):
            return try open(parsed, fullMemberKeys: fullMemberKeys, deviceKey: deviceKey, path: path, checking: indexCheck)
        case .scoped(let readOnly, let grants):
            let credential = ScopedCredential.member(name: name, vaultID: parsed.file.vaultID, readOnly: readOnly, grants: grants)
            return try open(parsed, credential: credential, deviceKey: deviceKey, path: path, checking: indexCheck)
        }
    }
}
