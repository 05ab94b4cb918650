/// What the team logs of a merge's two sides decide (docs/TEAMS.md, "How a merge works"): which
/// side's header the result is written on, whether the owner must join two diverged logs, and
/// which of each side's changes may be a removed member's and so are kept as conflicts.
struct MergePlan {
    /// The side whose keys and header the result is written on: the one whose log descends from
    /// the other's (ours when they are the same, or diverged and joined).
    let target: MergeSide
    /// Whether neither log descends from the other: only the owner joins them.
    let needsJoin: Bool
    /// The vault file the merge writes, which a log that does not fold is damage of.
    private let path: String
    private let ourLog: TeamLog?
    private let theirLog: TeamLog?
    /// Group ids to names, from both sides' keys.
    private let groupNames: [GroupID: AccessGroup]
    /// Per side, whether it has no log (a file of the layout before the team log) while the other has
    /// one or is at a higher key epoch: every change it made is kept as a conflict.
    private let predatesOther: [MergeSide: Bool]

    init(ours: inout WorkingCopy, theirs: inout WorkingCopy) throws {
        path = ours.path
        ourLog = ours.file.hasTeamLog ? try ours.openTeamLog() : nil
        theirLog = theirs.file.hasTeamLog ? try theirs.openTeamLog() : nil
        var names: [GroupID: AccessGroup] = [:]
        for side in [theirs, ours] { for (id, keys) in side.keys.groups { names[id] = keys.group } }
        groupNames = names
        switch (ourLog, theirLog) {
        case let (mine?, other?):
            let theirsDescends = other.descends(from: mine) && other.head != mine.head
            target = theirsDescends ? .theirs : .ours
            needsJoin = !theirsDescends && !mine.descends(from: other)
            predatesOther = [.ours: false, .theirs: false]
        case (nil, nil):
            // Two files from before the team log: the one at the higher key epoch is written on, and what the
            // other changed is kept as conflicts (it may be from before a removal that file made).
            target = theirs.file.keyEpoch > ours.file.keyEpoch ? .theirs : .ours
            needsJoin = false
            let lower = ours.file.keyEpoch == theirs.file.keyEpoch ? nil : target.other
            predatesOther = [.ours: lower == .ours, .theirs: lower == .theirs]
        default:
            target = ourLog != nil ? .ours : .theirs
            needsJoin = false
            predatesOther = [target: false, target.other: true]
        }
    }

    private func log(_ side: MergeSide) -> TeamLog? { side == .ours ? ourLog : theirLog }

    /// The owner's join of the two logs.
    func join() throws -> TeamLog.Join {
        guard let ourLog, let theirLog else { preconditionFailure("only two logs are joined") }
        return try MergePlan.readingLogs(of: path) { try ourLog.joined(with: theirLog) }
    }

    /// `body`, a log that does not fold (opened already, so damage found only now) being damage of
    /// the vault file at `path` (93).
    static func readingLogs<T>(of path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
    }

    /// What `side`'s log holds and the other side's lacks, on every branch (all of it when they share none).
    private func changes(of side: MergeSide) throws -> [TeamChange] {
        guard let mine = log(side), let other = log(side.other) else { return [] }
        return try MergePlan.readingLogs(of: path) { try mine.changes(notIn: other) }
    }

    /// The groups either side's log deleted: a merge brings back none of their items or keys.
    func deletedGroups() throws -> Set<GroupID> {
        var deleted = Set<GroupID>()
        for log in [ourLog, theirLog].compactMap({ $0 }) {
            for change in try MergePlan.readingLogs(of: path, { try log.changes() }) {
                if case .groupDeleted(let id) = change { deleted.insert(id) }
            }
        }
        return deleted
    }

    /// The changes of the side that is not the target, since the logs diverged: what the join must make again.
    func otherBranchChanges() throws -> [TeamChange] {
        try changes(of: target.other)
    }

    /// The other branch's entries, for the owner to review before signing the join.
    func entriesToReview() throws -> [TeamLogReview.Entry] {
        try changes(of: .theirs).map(reviewed)
    }

    private func reviewed(_ change: TeamChange) -> TeamLogReview.Entry {
        switch change {
        case .created(let roster): return .created(memberCount: roster.count)
        case .memberAdded(let member): return .memberAdded(TeamLogReview.ReviewedMember(member))
        case .memberRemoved(let name, let recipient): return .memberRemoved(name: name, recipient: recipient.description)
        case .rekeyed(let trustKeyReplaced): return .rekeyed(trustKeyReplaced: trustKeyReplaced)
        case .groupKeyReplaced(let id): return .groupKeyReplaced(groupNames[id])
        case .groupDeleted(let id): return .groupDeleted(groupNames[id])
        case .joined(let roster): return .joined(memberCount: roster.count)
        case .envNamesAllowed(let id, let allowed): return .envNamesAllowed(groupNames[id], allowed?.text)
        }
    }

    /// Per side, the groups whose changes from that side are kept as conflicts, not applied (nil: every
    /// group): the side lacks a removal or revoke the other side's log holds, so its changes there may be
    /// the removed member's or the revoked credential's — a full member's removal takes every group. A
    /// side from before the team log (`predatesOther`) has every change kept.
    func supersededGroups() throws -> [MergeSide: Set<AccessGroup>?] {
        var result: [MergeSide: Set<AccessGroup>?] = [:]
        for side in [MergeSide.ours, .theirs] {
            if predatesOther[side] == true {
                result[side] = .some(nil)
                continue
            }
            // What the other side did that this side did not see.
            let unseen = try changes(of: side.other)
            let scopes = try membersBefore(side)
            var groups = Set<AccessGroup>()
            var everyGroup = false
            for change in unseen {
                switch change {
                case .memberRemoved(_, let recipient):
                    switch scopes.first(where: { $0.recipient == recipient })?.scope {
                    case .full?, nil: everyGroup = true
                    case .groups(let ids, let readOnly)?:
                        if !readOnly { groups.formUnion(ids.compactMap { groupNames[$0] }) }
                    }
                case .groupKeyReplaced(let id):
                    if let name = groupNames[id] { groups.insert(name) }
                default:
                    break
                }
            }
            result[side] = everyGroup ? .some(nil) : .some(groups)
        }
        return result
    }

    /// The members `side` knew of: its log's state (a removed member's scope is looked up here).
    private func membersBefore(_ side: MergeSide) throws -> [Member] {
        guard let log = log(side) else { return [] }
        return try MergePlan.readingLogs(of: path) { try log.state().members }
    }
}
