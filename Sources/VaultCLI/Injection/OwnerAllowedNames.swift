import VaultCore

/// The variable names the owners of some groups allowed their items to set (`vault group
/// allow-env`), used by `vault env` and `vault run --env-group` when the job names none. Each
/// group read must have some, checked under the pinned trust fingerprint; otherwise the command is
/// refused with the hint that shows both ways (`AcceptedNames.noneNamed`). docs/RUN.md says why.
struct OwnerAllowedNames {
    private let byGroup: [AccessGroup: AllowedEnvNames]

    /// The owners' names for `groups` (nil: every group, those of `items`), read from `store`.
    /// Throws the refusal of `command` for a group with none, or when no pin vouches for them.
    init(_ store: ItemStore, groups: [AccessGroup?], items: [Item], command: String) throws {
        // The desktop keyring's items have no team log, and so no owner's names.
        let owners: [AccessGroup: AllowedEnvNames]?
        if let vault = store.fileVault { owners = try vault.ownerAllowedEnvNames() } else { owners = [:] }
        guard let read = owners else {
            throw AcceptedNames.noneNamed(command, group: groups.count == 1 ? groups[0] : nil, unpinned: true)
        }
        let named = groups.compactMap { $0 }
        let scope = named.count == groups.count ? named : items.map(\.attributes.group)
        if let lacking = scope.first(where: { read[$0] == nil }) { throw AcceptedNames.noneNamed(command, group: lacking) }
        if scope.isEmpty { throw AcceptedNames.noneNamed(command) }
        byGroup = read
    }

    /// Whether the owner of `group` lets its items set `name`.
    func accepts(_ name: String, in group: AccessGroup) -> Bool {
        byGroup[group]?.accepts(name) ?? false
    }
}
