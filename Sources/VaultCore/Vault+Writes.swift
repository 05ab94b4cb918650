import FoundationEssentials
import VaultCrypto

// The façade's changes: each takes the writer lock, reads, runs its room's operation on the
// working copy and commits (`transaction`, `commit`).
extension Vault {
    /// Merges `theirs` into `ours` (nil: the vault file at this location), against `base` (their
    /// merge base; nil or empty when there is none, as git gives on add/add), and writes the result
    /// here in one write. Needs keys that open both sides whole: the owner's or a full member's.
    /// The team logs decide the members and keys of the result: when one descends from the other,
    /// the descendant's; when they diverged, only the owner joins them (`reviewTeamLog` shown the
    /// other branch's entries first), re-keying in the same write what a removal on either branch
    /// needs (`confirm` shown what that drops). `origins` name each side for the conflicts it leaves.
    /// Nothing of either side is recorded as seen: git may abort the merge and put the older file back.
    package func merge(
        base: [UInt8]?, ours: [UInt8]? = nil, theirs: [UInt8], origins: (ours: String, theirs: String),
        kdf: Scrypt.Parameters = .interactive, confirm: (RekeyPlan) throws -> Void
    ) throws -> MergeReport {
        try holder.requireUnscoped(.mergeVault)
        let outcome = try withWriterLock {
            try withKeys {
                let sides = try reader.openMergeSides(base: base, ours: ours, theirs: theirs, origins: origins)
                let run = MergeRun(
                    origins: origins, kdf: kdf, configuration: configuration, host: host, path: location.path,
                    readWithExposedDeviceKey: reads.usesExposedDeviceKey, unlockSecret: unlockSecretAtHand)
                var merged = try run.run(ours: sides.ours, theirs: sides.theirs, base: sides.base, confirm: confirm)
                try commit(&merged.result, as: .merge)
                merged.report.keyEpoch = merged.result.file.keyEpoch
                return merged
            }
        }
        if outcome.report.rekeyed {
            _ = try rekeying.finishRekey(movedDeviceKey: outcome.movedDeviceKey, masterKey: outcome.result.keys.masterKey)
        }
        return outcome.report
    }

    /// Settles the newest conflict of the one item that matches `query` with `side`'s version:
    /// its current one (the conflicts go), the other side's (which replaces it), or, when the
    /// chosen side had deleted the item, none. Throws `noConflict` when it has none.
    @discardableResult
    package func resolve(matching query: Query, keeping side: MergeSide) throws -> Resolution {
        try holder.requireReach(query.group, writing: true)
        return try transaction { vault in
            try Conflicts.resolve(matching: query, keeping: side, in: &vault) { try holder.requireReach($0, writing: true) }
        }
    }

    /// Writes an independent copy of this vault to `destination` (see `WorkingCopy.independentCopy`):
    /// every record sealed again under a new vault id and new keys, one keyslot made with the
    /// passphrase or key file at hand (asked for when the keys at hand are a session's). Returns how
    /// many items it holds. The owner's alone (a member holds no master key); throws `vaultExists`
    /// when `destination` exists. This vault is only read.
    @discardableResult
    package func copy(to destination: VaultLocation, kdf: Scrypt.Parameters = .interactive) throws -> Int {
        try holder.requireTrustKey(.copyVault)
        let secret = try unlockSecretAtHand()
        guard try !destination.exists else { throw VaultError.vaultExists(path: destination.path) }
        return try withKeys {
            var vault = WorkingCopy(try readSnapshot())
            let keyslot = KeyslotSecret(kind: secret.slotKind, secret: secret.secret, kdf: kdf)
            return try NewVaultFile.write(at: destination, host: host) { vaultID, deviceKey in
                try vault.independentCopy(vaultID: vaultID, keyslot: keyslot, deviceKey: deviceKey, path: destination.path)
            }.file.index.count
        }
    }

    /// Makes revision 1 of the one item that matches `query` its secret again; the secret it
    /// replaces becomes revision 1, so a second undo goes back. Throws `noRevision` when the item keeps none.
    @discardableResult
    public func undo(matching query: Query) throws -> ItemAttributes {
        try holder.requireReach(query.group, writing: true)
        return try transaction { vault in try itemChanges.undo(matching: query, in: &vault) }
    }

    /// Sets (or, with nil, clears) the names `group`'s items may set: a team log entry, which raises
    /// the key epoch. The owner's alone: a member's identity or a scoped credential is refused (30).
    package func setAllowedEnvNames(_ allowed: AllowedEnvNames?, for group: AccessGroup) throws {
        try holder.requireTrustKey(.allowEnvNames)
        try transaction { vault in
            guard let id = try vault.groupID(for: group, creating: false) else { throw vault.missingGroup(group) }
            guard vault.file.teamLog?.allowedEnvNames()[id] != allowed else { return }
            try vault.appendToLog(.envNamesAllowed(id, allowed))
        }
    }

    /// Adds many items in one transaction: one read, one write and one fsync
    /// for the lot, so filling a vault of 100 000 items for `make bench` takes
    /// seconds, through the same sealing code as `add`. All or nothing: throws
    /// `duplicateItem` (adding none) when an item exists already or appears
    /// twice in `items`.
    package func addAll(_ items: [NewItem]) throws {
        for item in items { try Vault.validate(item) }
        try transaction { vault in try itemChanges.addAll(items, in: &vault) }
    }

    /// Brings back the one trashed item that matches `query`, with its history, as a new revision
    /// (modified now, after the revision deleted, so a merge never takes it for that one). Throws
    /// `itemNotFound` when the trash holds none, `ambiguous` for several, `duplicateItem` when an
    /// item of its name was added since.
    @discardableResult
    package func undelete(matching query: Query) throws -> ItemAttributes {
        try holder.requireReach(query.group, writing: true)
        return try transaction { vault in try itemChanges.undelete(matching: query, in: &vault) }
    }

    /// Empties the trash of `group` (nil: every group the keys at hand may write); returns how many items went.
    @discardableResult
    package func emptyTrash(group: AccessGroup?) throws -> Int {
        try holder.requireReach(group, writing: true)
        return try transaction { vault in try ItemChanges.emptyTrash(group: group, in: &vault) }
    }

    /// Creates an empty group with a fresh key. Throws `groupExists` when it exists.
    package func createGroup(_ group: AccessGroup) throws {
        try holder.requireUnscoped(.createGroups)
        try transaction { vault in
            guard try vault.groupID(for: group, creating: false) == nil else { throw VaultError.groupExists(group) }
            _ = try vault.groupID(for: group, creating: true)
        }
    }

    /// Deletes a group with its key and every item in it; returns how many items went with it.
    @discardableResult
    package func deleteGroup(_ group: AccessGroup) throws -> GroupDeletion {
        try holder.requireTrustKey(.deleteGroups)
        return try transaction { vault in
            guard let id = try vault.groupID(for: group, creating: false) else { throw vault.missingGroup(group) }
            return try vault.removeGroup(id)
        }
    }

    /// Gives `group` a fresh key and re-seals its items under it: every
    /// credential granted for it stops working. Returns how many items were re-sealed.
    @discardableResult
    package func revoke(group: AccessGroup) throws -> Int {
        try holder.requireTrustKey(.revokeCredentials)
        return try transaction { vault in
            guard let id = try vault.groupID(for: group, creating: false) else { throw vault.missingGroup(group) }
            return try vault.rotateGroupKey(id, progress: configuration.progress)
        }
    }

    /// Adds a keyslot that opens with the content of a key file; refuses a key file that already opens the vault.
    package func addKeyFile(_ content: SecretBytes) throws {
        try holder.requireKeyslotSecret(.changeKeyslots)
        try transaction { vault in
            if try vault.keyslotOpening(kind: .keyFile, with: content) {
                throw VaultError.invalidValue(.keyFileAlreadyOpens)
            }
            try vault.addKeyslot(kind: .keyFile, secret: content, kdf: .interactive)
        }
    }

    /// Removes the keyslot that the key file content opens, and rotates the master key when it can
    /// (see `changeKeyslots`); returns whether it did. Throws `noKeyslot` when no slot opens with
    /// it and `lastKeyslot` when it is the only one.
    @discardableResult
    public func removeKeyFile(_ content: SecretBytes) throws -> Bool {
        try changeKeyslots { vault in
            guard try vault.removeKeyslots(kind: .keyFile, openedBy: content) > 0 else {
                throw VaultError.noKeyslot(.keyFile)
            }
            return []
        }
    }

    /// Removes every passphrase keyslot (a key-file keyslot must remain) and
    /// destroys the `when-passcode-set-this-device-only` items: they are
    /// deleted and their class key replaced. Rotates the master key when it
    /// can (see `changeKeyslots`). Returns what was destroyed and whether it rotated.
    @discardableResult
    public func removePassphrase() throws -> (destroyed: [ItemAttributes], rotated: Bool) {
        var destroyed: [ItemAttributes] = []
        let rotated = try changeKeyslots { vault in
            guard vault.hasKeyslot(.passphrase) else {
                throw VaultError.invalidValue(.noPassphraseToRemove)
            }
            guard vault.hasKeyslot(.keyFile) else { throw VaultError.lastKeyslot }
            _ = try vault.removeKeyslots(kind: .passphrase, openedBy: nil)
            let doomed = try vault.matches(Query(accessibility: .whenPasscodeSetThisDeviceOnly), skipLocked: false)
            vault.remove(at: doomed.positions)
            try vault.rotateClassKey(.whenPasscodeSetThisDeviceOnly)
            destroyed = doomed.attributes
            return []
        }
        return (destroyed, rotated)
    }

    /// Adds a desktop-keyring keyslot that `key` opens; a vault has at most one.
    package func addKeyringSlot(_ key: SecretBytes) throws {
        try holder.requireKeyslotSecret(.changeKeyslots)
        try transaction { vault in
            guard !vault.hasKeyslot(.desktopKeyring) else {
                throw VaultError.invalidValue(.keyringSlotExists)
            }
            try vault.addKeyslot(kind: .desktopKeyring, secret: key, kdf: .interactive)
        }
    }

    /// Removes the desktop-keyring keyslot, and rotates the master key when it can (see
    /// `changeKeyslots`); returns whether it did. Throws `noKeyslot` when there is none.
    @discardableResult
    package func removeKeyringSlot() throws -> Bool {
        try changeKeyslots { vault in
            guard try vault.removeKeyslots(kind: .desktopKeyring, openedBy: nil) > 0 else {
                throw VaultError.noKeyslot(.desktopKeyring)
            }
            return []
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
    public func addMember(
        name: String, recipient: AgeRecipient, groups: [AccessGroup], readOnly: Bool, freshHistory: Bool = false,
        kdf: Scrypt.Parameters = .interactive, confirm: (RekeyPlan) throws -> Void = { _ in }
    ) throws -> MemberAddition {
        guard AccessGroup(name) != nil else {
            throw VaultError.invalidValue(.memberName(name))
        }
        if readOnly, groups.isEmpty {
            throw VaultError.invalidValue(.readOnlyMemberWithoutGroups)
        }
        try holder.requireTrustKey(.addMembers)
        let add = { (vault: inout WorkingCopy) throws -> MemberSummary in
            let member = try vault.addMember(name: name, recipient: recipient, groups: groups, readOnly: readOnly, addedAt: self.host.now())
            return try MemberSummary(member, in: vault)
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
    public func removeMember(
        named name: String, kdf: Scrypt.Parameters = .interactive,
        confirm: (RekeyPlan) throws -> Void
    ) throws -> MemberRemoval {
        try holder.requireTrustKey(.removeMembers)
        let existing = try members()
        guard let shown = existing.first(where: { $0.name == name }) else { throw VaultError.noSuchMember(name) }
        if shown.groups == nil {
            let outcome = try rekey(kdf: kdf, confirm: confirm, keepingTrustKey: true, carryingSessions: true) { vault in
                _ = try vault.removeMember(named: name)
            }
            return MemberRemoval(member: shown, keyEpoch: outcome.keyEpoch, rekey: outcome)
        }
        let epoch = try transaction { vault in try vault.removeScopedMember(named: name, progress: configuration.progress) }
        return MemberRemoval(member: shown, keyEpoch: epoch, rekey: nil)
    }

    /// Removes the items that match `filter`, keeping none in the trash; with `dryRun`, only says
    /// what it would remove. A filter of whole groups also gives each group a fresh key and empties its trash. With `expecting`
    /// (what a dry run showed), throws `changedSinceShown` and removes nothing
    /// when the items it would remove now are not those.
    package func wipe(_ filter: WipeFilter, dryRun: Bool, expecting: [ItemAttributes]? = nil) throws -> WipeOutcome {
        // A whole group wiped gets a new key, which raises the key epoch: the owner's alone (said before any preview).
        if filter.selectsWholeGroups { try holder.requireTrustKey(.wipeWholeGroups) } else { try holder.requireUnscoped(.wipeItems) }
        if dryRun {
            return try withKeys {
                let vault = try readSnapshot()
                // A preview of what the owner would remove needs the owner's keys, or it would miss groups.
                guard vault.keys.isFull else { throw VaultError.locked(nil) }
                return try vault.wipeSelection(filter, now: host.now(), progress: configuration.progress).outcome
            }
        }
        return try transaction { vault in
            try vault.wipe(filter, now: host.now(), progress: configuration.progress, expecting: expecting)
        }
    }

    /// A scoped credential that opens the items of `groups` and nothing else, recorded in the
    /// grant ledger of each (`grants()`), so the vault file changes; a v1 or v2 file is left as it
    /// is (not converted) and the grant not recorded.
    /// `readOnly` leaves out the keys a change needs; `expires` is checked when it is used.
    package func grant(groups: [AccessGroup], readOnly: Bool, expires: Date?) throws -> ScopedCredential {
        try holder.requireUnscoped(.grantCredentials)
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

    // MARK: fresh keys on the way in (docs/TEAMS.md, "Adding a member back" and "Fresh history"): the one
    // path by which `member add` of a member removed earlier, `member add --fresh-history` and
    // `grant --fresh-history` make sure a newcomer opens nothing sealed before it arrived — not in the
    // current file, not in an older copy git keeps, whose keys the re-key retired.

    /// Re-keys `renewed` — the whole vault (as `rekey`, keeping the trust key, with `confirm` shown
    /// what it drops, needing the passphrase or key file) or the groups given (as `revoke`) — and,
    /// with `freshHistory`, drops their items' revisions and purges their trash (purge records left,
    /// so a merge does not bring it back), in one write. The owner's only. Throws `noSuchGroup`.
    @discardableResult
    package func renewKeys(
        _ renewed: RenewedKeys, freshHistory: Bool, kdf: Scrypt.Parameters = .interactive,
        confirm: (RekeyPlan) throws -> Void
    ) throws -> KeyRenewal {
        try renewKeys(renewed, freshHistory: freshHistory, kdf: kdf, confirm: confirm) { _ in }.renewal
    }

    /// `renewKeys`, with `then` applied to the vault in the same write (adding the newcomer: its slot
    /// is sealed at the write, with the new keys): `Rekeying.renewKeys` once the keys may.
    func renewKeys<T>(
        _ renewed: RenewedKeys, freshHistory: Bool, kdf: Scrypt.Parameters, confirm: (RekeyPlan) throws -> Void,
        then: (inout WorkingCopy) throws -> T
    ) throws -> (result: T, renewal: KeyRenewal) {
        switch renewed {
        case .vault: try holder.requireTrustKey(.rekeyVault)
        case .groups: try holder.requireTrustKey(.revokeCredentials)
        }
        return try rekeying.renewKeys(renewed, freshHistory: freshHistory, kdf: kdf, confirm: confirm, then: then)
    }

    /// Adds the items of the bundle at `path`, keeping their attributes and
    /// dates. An item whose group, service and account exist follows `policy`;
    /// with `.fail`, one conflict imports nothing.
    package func importBundle(at path: String, credential: UnlockSecret, onConflict policy: ConflictPolicy) throws -> ImportOutcome {
        try holder.requireUnscoped(.importItems)
        return try importItems(try Transfer.items(ofBundleAt: path, credential: credential), onConflict: policy)
    }

    /// Adds `items` (from another password manager: `ImportEntry`), dated now, in one write; an
    /// item whose group, service and account exist follows `policy` as in `importBundle`. Groups
    /// that do not exist are created, as `add` creates them.
    package func importItems(_ items: [NewItem], onConflict policy: ConflictPolicy) throws -> ImportOutcome {
        try importItems(Transfer.items(items, dated: host.now()), onConflict: policy)
    }

    /// Adds `items` in one write, keeping their attributes and dates (an export's items, or those of
    /// a plaintext export read back). An item whose group, service and account exist follows
    /// `policy`; with `.fail`, one conflict imports nothing. Throws `invalidValue` for an item no
    /// backend stores, importing nothing.
    package func importItems(_ items: [Item], onConflict policy: ConflictPolicy) throws -> ImportOutcome {
        try holder.requireUnscoped(.importItems)
        return try transaction { vault in
            try Transfer.add(items, onConflict: policy, to: &vault, progress: configuration.progress)
        }
    }
}
