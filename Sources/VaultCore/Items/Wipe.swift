import FoundationEssentials

/// What `wipe` removes: the items that match every filter given.
package struct WipeFilter: Equatable, Sendable {
    /// Group, service and account to match; an unset field matches anything.
    package var query: Query
    /// Only items whose expiry date has come.
    package var expiredOnly: Bool
    /// Only items last modified before this date.
    package var modifiedBefore: Date?
    /// Only items whose service matches this glob.
    package var servicePattern: NamePattern?
    /// Only items whose account matches this glob.
    package var accountPattern: NamePattern?

    /// A filter of the fields given; with no argument, one that selects every item.
    package init(
        query: Query = Query(), expiredOnly: Bool = false, modifiedBefore: Date? = nil,
        servicePattern: NamePattern? = nil, accountPattern: NamePattern? = nil
    ) {
        self.query = query
        self.expiredOnly = expiredOnly
        self.modifiedBefore = modifiedBefore
        self.servicePattern = servicePattern
        self.accountPattern = accountPattern
    }

    /// Whether it selects whole groups (the group named, or every group): then
    /// the groups also get fresh keys, so old credentials and copies of their keys open nothing later.
    package var selectsWholeGroups: Bool {
        query.service == nil && query.account == nil && !expiredOnly && modifiedBefore == nil
            && servicePattern == nil && accountPattern == nil
    }
}

/// What `wipe` removed, or would remove in a dry run.
package struct WipeOutcome: Sendable {
    /// The items removed whose attributes could be read.
    package var removed: [ItemAttributes]
    /// Items of a wiped group that are bound to another device: removed unread.
    package var removedUnread: Int
    /// Items that might match but are bound to another device, so could not be read: kept.
    package var keptUnread: Int
    /// The groups that got a fresh key.
    package var rekeyedGroups: [AccessGroup]

    /// How many items were removed, read or not.
    package var removedCount: Int { removed.count + removedUnread }

    /// Nothing removed.
    package static let nothing = WipeOutcome(removed: [], removedUnread: 0, keptUnread: 0, rekeyedGroups: [])
}

extension WorkingCopy {
    /// Removes what `filter` selects (`wipeSelection`), keeping none in the trash; a filter of whole
    /// groups also gives each group a fresh key and empties its trash. Throws `changedSinceShown`,
    /// removing nothing, when `expecting` (what a dry run showed) is not what it would remove now.
    mutating func wipe(_ filter: WipeFilter, now: Date, progress: ProgressHandler?, expecting: [ItemAttributes]?) throws -> WipeOutcome {
        var (positions, outcome) = try wipeSelection(filter, now: now, progress: progress)
        if let expecting, expecting != outcome.removed { throw VaultError.changedSinceShown }
        remove(at: positions)
        if filter.selectsWholeGroups {
            for group in outcome.rekeyedGroups {
                guard let id = try groupID(for: group, creating: false) else { continue }
                // Starting a group over (a first-run wipe among them) really removes: its trash goes too.
                pending.trash.replaced[id] = []
                _ = try rotateGroupKey(id)
            }
        } else {
            outcome.rekeyedGroups = []
        }
        return outcome
    }
}

extension OpenVault {
    /// The positions `filter` selects and the outcome of removing them
    /// (`rekeyedGroups` lists every group in scope for a whole-group filter).
    func wipeSelection(_ filter: WipeFilter, now: Date, progress: ProgressHandler? = nil) throws -> (positions: [Int], outcome: WipeOutcome)
    {
        let groupIDs: [GroupID]
        if let group = filter.query.group {
            guard let id = keys.groupID(of: group) else { throw missingGroup(group) }
            groupIDs = [id]
        } else {
            groupIDs = file.groups.map(\.groupID).filter { keys.groups[$0] != nil }
        }
        let wanted = Set(groupIDs)
        var positions: [Int] = []
        var outcome = WipeOutcome(
            removed: [], removedUnread: 0, keptUnread: 0,
            rekeyedGroups: filter.selectsWholeGroups ? groupIDs.compactMap { keys.groups[$0]?.group } : [])
        for (position, entry) in file.index.enumerated() where wanted.contains(entry.groupID) {
            progress?(position + 1, file.index.count)
            let attributes: ItemAttributes
            do {
                attributes = try openRecord(at: position).attributes
            } catch VaultError.keys(.boundToAnotherDevice) {
                if filter.selectsWholeGroups {
                    positions.append(position)
                    outcome.removedUnread += 1
                } else {
                    outcome.keptUnread += 1
                }
                continue
            }
            guard filter.query.matches(attributes) else { continue }
            if filter.expiredOnly, !attributes.hasExpired(at: now) { continue }
            if let cutoff = filter.modifiedBefore, attributes.modified >= cutoff { continue }
            if let pattern = filter.servicePattern, !pattern.matches(attributes.service) { continue }
            if let pattern = filter.accountPattern, !pattern.matches(attributes.account) { continue }
            positions.append(position)
            outcome.removed.append(attributes)
        }
        return (positions, outcome)
    }
}
