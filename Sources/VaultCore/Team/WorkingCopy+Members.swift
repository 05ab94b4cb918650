import FoundationEssentials
import VaultCrypto

// Members changed: public-key keyslots (`MemberSlot`) the owner adds, removes and seals again from
// the team log, whose entries it appends (what an identity opens is `Snapshot+Opening`'s).
extension WorkingCopy {
    /// The members: in format v3 the team log folded up, which the slots' roster parts must match
    /// (`checkSlotsAgainstLog`); in v2 the roster parts. Needs the wrap key (the owner or a full
    /// member). Throws `corrupted` when a part or the log does not open or parse, or two members
    /// share a name or recipient.
    ///
    /// A working copy keeps what it folded (the members, the log's opened payloads) for the writes
    /// that follow; a snapshot's `readMembers()` keeps nothing it folds.
    mutating func members() throws -> [Member] {
        if let roster { return roster }
        let folded = try foldMembers()
        if let log = folded.openedLog { file.teamLog = log }
        roster = folded.members
        return folded.members
    }

    /// The team log with its payloads opened (the wrap key's), kept open for the next write.
    mutating func openTeamLog() throws -> TeamLog {
        let log = try openedTeamLog()
        file.teamLog = log
        return log
    }

    /// On opening with full keys: the member slots are the team log's members, one slot each, in
    /// the log's order (a slot the log does not name, or one naming another recipient or scope, is
    /// damage: only the owner's write rebuilds slots, from the log).
    /// With no slot there is nothing to check (the trust statement, checked already, covers the empty
    /// slots), so a vault without members opens its log on no read.
    mutating func checkSlotsAgainstLog() throws {
        guard file.hasTeamLog, !file.members.isEmpty, let wrapKey = keys.wrapKey else { return }
        let fromLog = try slottedMembers()
        do {
            guard try slotRosters(wrapKey: wrapKey) == fromLog else {
                throw VaultError.corrupted(path: path, detail: .violates(.memberSlotsNotTheLogs))
            }
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
    }

    /// Appends `change` to the team log at a key epoch above the head's (the epoch an operation
    /// already raised the vault to, or one more): the owner's alone, since the trust key signs the
    /// head. Members change with it: every slot is sealed again from the log before the write.
    mutating func appendToLog(_ change: TeamChange) throws {
        try unwrapTrustKey()
        guard trustKey != nil else { throw VaultError.trustKeyNeeded(.changeTeamLog) }
        var log = try openTeamLog()
        log.append(change, keyEpoch: max(file.keyEpoch, log.headEpoch + 1))
        try adopt(log)
    }

    /// Before a write of the owner or a full member: the team log's payloads sealed again when an
    /// entry was appended or the wrap key replaced. Every raise of the key epoch is an entry of the
    /// log (the owner's): a write whose key epoch is not the log's head's is refused (readers would
    /// refuse the file).
    mutating func sealTeamLog() throws {
        guard var log = file.teamLog else { return }
        guard log.headEpoch == file.keyEpoch else { throw VaultError.corrupted(path: path, detail: .violates(.keyEpochNotTheLogs)) }
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        try log.sealPayloadsIfNeeded(wrapKey: wrapKey)
        file.teamLog = log
    }

    /// A file of format v2 (member removals, no team log) made v3 by the owner: a log created with
    /// the members its slots name, at a key epoch one higher. The removals go: the log starts here.
    /// Returns the members the log starts with; nil when the file had a log.
    mutating func convertToTeamLog() throws -> [Member]? {
        guard !file.hasTeamLog, file.version == 2 else { return nil }
        let members = try self.members()
        file.version = VaultFile.version
        file.memberRemovals = []
        file.keyEpoch += 1
        file.teamLog = TeamLog.created(vaultID: file.vaultID, keyEpoch: file.keyEpoch, roster: members)
        roster = members
        return members
    }

    /// Takes `log` (one entry longer, or a join of two logs: the owner's): its members are the vault's
    /// from now, at its key epoch, and every slot is sealed again from it before the next write.
    mutating func adopt(_ log: TeamLog) throws {
        file.teamLog = log
        file.keyEpoch = log.headEpoch
        do {
            roster = try log.state().members
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
        pending.memberSlotsStale = true
    }

    /// Seals every member slot again from the team log's members with the keys held now, when the
    /// members or a key they carry changed (`pending.memberSlotsStale`): the master key for full members,
    /// the group and class keys (through the grants) for scoped ones. Called before the owner writes.
    mutating func refreshMemberSlots() throws {
        guard pending.memberSlotsStale else { return }
        pending.memberSlotsStale = false
        guard !file.members.isEmpty || !(roster ?? []).isEmpty else { return }
        file.members = try slottedMembers().map { try sealSlot(for: $0) }
    }

    /// The members that have a slot: every full member, and every scoped one with a group the file
    /// holds (a group the log names may be missing: one made on another branch under a name this
    /// file had made already).
    mutating func slottedMembers() throws -> [Member] {
        let held = Set(file.groups.map(\.groupID))
        return try members().filter { member in
            guard case .groups(let ids, _) = member.scope else { return true }
            return ids.contains { held.contains($0) }
        }
    }

    /// A fresh slot for `member` with the keys held now.
    func sealSlot(for member: Member) throws -> MemberSlot {
        guard let fullMemberKeys = keys.fullMemberKeys, let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        let memberKeys: MemberKeys
        switch member.scope {
        case .full:
            memberKeys = .full(fullMemberKeys)
        case .groups(let ids, let readOnly):
            memberKeys = .scoped(
                readOnly: readOnly,
                grants: try ids.compactMap { id in
                    guard let entry = file.groups.first(where: { $0.groupID == id }) else { return nil }
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
            throw VaultError.invalidValue(.memberNameTaken(name))
        }
        if let other = existing.first(where: { $0.recipient == recipient }) {
            throw VaultError.invalidValue(.recipientTaken(member: other.name))
        }
        guard existing.count < MemberSlot.maxMembers else {
            throw VaultError.invalidValue(.tooManyMembers(limit: MemberSlot.maxMembers))
        }
        guard groups.count <= MemberSlot.maxMembers else {
            throw VaultError.invalidValue(.tooManyMemberGroups(count: groups.count, limit: MemberSlot.maxMembers))
        }
        var ids: [GroupID] = []
        for group in groups {
            guard let id = keys.groupID(of: group) else { throw VaultError.noSuchGroup(group) }
            if !ids.contains(id) { ids.append(id) }
        }
        let member = Member(
            name: name, recipient: recipient, addedAt: Int64((addedAt.timeIntervalSince1970 * 1000).rounded(.down)),
            scope: ids.isEmpty ? .full : .groups(ids, readOnly: readOnly))
        do {
            _ = try sealSlot(for: member)
        } catch is CryptoError {
            // OpenSSL refuses the all-zero secret a low-order public key gives.
            throw VaultError.invalidRecipient(recipient.description, reason: .lowOrder)
        }
        try appendToLog(.memberAdded(member))
        return member
    }
    /// Removes the member named `name`: an entry of the team log (the owner's), its slot gone at
    /// the next write; nothing is re-keyed here. Throws `noSuchMember`.
    mutating func removeMember(named name: String) throws -> Member {
        guard let member = try members().first(where: { $0.name == name }) else { throw VaultError.noSuchMember(name) }
        try appendToLog(.memberRemoved(name: member.name, recipient: member.recipient))
        return member
    }

    /// Removes the scoped member `name` and gives each of its groups a fresh key (as `revoke`);
    /// returns the key epoch now. Throws `changedSinceShown` when it is a full member now.
    mutating func removeScopedMember(named name: String, progress: ProgressHandler?) throws -> UInt64 {
        let removed = try removeMember(named: name)
        guard case .groups(let ids, _) = removed.scope else { throw VaultError.changedSinceShown }
        for id in ids where file.groups.contains(where: { $0.groupID == id }) {
            guard keys.groups[id]?.group != nil else { continue }
            _ = try rotateGroupKey(id, progress: progress)
        }
        return file.keyEpoch
    }
}
