import Foundation
@testable import VaultCore
import VaultCrypto

/// One world of `GroupAuthorityPropertyTests`: clones of one vault file (each a file of its own, at a
/// location of its own, so each keeps its own seen counters), written by the owner and merged by the
/// owner or a full member. The test runs two worlds from the same first file through the same steps;
/// only the attacked one also takes what a writer of the attacker's group forges.
final class GroupAuthorityWorld {
    /// One clone: its owner's view, a full member's view, and its merge base with each other clone
    /// (what git would hand: the other's file as this one last merged it, or the first file).
    final class Clone {
        let directory: TempDirectory
        let owner: Vault
        let member: Vault
        var bases: [Int: [UInt8]] = [:]
        var location: VaultLocation { owner.location }
        var bytes: [UInt8] { fileBytes(location.path) }

        init(bytes: [UInt8], clock: TestClock, identity: AgeIdentity, trust: String) throws {
            directory = try TempDirectory()
            let location = directory.location("team.vault")
            writeBytes(bytes, to: location.path)
            owner = Vault(location: location, credential: testKeyFile, clock: { clock.now }).reconfigured { $0.acceptTeamLog = true }
            var host = Vault.selfContainedHost(for: location)
            host.now = { clock.now }
            member = Vault(
                location: location, keys: .identity([identity]), host: host,
                configuration: Vault.Configuration(trustedFingerprint: trust)
            ).reconfigured { $0.acceptTeamLog = true }
        }
    }

    let attacked: Bool
    let attacker: AccessGroup
    let clones: [Clone]

    init(first: [UInt8], clones count: Int, attacker: AccessGroup, attacked: Bool, clock: TestClock, identity: AgeIdentity, trust: String)
        throws
    {
        self.attacked = attacked
        self.attacker = attacker
        clones = try (0..<count).map { _ in try Clone(bytes: first, clock: clock, identity: identity, trust: trust) }
        for (index, clone) in clones.enumerated() {
            for other in clones.indices where other != index { clone.bases[other] = first }
        }
    }

    /// Merges clone `theirs` into clone `ours` (by the full member when `byMember`), against their
    /// base or none; on success the two have `theirs`'s file as their base from now on.
    func merge(_ ours: Int, _ theirs: Int, byMember: Bool, withBase: Bool) throws {
        let their = clones[theirs].bytes
        let merging = byMember ? clones[ours].member : clones[ours].owner
        _ = try merging.merge(
            base: withBase ? clones[ours].bases[theirs] : nil, theirs: their,
            origins: ("clone\(ours)", "clone\(theirs)"), kdf: .testing
        ) { _ in }
        clones[ours].bases[theirs] = their
        clones[theirs].bases[ours] = their
    }

    /// Resolves every conflict of items of `group` in clone `index` taking the other version.
    func resolveAll(in group: AccessGroup, clone index: Int) throws {
        let vault = clones[index].owner
        for summary in try vault.conflicts() where summary.attributes.group == group {
            let key = summary.attributes
            try vault.resolve(
                matching: Query(service: key.service, account: key.account, group: key.group), keeping: summary.currentSide.other)
        }
    }

    /// Removes from clone `index` the records of the attacker's group, listed or trashed, that do not
    /// open whole with the owner's keys (a forgery the fix refuses as damage), leaving no tombstone:
    /// the team drops them.
    func dropDamagedRecordsOfTheAttacker(clone index: Int) throws {
        let attacker = self.attacker
        try clones[index].owner.transaction { wc in
            let damaged = wc.file.index.indices.filter { position in
                wc.keys.groups[wc.file.index[position].groupID]?.group == attacker && (try? wc.openWholeRecord(at: position)) == nil
            }
            wc.remove(at: damaged, leavingTombstones: false)
            guard let groupID = wc.keys.groupID(of: attacker), wc.trashBlock(of: groupID) != nil else { return }
            let trash = try wc.trash(of: groupID)
            let opening = trash.compactMap { try? wc.openTrashed($0, of: groupID) }
            if opening.count < trash.count { wc.pending.trash.replaced[groupID] = opening }
        }
    }

    /// What clone `index` holds of every group but the attacker's, as the owner reads it: each item
    /// with its secret, earlier secrets and conflicts; each conflict version of such a group (in
    /// whatever record it sits); each trashed item. Sorted lines, equal between the two worlds when
    /// the attacker changed nothing of those groups. `failing` lists the records (by group) whose
    /// whole open failed, `failingTrash` the groups whose trash holds one: an attacker's record may
    /// fail, in the attacked world, after the fix.
    func protectedState(clone index: Int) throws -> (lines: [String], failing: [String], failingTrash: Set<String>) {
        let vault = clones[index].owner
        let attacker = self.attacker
        return try vault.withKeys {
            let snapshot = try vault.readSnapshot()
            var lines: [String] = [], failing: [String] = [], failingTrash = Set<String>()
            // The damage, not the error's words: those name the clone's path.
            func why(_ error: Error) -> String {
                if case VaultError.snapshot(.corrupted(_, let detail)) = error { "\(detail)" } else { "\(error)" }
            }
            func describe(_ item: Item?) -> String {
                guard let item else { return "deleted" }
                let a = item.attributes
                return "\(a.group.name)/\(a.service)/\(a.account) [\(a.accessibility.rawValue)] = \(item.secret.text)"
            }
            func describe(_ record: OpenedRecord, as kind: String) {
                let attributes = record.item.attributes
                if attributes.group != attacker {
                    // A conflict that records a deletion holds no value, and whether a merge keeps one
                    // beside an item of the same name added again depends on the index's order (random
                    // lookup tags after a revoke): the versions are compared, not those markers.
                    // So is a version equal to the item as it reads: it tells nothing the item does not.
                    let versions = record.conflicts.filter { conflict in
                        (conflict.other != nil || conflict.otherIsSealedElsewhere) && describe(conflict.other) != describe(record.item)
                    }
                    lines.append(
                        "\(kind) \(describe(record.item)); history \(record.history.map(\.secret.text)); "
                            + "conflicts \(versions.map { "\($0.currentSide) \($0.origin) \(describe($0.other))\($0.otherIsSealedElsewhere ? " (sealed elsewhere)" : "")" })"
                    )
                }
                for conflict in record.conflicts {
                    if let other = conflict.other, other.attributes.group != attacker, attributes.group == attacker {
                        lines.append(
                            "a version of \(other.attributes.group.name) in \(kind) \(attributes.group.name)/\(attributes.service)/\(attributes.account): \(describe(other))"
                        )
                    }
                }
            }
            for position in snapshot.file.index.indices {
                let group = snapshot.keys.groups[snapshot.file.index[position].groupID]?.group.name ?? "?"
                do {
                    describe(try snapshot.openWholeRecord(at: position), as: "item")
                } catch {
                    failing.append("a record of \(group): \(why(error))")
                    if group != attacker.name { lines.append("a record of \(group) does not open: \(why(error))") }
                }
            }
            for entry in snapshot.file.groups where snapshot.trashBlock(of: entry.groupID) != nil {
                guard let group = snapshot.keys.groups[entry.groupID]?.group else { continue }
                do {
                    for trashed in try snapshot.trash(of: entry.groupID) {
                        let record = try snapshot.openTrashed(trashed, of: entry.groupID)
                        describe(record.record, as: "trashed at \(record.deletedAt)")
                    }
                } catch {
                    failingTrash.insert(group.name)
                    if group != attacker { lines.append("the trash of \(group.name) does not open: \(why(error))") }
                }
            }
            return (lines.sorted(), failing, failingTrash)
        }
    }
}
