import FoundationEssentials
import VaultCrypto

// Groups as read: those the keys open, one the file lacks, grants of them.
extension OpenVault {
    /// The groups the keys at hand open, within the caller's scope.
    var openedGroups: [AccessGroup] {
        file.groups.compactMap { entry in scope?.contains(entry.groupID) ?? true ? keys.groups[entry.groupID]?.group : nil }
    }

    /// The error for a group this file lacks, naming the groups the keys open.
    func missingGroup(_ group: AccessGroup) -> VaultError {
        .noSuchGroup(group, known: openedGroups)
    }

    /// Refuses a group the file does not have (`noSuchGroup`). Says nothing while a group of the
    /// caller's scope is left unopened: a missing group and a locked one cannot be told apart then.
    func requireExisting(_ group: AccessGroup?) throws {
        guard let group, keys.groupID(of: group) == nil else { return }
        guard !file.groups.contains(where: { keys.groups[$0.groupID] == nil && (scope?.contains($0.groupID) ?? true) }) else { return }
        throw missingGroup(group)
    }

    /// A scoped credential for `groups`: their base keys of every class, lookup
    /// keys and key checks; the index MAC keys too unless it is read-only. Needs a full ring.
    func grant(_ groups: [AccessGroup], readOnly: Bool, issued: Date, expires: Date?) throws -> ScopedCredential {
        guard keys.isFull else { throw VaultError.locked(nil) }
        guard groups.count <= ScopedCredential.maxGroups else {
            throw VaultError.invalidValue(.tooManyCredentialGroups(count: groups.count, limit: ScopedCredential.maxGroups))
        }
        let grants = try groups.map { group -> GroupGrant in
            guard let id = keys.groupID(of: group), let entry = file.groups.first(where: { $0.groupID == id }) else {
                throw missingGroup(group)
            }
            return try GroupGrant.of(id, in: keys, keyCheck: entry.keyCheck, classes: Accessibility.allCases, writable: !readOnly)
        }
        return ScopedCredential(
            vaultID: file.vaultID, readOnly: readOnly, issued: issued, expires: expires,
            grants: grants, payloadVersion: UInt8(VaultFile.keySchedule(of: file.version)))
    }

    /// The groups the keys open (within a scoped credential's groups), sorted by name, and how many
    /// they do not (none counted for a scoped credential, whose other groups are not its to see).
    func heldGroups() -> (groups: [(id: GroupID, group: AccessGroup)], unopened: Int) {
        let held = file.groups.compactMap { entry -> (id: GroupID, group: AccessGroup)? in
            guard let group = keys.groups[entry.groupID]?.group, scope?.contains(entry.groupID) ?? true else { return nil }
            return (entry.groupID, group)
        }
        let unopened = scope == nil ? file.groups.count - held.count : 0
        return (held.sorted { $0.group.name < $1.group.name }, unopened)
    }
}
