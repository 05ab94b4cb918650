import Foundation
import Testing
import VaultTestSupport

/// The group steps of the convergence run (issue 47): an item moved into another group
/// (`rename --to-group`), by a writer or an owner machine; a group revoked and the group tmp deleted,
/// by an owner machine. A move is a write that removes the item's name in one group and sets it in
/// another; a group deletion one write per item of tmp the clone listed, each dropping what it showed.
extension TeamConvergenceTests.Run {
    /// The groups items move between: the pool's, and tmp, which only moves fill and an owner deletes.
    static let movableGroups = ["default", "ci", "tmp"]

    /// `rename --to-group` of an item the clone lists into another group.
    func moveToAnotherGroup(_ m: TeamConvergenceTests.Member) throws {
        let p = m.person
        let listed = try p.vault(["list", "--json"])
        let keys = Self.keys(listed)
        guard listed.status == 0, !keys.isEmpty else {
            logged(m, "list --json (to move an item)", listed)
            if listed.status != 0 { try judgeItemChange(m, "list --json", listed) }
            return
        }
        let key = keys[pick(keys.count)]
        let others = Self.movableGroups.filter { $0 != key.group }
        let target = TeamConvergenceTests.Key(group: others[pick(others.count)], service: key.service, account: key.account)
        let at = ["-s", key.service, "-a", key.account, "--group", key.group]
        let get = try p.vault(["get"] + at)
        guard get.status == 0 else {
            logged(m, "get \(key) (to move it)", get)
            try judgeItemChange(m, "get \(key)", get)
            return
        }
        let result = try p.vault(["rename"] + at + ["--to-group", target.group])
        logged(m, "rename \(key) --to-group \(target.group) (its secret \(get.stdoutText))", result)
        count("moves into another group")
        try judgeItemChange(m, "rename \(key) --to-group \(target.group)", result)
        if result.status == 0 { record(m, removes: key, sets: (target, get.stdoutText)) }
    }

    /// An owner machine revokes a group (its items re-sealed under a fresh key), or deletes tmp with its items.
    func groupChange(_ owner: TeamConvergenceTests.Member) throws {
        let p = owner.person
        if chance(70) {
            let group = Self.movableGroups[pick(Self.movableGroups.count)]
            let result = try p.vault(["revoke", "--group", group])
            logged(owner, "revoke --group \(group)", result)
            count("revokes")
            try judgeGroupChange(owner, "revoke --group \(group)", result)
            return
        }
        let listed = try p.vault(["list", "--group", "tmp", "--json"])
        let keys = listed.status == 0 ? Self.keys(listed) : []
        let shown = try keys.map { try shownSecrets(p, $0) }
        let result = try p.vault(["group", "delete", "tmp", "--yes"])
        logged(owner, "group delete tmp (holding \(keys))", result)
        count("group deletions")
        try judgeGroupChange(owner, "group delete tmp", result)
        guard result.status == 0 else { return }
        for (key, secrets) in zip(keys, shown) { record(owner, removes: key, sets: nil, dropped: secrets) }
    }

    /// Exit codes a group change by an owner machine may end with: 0, no such group (44), or 2 while git holds a merge.
    func judgeGroupChange(_ owner: TeamConvergenceTests.Member, _ what: String, _ result: RunResult) throws {
        switch result.status {
        case 0, 44: return
        case 2 where try mergeInProgress(owner): count("group changes refused during a merge")
        case 49 where refusedAsRollback(result): return
        default: problem("\(owner.name): \(what) exited \(result.status): \(result.stderr)")
        }
    }
}
