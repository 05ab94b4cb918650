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
            let held = vault.file.groups.filter { vault.keys.groups[$0.groupID] != nil && (vault.scope?.contains($0.groupID) ?? true) }
            let unopened = vault.scope == nil ? vault.file.groups.count - held.count : 0
            if unopened > 0, canAsk { throw VaultError.locked(nil) }
            let summaries = held.compactMap { entry -> GroupSummary? in
                guard let group = vault.keys.groups[entry.groupID]?.group else { return nil }
                return GroupSummary(group: group, itemCount: vault.file.index.count(where: { $0.groupID == entry.groupID }))
            }
            return (summaries.sorted { $0.group.name < $1.group.name }, unopened)
        }
    }

    /// Creates an empty group with a fresh key. Throws `groupExists` when it exists.
    public func createGroup(_ group: AccessGroup) throws {
        try requireOwner("create groups")
        try transaction { vault in
            guard try vault.groupID(for: group, creating: false) == nil else { throw VaultError.groupExists(group) }
            _ = try vault.groupID(for: group, creating: true)
        }
    }

    /// Deletes a group with its key and every item in it; returns how many items went with it.
    @discardableResult
    public func deleteGroup(_ group: AccessGroup) throws -> Int {
        try requireOwner("delete groups")
        return try transaction { vault in
            guard let id = try vault.groupID(for: group, creating: false) else { throw VaultError.noSuchGroup(group) }
            return try vault.removeGroup(id)
        }
    }

    /// A scoped credential that opens the items of `groups` and nothing else.
    /// `readOnly` leaves out the keys a change needs; `expires` is checked when it is used.
    public func grant(groups: [AccessGroup], readOnly: Bool, expires: Date?) throws -> ScopedCredential {
        try requireOwner("grant credentials")
        return try withKeys {
            let vault = try readSnapshot()
            return try vault.grant(groups, readOnly: readOnly, issued: host.now(), expires: expires)
        }
    }

    /// Gives `group` a fresh key and re-seals its items under it: every
    /// credential granted for it stops working. Returns how many items were re-sealed.
    @discardableResult
    public func revoke(group: AccessGroup) throws -> Int {
        try requireOwner("revoke credentials")
        return try transaction { vault in
            guard let id = try vault.groupID(for: group, creating: false) else { throw VaultError.noSuchGroup(group) }
            return try vault.rotateGroupKey(id, progress: progress)
        }
    }
}
