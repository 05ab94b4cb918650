import VaultCore

/// What `add` checks about the group before it stores an item: a group that
/// does not exist yet is created, and said so; a new name one typo away from
/// an existing group is refused unless --create-group; and a service and
/// account that another group holds too are warned about.
struct NewGroupCheck {
    let invocation: Invocation
    /// --create-group: a new name one letter from a group is meant.
    let createGroup: Bool

    /// Whether adding to `group` creates it; throws for a likely typo.
    func createsGroup(_ group: AccessGroup, in store: ItemStore) throws -> Bool {
        guard let vault = store.fileVault else { return false }
        let (groups, unopened) = try vault.groupNames(beforeWriting: true)
        let names = groups.map(\.name)
        // With groups left unopened vault cannot tell a new group from a locked one.
        guard unopened == 0, !names.contains(group.name) else { return false }
        if !createGroup,
            let near = names.first(where: { Suggestion.distance($0, group.name) == 1 })
        {
            throw UsageError(
                "there is no group \(quoted(group.name)), and \(quoted(near)) is one letter away",
                hint: "did you mean \(quoted(near))? add --create-group to create \(quoted(group.name))")
        }
        return group != .default
    }

    /// Warns when other groups hold the same service and account: an unqualified `get` then matches several.
    func warnAboutTwins(service: String, account: String, group: AccessGroup, in store: ItemStore) throws {
        let twins = try store.listing(matching: Query(service: service, account: account)).items.filter { $0.group != group }
        guard !twins.isEmpty else { return }
        let groups = twins.map { quoted($0.group.name) }.joined(separator: ", ")
        invocation.terminal.diagnostics.warning(
            "service \(quoted(service)), account \(quoted(account)) is also in group \(groups); 'vault get' without --group now matches \(twins.count + 1) items"
        )
    }
}

extension NewGroupCheck {
    /// --create-group: a new group one letter from an existing one is meant.
    static let createGroup = OptionSpec(
        "create-group", help: "create the group even when its name is one letter away from an existing group's")
}
