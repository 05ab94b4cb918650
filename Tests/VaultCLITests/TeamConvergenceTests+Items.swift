import Foundation
import Testing
import VaultTestSupport

/// The item changes of a convergence run (add, update, delete, rename, resolve), each recorded as a
/// write with what its author's clone held, and the exit codes they may end with.
extension TeamConvergenceTests.Run {
    /// Whether the clone's file is one that lacks this person (it fast-forwarded onto its own removal).
    func removedInOwnFile(_ m: Member) throws -> Bool {
        guard try m.person.git(["status", "--porcelain", "--", "team.vault"]).stdoutText.isEmpty else { return false }
        // HEAD is a commit of the remote's when the clone fast-forwarded; any other is not that case.
        guard let seen = try? audit(try head(m)) else { return false }
        return seen.roster[m.name] == nil
    }

    /// Exit codes an item change may legitimately end with: 0, not found (44), taken (45), or 2 while git holds a merge.
    func judgeItemChange(_ m: Member, _ what: String, _ result: RunResult) throws {
        switch result.status {
        case 0, 44, 45: return
        case 2 where try mergeInProgress(m) && result.stderr.contains("vault sync"): count("writes refused during a merge"); return
        case 51 where try removedInOwnFile(m): count("changes refused to removed members"); return
        case 49 where refusedAsRollback(result): return
        default: problem("\(m.name): \(what) exited \(result.status): \(result.stderr)")
        }
    }

    /// A change refused as older than this machine saw, after a plain push put older items back on the
    /// remote (or the person put them back): what docs/SECURITY.md says of a whole-file rollback, not a finding.
    /// `putBackHere`: the person itself put an older file back (its machine saw the newer one).
    func refusedAsRollback(_ result: RunResult, putBackHere: Bool = false) -> Bool {
        guard itemsPutBack || putBackHere, result.status == 49,
            result.stderr.contains("is behind what this machine has seen") || result.stderr.contains("is a sibling of the version")
        else { return false }
        count("changes refused after older items were pushed back")
        return true
    }

    /// `acknowledgeable`: false for a write no sync of its author can acknowledge (a file that drops
    /// team log entries, pushed with plain git, which vault refuses to write on).
    func record(_ m: Member, removes: Key?, sets: (Key, String)?, dropped: Set<String> = [], acknowledgeable: Bool = true) {
        let write = Write(
            id: writes.count, author: m.name, step: step, removes: removes, sets: sets.map { (key: $0.0, value: $0.1) },
            knows: m.knows, eligible: !m.out && acknowledgeable, dropped: dropped)
        writes.append(write)
        m.knows.insert(write.id)
        if write.eligible { m.pending.append(write.id) }
        let never = m.out ? " (made after \(m.name)'s removal: never acknowledged)" : " (on a file vault refuses: never acknowledged)"
        note("  = \(write)\(dropped.isEmpty ? "" : ", dropping \(dropped.sorted())")\(write.eligible ? "" : never)")
        count("item changes")
    }

    func itemChange(_ m: Member) throws {
        let group = m.role == .scoped || chance(35) ? "ci" : "default"
        let names = Self.pool[group]!
        let key = Key(group: group, service: names[pick(names.count)], account: Self.account)
        let at = ["-s", key.service, "-a", key.account, "--group", key.group]
        let roll = pick(100)
        let p = m.person
        if roll < 45 {
            let value = "s\(step)-\(m.name)"
            var result = try p.vault(["add"] + at + ["-w", value])
            logged(m, "add \(key) = \(value)", result)
            if result.status == 45 {
                result = try p.vault(["update"] + at + ["-w", value])
                logged(m, "update \(key) = \(value)", result)
            }
            try judgeItemChange(m, "add/update \(key)", result)
            if result.status == 0 { record(m, removes: nil, sets: (key, value)) }
        } else if roll < 65 {
            let shown = try shownSecrets(p, key)
            let result = try p.vault(["delete"] + at)
            logged(m, "delete \(key)", result)
            try judgeItemChange(m, "delete \(key)", result)
            if result.status == 0 { record(m, removes: key, sets: nil, dropped: shown) }
        } else if roll < 78 {
            let others = names.filter { $0 != key.service }
            let target = Key(group: group, service: others[pick(others.count)], account: Self.account)
            let get = try p.vault(["get"] + at)
            guard get.status == 0 else {
                logged(m, "get \(key) (to rename it)", get)
                try judgeItemChange(m, "get \(key)", get)
                return
            }
            let result = try p.vault(["rename"] + at + ["--to-service", target.service])
            logged(m, "rename \(key) → \(target) (its secret \(get.stdoutText))", result)
            try judgeItemChange(m, "rename \(key) to \(target)", result)
            if result.status == 0 { record(m, removes: key, sets: (target, get.stdoutText)) }
        } else if roll < 88, m.role != .scoped {
            try moveToAnotherGroup(m)
        } else {
            // Resolve one of the conflicts this clone holds, either way.
            let listed = try p.vault(["conflicts", "--json"])
            let keys = Self.keys(listed)
            guard listed.status == 0, !keys.isEmpty else {
                logged(m, "conflicts --json (to resolve one)", listed)
                if listed.status != 0 { try judgeItemChange(m, "conflicts --json", listed) }
                return
            }
            let chosen = keys[pick(keys.count)]
            let side = chance(50) ? "--ours" : "--theirs"
            let shown = try shownSecrets(p, chosen)
            let result = try p.vault(["resolve", "-s", chosen.service, "-a", chosen.account, "--group", chosen.group, side, "--json"])
            logged(m, "resolve \(chosen) \(side)", result)
            try judgeItemChange(m, "resolve \(chosen) \(side)", result)
            guard result.status == 0 else { return }
            // The version taken keeps its own name and group (the other side may have renamed or moved the item).
            let settled = (try? JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8))) as? [String: Any]
            let kept = Key(
                group: settled?["group"] as? String ?? chosen.group, service: settled?["service"] as? String ?? chosen.service,
                account: settled?["account"] as? String ?? chosen.account)
            // What it settled on, read back: a secret, or the item gone.
            let after = try p.vault(["get", "-s", kept.service, "-a", kept.account, "--group", kept.group])
            logged(m, "get \(kept) after resolving", after)
            if after.status == 0 {
                record(m, removes: chosen, sets: (kept, after.stdoutText), dropped: shown.subtracting([after.stdoutText]))
            } else if after.status == 44 {
                record(m, removes: chosen, sets: nil, dropped: shown)
            } else {
                problem("\(m.name): get \(chosen) after resolve exited \(after.status): \(after.stderr)")
            }
            count("resolves")
        }
    }

    /// The secrets the clone shows under a name: the current one and every version its conflicts keep.
    func shownSecrets(_ p: Person, _ key: Key) throws -> Set<String> {
        let at = ["-s", key.service, "-a", key.account, "--group", key.group]
        var shown: Set<String> = []
        let get = try p.vault(["get"] + at)
        if get.status == 0 { shown.insert(get.stdoutText) } else if get.status != 44 { return shown }
        for number in 1...20 {
            let version = try p.vault(["get"] + at + ["--conflict", String(number)])
            if version.status == 0 { shown.insert(version.stdoutText); continue }
            // 44 for a conflict that records a deletion; stop at "no conflict N" or "in no conflict".
            if version.status != 44 || version.stderr.contains("there is no conflict") || version.stderr.contains("is in no conflict") {
                break
            }
        }
        return shown
    }

}
