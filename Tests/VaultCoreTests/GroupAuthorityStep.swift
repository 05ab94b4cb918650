import Foundation
@testable import VaultCore
import VaultCrypto

/// One step of `GroupAuthorityPropertyTests`, chosen once and taken in both worlds. Only the forgeries
/// act on the attacked world alone (the clean one takes them as nothing); a choice among items is
/// made by name in the clean world, or by a number each world reads against what it holds.
enum GroupAuthorityStep: CustomStringConvertible {
    enum Write: String { case set, delete, undelete, rename }

    /// The owner sets, deletes to the trash, undeletes or renames the item `service` of `group`.
    case write(clone: Int, group: String, Write, service: String, to: String, value: String)
    /// The owner moves the item `service` of `from` into `to`.
    case move(clone: Int, service: String, from: String, to: String)
    case revoke(clone: Int, group: String)
    /// `wipe --trash`: every group's trash emptied for good.
    case wipeTrash(clone: Int)
    case merge(ours: Int, theirs: Int, byMember: Bool, withBase: Bool)
    /// The owner resolves the `pick`th conflict of an item outside ci (by name, as the clean world lists
    /// them), taking the other version or keeping the current one.
    case resolve(clone: Int, pick: Int, takeOther: Bool)
    /// The owner resolves every conflict of ci's items taking the other version.
    case resolveTheAttackersConflicts(clone: Int)
    /// ci's writer adds to ci's tombstones one naming the `pick`th item of `victim` as clone `from` holds it.
    case forgeTombstone(clone: Int, victim: String, pick: Int, from: Int)
    /// ci's writer seals its `pick`th item again with a conflict version, inline, of `group` and `accessibility`.
    case forgeConflict(clone: Int, pick: Int, group: String, accessibility: Accessibility)

    typealias Walk = GroupAuthorityPropertyTests.Walk

    static func random(attack: GroupAuthorityPropertyTests.Attack, walk: Walk) -> GroupAuthorityStep {
        let groups = GroupAuthorityPropertyTests.groups, services = GroupAuthorityPropertyTests.services
        let clone = walk.pick(GroupAuthorityPropertyTests.clones)
        let protected = groups.filter { $0 != GroupAuthorityPropertyTests.attacker.name }
        let roll = walk.pick(100)
        switch roll {
        case ..<30:
            let action = [Write.set, .set, .set, .delete, .delete, .undelete, .rename, .rename][walk.pick(8)]
            return .write(
                clone: clone, group: groups[walk.pick(groups.count)], action, service: services[walk.pick(services.count)],
                to: services[walk.pick(services.count)], value: "v\(walk.step)")
        case ..<38:
            return .move(
                clone: clone, service: services[walk.pick(services.count)], from: protected[walk.pick(protected.count)],
                to: protected[walk.pick(protected.count)])
        case ..<45: return .revoke(clone: clone, group: groups[walk.pick(groups.count)])
        case ..<48: return .wipeTrash(clone: clone)
        case ..<76:
            let theirs = (clone + 1 + walk.pick(GroupAuthorityPropertyTests.clones - 1)) % GroupAuthorityPropertyTests.clones
            return .merge(ours: clone, theirs: theirs, byMember: walk.pick(3) == 0, withBase: walk.pick(5) != 0)
        case ..<82: return .resolve(clone: clone, pick: walk.pick(64), takeOther: walk.pick(2) == 0)
        case ..<86: return .resolveTheAttackersConflicts(clone: clone)
        default:
            // The forgeries of the attack under test; the same numbers drawn whatever it is, so a seed
            // makes the same team work under every attack.
            let victim = protected[walk.pick(protected.count)], pick = walk.pick(64), from = walk.pick(GroupAuthorityPropertyTests.clones)
            let classes: [Accessibility] = [.whenUnlocked, .afterFirstUnlock, .always]
            let named = groups[walk.pick(groups.count)], accessibility = classes[walk.pick(classes.count)]
            switch attack {
            case .none: return .resolveTheAttackersConflicts(clone: clone)
            case .tombstones: return .forgeTombstone(clone: clone, victim: victim, pick: pick, from: from)
            case .conflicts:
                // A version of ci's own group and class is what a merge writes: one of another is the forgery.
                if named == GroupAuthorityPropertyTests.attacker.name && accessibility == .default {
                    return .forgeConflict(clone: clone, pick: pick, group: victim, accessibility: accessibility)
                }
                return .forgeConflict(clone: clone, pick: pick, group: named, accessibility: accessibility)
            }
        }
    }

    /// The clones the step reads or writes.
    var clones: [Int] {
        switch self {
        case .write(let clone, _, _, _, _, _), .move(let clone, _, _, _), .revoke(let clone, _),
            .wipeTrash(let clone), .resolve(let clone, _, _), .resolveTheAttackersConflicts(let clone), .forgeConflict(let clone, _, _, _):
            return [clone]
        case .merge(let ours, let theirs, _, _): return [ours, theirs]
        case .forgeTombstone(let clone, _, _, let from): return clone == from ? [clone] : [clone, from]
        }
    }

    /// Whether only ci's items can differ by it between the worlds (so its outcomes may differ too).
    var changesOnlyTheAttackersGroup: Bool {
        let attacker = GroupAuthorityPropertyTests.attacker.name
        switch self {
        case .write(_, let group, _, _, _, _), .revoke(_, let group): return group == attacker
        case .resolveTheAttackersConflicts, .forgeTombstone, .forgeConflict: return true
        default: return false
        }
    }

    var description: String {
        switch self {
        case .write(let clone, let group, let action, let service, let to, let value):
            let what =
                action == .set
                ? "set \(group)/\(service) = \(value)"
                : action == .rename ? "rename \(group)/\(service) to \(to)" : "\(action) \(group)/\(service)"
            return "clone \(clone): \(what)"
        case .move(let clone, let service, let from, let to): return "clone \(clone): move \(from)/\(service) into \(to)"
        case .revoke(let clone, let group): return "clone \(clone): revoke \(group)"
        case .wipeTrash(let clone): return "clone \(clone): wipe --trash"
        case .merge(let ours, let theirs, let byMember, let withBase):
            return "clone \(ours) merges clone \(theirs)\(byMember ? " (the full member)" : "")\(withBase ? "" : " without a base")"
        case .resolve(let clone, let pick, let takeOther):
            return "clone \(clone): resolve conflict #\(pick) \(takeOther ? "taking the other version" : "keeping the current one")"
        case .resolveTheAttackersConflicts(let clone): return "clone \(clone): resolve every conflict of ci taking the other version"
        case .forgeTombstone(let clone, let victim, let pick, let from):
            return "clone \(clone): ci's writer forges a tombstone naming \(victim)'s item #\(pick) of clone \(from)"
        case .forgeConflict(let clone, let pick, let group, let accessibility):
            return "clone \(clone): ci's writer forges on its item #\(pick) a conflict version of \(group) [\(accessibility.rawValue)]"
        }
    }

    /// Takes the step in `world`: done, or the status it was refused with.
    func take(in world: GroupAuthorityWorld, walk: Walk) -> StepOutcome {
        do {
            try perform(in: world, walk: walk)
            return .done
        } catch let error as VaultError {
            return .failed(error.status, "\(error)")
        } catch {
            return .failed(.failure, "\(error)")
        }
    }

    private func perform(in world: GroupAuthorityWorld, walk: Walk) throws {
        let account = GroupAuthorityPropertyTests.account
        func query(_ group: String, _ service: String) -> Query { Query(service: service, account: account, group: AccessGroup(group)!) }
        switch self {
        case .write(let clone, let group, let action, let service, let to, let value):
            let vault = world.clones[clone].owner
            switch action {
            case .set:
                if try vault.attributes(matching: query(group, service)).isEmpty {
                    try vault.add(service, account, value, group: AccessGroup(group)!)
                } else {
                    _ = try vault.update(matching: query(group, service), with: ItemChange(secret: SecretBytes(Array(value.utf8))))
                }
            case .delete: _ = try vault.delete(matching: query(group, service))
            case .undelete: try vault.undelete(matching: query(group, service))
            case .rename: _ = try vault.move(matching: query(group, service), toService: to)
            }
        case .move(let clone, let service, let from, let to):
            _ = try world.clones[clone].owner.move(matching: query(from, service), toGroup: AccessGroup(to)!)
        case .revoke(let clone, let group):
            try world.clones[clone].owner.revoke(group: AccessGroup(group)!)
        case .wipeTrash(let clone):
            try world.clones[clone].owner.emptyTrash(group: nil)
        case .merge(let ours, let theirs, let byMember, let withBase):
            try world.merge(ours, theirs, byMember: byMember, withBase: withBase)
        case .resolve(let clone, let pick, let takeOther):
            // The clean world's list names the conflict: the attacked one's may hold ci's forgeries besides.
            let listed = try walk.clean.clones[clone].owner.conflicts().filter { $0.attributes.group != world.attacker }
                .sorted { ($0.attributes.group.name, $0.attributes.service) < ($1.attributes.group.name, $1.attributes.service) }
            guard !listed.isEmpty else { return }
            let chosen = listed[pick % listed.count]
            let side = takeOther ? chosen.currentSide.other : chosen.currentSide
            try world.clones[clone].owner.resolve(
                matching: Query(
                    service: chosen.attributes.service, account: chosen.attributes.account,
                    group: chosen.attributes.group), keeping: side)
        case .resolveTheAttackersConflicts(let clone):
            try world.resolveAll(in: world.attacker, clone: clone)
        case .forgeTombstone(let clone, let victim, let pick, let from):
            guard world.attacked else { return }
            // Items of other groups the forging clone lacks first (added elsewhere, or deleted here), as any
            // clone holds them: a tombstone counts where its side lacks the item and the other holds the
            // revision it names. Else `victim`'s items as clone `from` holds them.
            let held = Set(try GroupWriterForgery.indexEntries(of: world.clones[clone].owner).values.map(\.itemID))
            var lacking: [(key: ItemKey, value: (itemID: Bytes16, recordDigest: [UInt8]))] = []
            for other in world.clones.indices where other != clone {
                lacking += try GroupWriterForgery.indexEntries(of: world.clones[other].owner)
                    .filter { $0.key.group != world.attacker && !held.contains($0.value.itemID) }
                    .sorted { ($0.key.group.name, $0.key.service) < ($1.key.group.name, $1.key.service) }
            }
            let victims =
                lacking.isEmpty
                ? try GroupWriterForgery.indexEntries(of: world.clones[from].owner, group: AccessGroup(victim)!).sorted {
                    $0.key.service < $1.key.service
                }
                : lacking
            guard !victims.isEmpty else { return }
            let named = victims[pick % victims.count].value
            try GroupWriterForgery.tombstone(
                in: world.clones[clone].owner, group: world.attacker, naming: named.itemID, recordDigest: named.recordDigest)
        case .forgeConflict(let clone, let pick, let group, let accessibility):
            guard world.attacked else { return }
            let own = try world.clones[clone].owner.attributes(matching: Query(group: world.attacker)).sorted { $0.service < $1.service }
            guard !own.isEmpty else { return }
            let services = GroupAuthorityPropertyTests.services
            try GroupWriterForgery.conflict(
                in: world.clones[clone].owner, on: own[pick % own.count].key, naming: AccessGroup(group)!,
                accessibility: accessibility, service: services[pick % services.count], secret: "forged-\(walk.step)")
        }
    }
}
