import FoundationEssentials

/// A group and how many items it holds.
public struct GroupSummary: Equatable, Sendable {
    /// The group.
    public let group: AccessGroup
    /// How many items of the group the vault holds.
    public let itemCount: Int
}

/// Access groups: listing, creating and deleting them, scoped credentials
/// for them (`grant`) and ending those credentials (`revoke`).
extension Vault {
    /// The groups the keys at hand open, by name, and how many groups they do not open.
    /// With a way to ask, asks for a credential rather than leave groups out.
    public func groups() throws -> (groups: [GroupSummary], unopened: Int) {
        try withKeys {
            let vault = try readSnapshot()
            let (held, unopened) = try heldGroups(of: vault)
            let counts = vault.file.index.entryCounts()
            return (held.map { GroupSummary(group: $0.group, itemCount: counts[$0.id] ?? 0) }, unopened)
        }
    }

    /// The names of the groups the keys at hand open, and how many they do not: `groups()` without
    /// the item counts, so the index is not read (the header and the group MACs are still checked).
    /// `beforeWriting`: the caller changes the vault next (`add`), so the file is read as a write
    /// reads it, and the write takes this reading rather than opening and verifying the file again.
    public func groupNames(beforeWriting: Bool = false) throws -> (groups: [AccessGroup], unopened: Int) {
        try withKeys {
            let vault = beforeWriting ? try readSnapshot(keepingForWrite: true) : try readSnapshot(checking: .lookupsOnly)
            let (held, unopened) = try heldGroups(of: vault)
            return (held.map(\.group), unopened)
        }
    }

    /// The groups `vault` opens (within a scoped credential's groups), sorted by name, and how many it
    /// does not; with a way to ask, asks for a credential rather than leave groups out.
    private func heldGroups(of vault: some OpenVault) throws -> (groups: [(id: GroupID, group: AccessGroup)], unopened: Int) {
        let held = vault.file.groups.compactMap { entry -> (id: GroupID, group: AccessGroup)? in
            guard let group = vault.keys.groups[entry.groupID]?.group, vault.scope?.contains(entry.groupID) ?? true else { return nil }
            return (entry.groupID, group)
        }
        let unopened = vault.scope == nil ? vault.file.groups.count - held.count : 0
        if unopened > 0, canAsk { throw VaultError.locked(nil) }
        return (held.sorted { $0.group.name < $1.group.name }, unopened)
    }

    /// Creates an empty group with a fresh key. Throws `groupExists` when it exists.
    public func createGroup(_ group: AccessGroup) throws {
        try requireOwner(.createGroups)
        try transaction { vault in
            guard try vault.groupID(for: group, creating: false) == nil else { throw VaultError.groupExists(group) }
            _ = try vault.groupID(for: group, creating: true)
        }
    }

    /// Deletes a group with its key and every item in it; returns how many items went with it.
    @discardableResult
    public func deleteGroup(_ group: AccessGroup) throws -> GroupDeletion {
        try requireTrustKey(.deleteGroups)
        return try transaction { vault in
            guard let id = try vault.groupID(for: group, creating: false) else { throw vault.missingGroup(group) }
            return try vault.removeGroup(id)
        }
    }

    /// A scoped credential that opens the items of `groups` and nothing else, recorded in the
    /// grant ledger of each (`grants()`), so the vault file changes; a v1 or v2 file is left as it
    /// is (not converted) and the grant not recorded.
    /// `readOnly` leaves out the keys a change needs; `expires` is checked when it is used.
    public func grant(groups: [AccessGroup], readOnly: Bool, expires: Date?) throws -> ScopedCredential {
        try requireOwner(.grantCredentials)
        let issued = host.now()
        // A file from before the ledger is not converted by a grant: its grant is not recorded.
        let recorded = try withKeys { try readSnapshot().file.version >= VaultFile.version }
        guard recorded else {
            return try withKeys { try readSnapshot().grant(groups, readOnly: readOnly, issued: issued, expires: expires) }
        }
        return try transaction { vault in
            let credential = try vault.grant(groups, readOnly: readOnly, issued: issued, expires: expires)
            vault.recordGrant(credential)
            return credential
        }
    }

    /// Gives `group` a fresh key and re-seals its items under it: every
    /// credential granted for it stops working. Returns how many items were re-sealed.
    @discardableResult
    public func revoke(group: AccessGroup) throws -> Int {
        try requireTrustKey(.revokeCredentials)
        return try transaction { vault in
            guard let id = try vault.groupID(for: group, creating: false) else { throw vault.missingGroup(group) }
            return try vault.rotateGroupKey(id, progress: configuration.progress)
        }
    }
}

/// What deleting a group removed.
public struct GroupDeletion: Sendable, Equatable {
    /// How many items of the group went.
    public let items: Int
    /// Items of other groups in conflict whose other version lived in the deleted group: that version went with it.
    public let droppedConflictVersions: [ItemKey]
}
