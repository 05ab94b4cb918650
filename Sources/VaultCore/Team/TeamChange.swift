/// What one team log entry changed (its sealed payload after the salt): docs/FORMAT.md, "Team log".
enum TeamChange: Equatable {
    /// The vault made (or converted from a file without a log), with the members it then had.
    case created(roster: [Member])
    case memberAdded(Member)
    case memberRemoved(name: String, recipient: AgeRecipient)
    /// Every key replaced (`rekey`, a rotating `passwd`); `trustKeyReplaced` when the trust key went too.
    case rekeyed(trustKeyReplaced: Bool)
    /// A group's key replaced: `revoke`, a whole-group `wipe`, `verify --quarantine`.
    case groupKeyReplaced(GroupID)
    case groupDeleted(GroupID)
    /// Two branches of the log joined by the owner: the members that result.
    case joined(roster: [Member])
    /// The variable names a group's items may set when a job names none (nil: none, the job must
    /// name them). Also in clear in its entry, so readers without the wrap key fold it.
    case envNamesAllowed(GroupID, AllowedEnvNames?)

    /// Members, a recipient's text and up to 64 group ids each, in a roster.
    static let maxPayloadBytes = 16 + 4 + MemberSlot.maxMembers * MemberSlot.maxRosterPartBytes

    var kind: TeamLog.Entry.Kind {
        switch self {
        case .created: return .created
        case .memberAdded: return .memberAdded
        case .memberRemoved: return .memberRemoved
        case .rekeyed: return .rekeyed
        case .groupKeyReplaced: return .groupKeyReplaced
        case .groupDeleted: return .groupDeleted
        case .joined: return .joined
        case .envNamesAllowed: return .envNamesAllowed
        }
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        switch self {
        case .created(let roster), .joined(let roster):
            w.u8(UInt8(roster.count))
            for member in roster { w.lengthPrefixed(member.encodedRosterEntry()) }
        case .memberAdded(let member):
            w.lengthPrefixed(member.encodedRosterEntry())
        case .memberRemoved(let name, let recipient):
            w.lengthPrefixed(Array(name.utf8))
            w.raw(recipient.publicKey)
        case .rekeyed(let trustKeyReplaced):
            w.u8(trustKeyReplaced ? 1 : 0)
        case .groupKeyReplaced(let id), .groupDeleted(let id):
            w.groupID(id)
        case .envNamesAllowed(let id, let allowed):
            w.groupID(id)
            let text = Array((allowed?.text ?? "").utf8)
            w.u16(UInt16(text.count))
            w.raw(text)
        }
        return w.bytes
    }

    static func decode(_ kind: TeamLog.Entry.Kind, from r: inout ByteReader) throws -> TeamChange {
        func member() throws -> Member {
            var entry = ByteReader(Array(try r.lengthPrefixed(limit: MemberSlot.maxRosterPartBytes)))
            let member = try Member.decodeRosterEntry(from: &entry)
            guard entry.isAtEnd else { throw MalformedInput(.trailingBytes(after: .teamLogMember)) }
            return member
        }
        switch kind {
        case .created, .joined:
            let count = Int(try r.u8())
            guard count <= MemberSlot.maxMembers else { throw MalformedInput(.count(.rosterMembers, count)) }
            let roster = try (0..<count).map { _ in try member() }
            return kind == .created ? .created(roster: roster) : .joined(roster: roster)
        case .memberAdded:
            return .memberAdded(try member())
        case .memberRemoved:
            return .memberRemoved(name: try r.memberName(), recipient: AgeRecipient(publicKey: Array(try r.raw(32))))
        case .rekeyed:
            return .rekeyed(trustKeyReplaced: try r.flag())
        case .groupKeyReplaced:
            return .groupKeyReplaced(try r.groupID())
        case .groupDeleted:
            return .groupDeleted(try r.groupID())
        case .envNamesAllowed:
            let id = try r.groupID()
            let length = Int(try r.u16())
            guard length <= AllowedEnvNames.maxTextBytes else { throw MalformedInput(.violates(.malformedTeamLogPayload)) }
            let bytes = Array(try r.raw(length))
            if bytes.isEmpty { return .envNamesAllowed(id, nil) }
            let text = String(decoding: bytes, as: UTF8.self)
            guard Array(text.utf8) == bytes, let allowed = AllowedEnvNames(text: text), allowed.text == text else {
                throw MalformedInput(.violates(.malformedTeamLogPayload))
            }
            return .envNamesAllowed(id, allowed)
        }
    }
}

/// The team log folded up: who is a member, with what scope, at which key epoch.
struct TeamState: Equatable {
    var members: [Member] = []
    var keyEpoch: UInt64 = 0

    /// `change` applied. Throws `MalformedInput` for a change that does not fit the state: a
    /// member added twice (by name or recipient), one removed that is not a member, a roster
    /// that repeats one.
    func applying(_ change: TeamChange, at keyEpoch: UInt64) throws -> TeamState {
        var next = self
        next.keyEpoch = keyEpoch
        switch change {
        case .created(let roster), .joined(let roster):
            guard TeamState.isUnique(roster) else { throw MalformedInput(.violates(.rosterRepeatsMember)) }
            next.members = roster
        case .memberAdded(let member):
            next.members.append(member)
            guard TeamState.isUnique(next.members) else { throw MalformedInput(.violates(.entryAddsMemberTwice)) }
        case .memberRemoved(let name, let recipient):
            guard let at = next.members.firstIndex(where: { $0.name == name && $0.recipient == recipient }) else {
                throw MalformedInput(.violates(.entryRemovesNonMember))
            }
            next.members.remove(at: at)
        case .groupDeleted(let id):
            next.members = next.members.compactMap { member in
                guard case .groups(let ids, let readOnly) = member.scope else { return member }
                let remaining = ids.filter { $0 != id }
                guard !remaining.isEmpty else { return nil }
                var kept = member
                kept.scope = .groups(remaining, readOnly: readOnly)
                return kept
            }
        case .rekeyed, .groupKeyReplaced, .envNamesAllowed:
            break
        }
        return next
    }

    static func isUnique(_ members: [Member]) -> Bool {
        Set(members.map(\.name)).count == members.count && Set(members.map(\.recipient)).count == members.count
    }
}

extension TeamLog {
    /// The state at each entry (by hash), each from its first parent's (a join's from its roster).
    /// The payloads must be open. Throws `MalformedInput` for a change that does not fit.
    func states() throws -> [[UInt8]: TeamState] {
        var states: [[UInt8]: TeamState] = [:]
        for (index, change) in try changes().enumerated() {
            let entry = entries[index]
            let before = states[entry.parents[0]] ?? TeamState()
            states[hashes[index]] = try before.applying(change, at: entry.keyEpoch)
        }
        return states
    }

    /// The state at the head: the vault's members and key epoch.
    func state() throws -> TeamState {
        try states()[head] ?? TeamState()
    }

    /// The changes of the entries this log holds and `other` lacks, in log order: what was done on
    /// this side that `other` has not seen, on every branch a join brought in (a join lists its
    /// parents by hash, so no one parent is "this side's").
    func changes(notIn other: TeamLog) throws -> [TeamChange] {
        let all = try changes(), known = Set(other.hashes)
        return hashes.indices.filter { !known.contains(hashes[$0]) }.map { all[$0] }
    }
}
