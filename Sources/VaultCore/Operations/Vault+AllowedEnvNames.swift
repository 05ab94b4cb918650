/// The variable names a group's owner lets its items set when a job names none (`vault group
/// allow-env`): kept in the team log, so only the trust key (the owner's) sets them, and taken by
/// a reader only from a vault whose trust statement checks under its pinned trust fingerprint
/// (docs/RUN.md, "Names a job accepts").
extension Vault {
    /// Sets (or, with nil, clears) the names `group`'s items may set: a team log entry, which raises
    /// the key epoch. The owner's alone: a member's identity or a scoped credential is refused (30).
    public func setAllowedEnvNames(_ allowed: AllowedEnvNames?, for group: AccessGroup) throws {
        try requireTrustKey(.allowEnvNames)
        try transaction { vault in
            guard let id = try vault.groupID(for: group, creating: false) else { throw vault.missingGroup(group) }
            guard vault.file.teamLog?.allowedEnvNames()[id] != allowed else { return }
            try vault.appendToLog(.envNamesAllowed(id, allowed))
        }
    }

    /// The names the owner allowed, for each group the keys at hand open that has some: nil when
    /// the vault's team log allows some but no trust fingerprint is pinned (`--trust`, `VAULT_TRUST`),
    /// so nothing vouches that the owner wrote them. Throws `untrustedVault` (51) when one is pinned
    /// and the vault is not signed under it.
    public func ownerAllowedEnvNames() throws -> [AccessGroup: AllowedEnvNames]? {
        try withKeys {
            let vault = try readSnapshot()
            let allowed = vault.file.teamLog?.allowedEnvNames() ?? [:]
            if allowed.isEmpty { return [:] }
            guard let pinned = configuration.trustedFingerprint else { return nil }
            guard vault.headerIsSigned(byFingerprint: pinned) else { throw VaultError.untrustedVault(path: location.path, pinned: pinned) }
            var byGroup: [AccessGroup: AllowedEnvNames] = [:]
            for (id, names) in allowed {
                guard let group = vault.keys.groups[id]?.group, vault.scope?.contains(id) ?? true else { continue }
                byGroup[group] = names
            }
            return byGroup
        }
    }
}
