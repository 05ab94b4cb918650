import FoundationEssentials
import VaultCrypto

// The members as a read finds them: the team log folded up, or a v2 file's slot rosters.
extension OpenVault {
    /// The members: in format v3 the team log folded up, which the slots' roster parts must match
    /// (`checkSlotsAgainstLog`); in v2 the roster parts. Needs the wrap key (the owner or a full
    /// member). Throws `corrupted` when a part or the log does not open or parse, or two members
    /// share a name or recipient. The roster opening kept, else folded now and not kept (a working
    /// copy keeps what it folds: `WorkingCopy.members()`).
    func readMembers() throws -> [Member] {
        if let roster { return roster }
        return try foldMembers().members
    }

    /// The members as folded now, with the team log whose payloads the fold opened (v3).
    func foldMembers() throws -> (members: [Member], openedLog: TeamLog?) {
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        do {
            if file.hasTeamLog {
                let log = try openedTeamLog()
                return (try log.state().members, log)
            }
            return (try slotRosters(wrapKey: wrapKey), nil)
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
    }

    /// What the member slots' roster parts say.
    func slotRosters(wrapKey: WrapKey) throws -> [Member] {
        let members = try file.members.map { try $0.roster(wrapKey: wrapKey, vaultID: file.vaultID) }
        guard TeamState.isUnique(members) else { throw MalformedInput(.violates(.repeatedMemberSlot)) }
        return members
    }

    /// The file's team log with its payloads opened (the wrap key's).
    func openedTeamLog() throws -> TeamLog {
        guard var log = file.teamLog else { throw VaultError.corrupted(path: path, detail: .violates(.noTeamLog)) }
        guard let wrapKey = keys.wrapKey else { throw VaultError.locked(nil) }
        do {
            try log.openPayloads(wrapKey: wrapKey)
        } catch let error as MalformedInput {
            throw VaultError.corrupted(path: path, detail: error.damage)
        }
        return log
    }

    /// Whether the team log says a member of this name or recipient was removed (no log: no).
    func teamLogRemovedMember(name: String, recipient: AgeRecipient) throws -> Bool {
        guard file.hasTeamLog else { return false }
        return try openedTeamLog().changes().contains { change in
            guard case .memberRemoved(let removedName, let removedRecipient) = change else { return false }
            return removedName == name || removedRecipient == recipient
        }
    }
}
