import Foundation
import Testing
import VaultTestSupport

/// The member steps of a convergence run: an owner machine removes or adds back, a full member's
/// `member add` (30), ci-runner's reads, and a clone for a member added during the run.
extension TeamConvergenceTests.Run {
    /// An owner machine removes a member it lists, or adds one it does not list (back).
    func memberChange(_ owner: Member) throws {
        let candidates = members.filter { $0.role != .owner }
        let target = candidates[pick(candidates.count)]
        let listed = try owner.person.vault(["member", "list", "--json"])
        guard listed.status == 0 else {
            problem("\(owner.name): member list exited \(listed.status): \(listed.stderr)")
            return
        }
        let names = ((try? JSONSerialization.jsonObject(with: Data(listed.stdout))) as? [[String: Any]] ?? []).compactMap {
            $0["name"] as? String
        }
        let result: RunResult
        if names.contains(target.name) {
            result = try owner.person.vault(["member", "remove", target.name, "--yes", "--kdf-cost", "testing"])
            logged(owner, "member remove \(target.name)", result)
            if result.status == 0 {
                target.out = true
                target.addedBack = false
                target.removedAtStep = step
                target.removalPublishedAtStep = nil
                count("member removals")
            }
        } else {
            // An add-back re-keys (the whole vault for a full member): the test's scrypt cost for the keyslot it re-makes.
            result = try owner.person.vault(["member", "add", target.name, target.recipient!, "--kdf-cost", "testing"] + target.scope)
            logged(owner, "member add \(target.name)", result)
            if result.status == 0 {
                target.addedBack = true
                count("member adds")
            }
        }
        let merging = try mergeInProgress(owner)
        if result.status != 0 && !(result.status == 2 && merging) && !refusedAsRollback(result) {
            problem("\(owner.name): member change of \(target.name) exited \(result.status): \(result.stderr)")
        }
    }

    /// A full member's `member add`: the owner's alone (30), or 2 while git holds a merge.
    func memberAddByAMember(_ m: Member) throws {
        let result = try m.person.vault(["member", "add", "zed", zedRecipient])
        logged(m, "member add zed (a full member's)", result)
        count("member adds by a full member")
        let merging = try mergeInProgress(m)
        let removed = result.status == 51 ? try removedInOwnFile(m) : false
        if !(result.status == 30 || (merging && result.status == 2) || (removed && result.status == 51) || refusedAsRollback(result)) {
            problem("\(m.name): a full member's member add exited \(result.status), want 30: \(result.stderr)")
        }
    }

    /// ci-runner pulls and lists group ci: it reads exactly when the file it pulled lists it.
    func ciReads(_ m: Member) throws {
        let pull = try m.person.git(["pull", "-q", "--no-rebase", "--no-edit"])
        logged(m, "git pull", pull)
        if pull.status != 0 { problem("ci-runner: git pull exited \(pull.status): \(pull.stderr)") }
        let head = try head(m)
        let member = try audit(head).roster[m.name] != nil
        let list = try m.person.vault(["list", "--group", "ci", "--json"])
        logged(m, "list --group ci", list)
        count("ci reads")
        if member && list.status == 49 && rolledBack != nil && list.stderr.contains("drops team log entries") {
            // A reader that saw the removal refuses the rolled-back head git pulled, naming its commit.
            count("ci reads refused on a rolled-back head")
        } else if member && list.status != 0 {
            problem("ci-runner, in the roster of \(head), cannot list group ci: \(list.status) \(list.stderr)")
        } else if !member && list.status == 0 {
            problem("ci-runner, not in the roster of \(head), listed group ci: \(list.stdoutText)")
        }
    }

    /// A clone for a person the remote's roster holds who has none yet (erin, once added).
    func cloneIfMember(_ m: Member) throws -> Bool {
        if m.hasClone { return true }
        guard try audit(try remoteHead()).roster[m.name] != nil else { return false }
        try m.person.clone(team.remote)
        m.person.env["VAULT_TRUST"] = team.trust
        Sync.expectStatus(try m.person.vault(["sync", "--setup"]), 0, "\(m.name): vault sync --setup")
        m.hasClone = true
        m.knows = remoteKnows
        note("  \(m.name): cloned the remote")
        return true
    }
}
