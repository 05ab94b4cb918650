import Foundation
import Testing
import VaultTestSupport

/// The syncs of a convergence run: `vault sync`, or `git pull --rebase` then `vault sync`, and what
/// each must leave (settled clone, acknowledged writes, a refusal only for a reason the docs give).
extension TeamConvergenceTests.Run {
    /// `vault sync` as this person runs it: the owner with --accept-log, and the test's scrypt cost for the
    /// passphrase keyslot a join re-makes when it re-keys (the default, interactive, takes a second a command).
    func syncArguments(_ m: Member) -> [String] { m.role == .owner ? ["sync", "--accept-log", "--kdf-cost", "testing"] : ["sync"] }

    /// A sync by this person, and what it must leave. `rebase`: `git pull --rebase` then `vault sync`
    /// (not while the remote holds a rolled-back head: git would take it, and only vault checks it);
    /// `killedAfter`: `vault sync` killed with SIGKILL after that many microseconds.
    func sync(_ m: Member, rebase: Bool, killedAfter delay: UInt32? = nil) throws {
        let before = try remoteHead()
        let remoteBefore = remoteKnows
        let rolledBackBefore = rolledBack
        lastSyncNeededAMerge = false
        let result: RunResult
        if let delay {
            result = try killedSync(m, after: delay)
        } else if rebase, rolledBack == nil || m.role == .owner, try !mergeInProgress(m) {
            result = try pullRebaseThenSync(m)
        } else {
            result = try m.person.vault(syncArguments(m))
            logged(m, syncArguments(m).joined(separator: " "), result)
        }
        count(delay != nil ? "vault sync killed" : rebase ? "git pull --rebase + vault sync" : "vault sync")
        m.knows.formUnion(remoteBefore)
        let after = try remoteHead()
        if let broken = rolledBackBefore, after != before { try judgeMoveFromRolledBack(m, broken, to: after, result) }
        if result.status == 0 {
            count("syncs that exited 0")
            remoteKnows.formUnion(m.knows)
            try notePublishedRemovals(at: after)
            let status = try m.person.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText
            if try head(m) != after || operationInProgress(m) != nil || !status.isEmpty {
                problem(
                    "\(m.name): the sync exited 0 but the clone is not settled: HEAD \(try head(m)), remote \(after), git holds \(operationInProgress(m) ?? "nothing"), status \(String(reflecting: status))"
                )
            }
            if m.role != .owner {
                if try audit(after).roster[m.name] != nil {
                    if m.addedBack { m.out = false; m.addedBack = false }
                } else if after != before {
                    problem("\(m.name): vault sync exited 0 and pushed, but the roster of the file it pushed lacks \(m.name)")
                } else {
                    // A fast-forward opens nothing but the clone's own file: a removed member's sync can take the
                    // file that removes it, which it then cannot open.
                    note("  (\(m.name) is not in the remote's roster: its sync was a fast-forward onto a file it cannot open)")
                    count("fast-forwards of removed members")
                }
            }
            for id in m.pending { acknowledged.insert(id) }
            m.pending = m.pending.filter { !acknowledged.contains($0) }
        } else {
            if after != before {
                remoteKnows.formUnion(m.knows)
                try notePublishedRemovals(at: after)
            }
            if result.status == 137 {
                note("  (killed: the next sync settles what it left)")
            } else if rolledBack != nil, m.role != .owner, result.status == 49, result.stderr.contains("only the vault's owner repairs it")
            {
                count("syncs refused on a rolled-back remote")
            } else if m.role == .scoped, result.status == 30, result.stderr.contains("cannot merge") {
                lastSyncNeededAMerge = true
                count("scoped writer's syncs that need a merge (30)")
            } else if m.role == .owner {
                problem("\(m.name) (the owner): the sync failed (log above)")
            } else if try audit(after).roster[m.name] != nil {
                problem("\(m.name): the sync failed, yet the remote's roster holds \(m.name) (\(try audit(after).roster[m.name]!))")
            } else {
                note("  (\(m.name) is not in the remote's roster: a refused sync is expected)")
                count("syncs refused to removed members")
            }
        }
        if m.role == .owner, after != before { try probeRemovedIdentities(after) }
    }

    /// The remote's branch left the rolled-back head `broken` (a plain push put it there): only an
    /// owner machine may move it, to a head that contains it (its repair, docs/TEAMS.md, "Every head
    /// checked", or its own commits replayed onto it, whose file holds the owner's log; the
    /// every-commit check reads them); nothing a member writes goes on top of it.
    func judgeMoveFromRolledBack(_ m: Member, _ broken: String, to after: String, _ result: RunResult) throws {
        let line = try auditor.sandbox.run(
            "/usr/bin/git", ["--git-dir", team.remote, "rev-list", "--parents", "-n", "1", after], environment: auditor.env)
        let parents = line.stdoutText.split(whereSeparator: \.isWhitespace).dropFirst().map(String.init)
        rolledBack = nil
        let contains =
            try auditor.sandbox.run(
                "/usr/bin/git", ["--git-dir", team.remote, "merge-base", "--is-ancestor", broken, after], environment: auditor.env
            ).status == 0
        if m.role == .owner, contains {
            // The repair, or the owner's own commits replayed onto it by `git pull --rebase`: a file with the owner's log.
            count(
                (result.stdoutText + result.stderr).contains("repaired")
                    ? "rolled-back heads repaired" : "rolled-back heads built on by an owner machine")
        } else {
            problem(
                "\(m.name)'s sync moved the remote from the rolled-back head \(broken) to \(after) (parents \(parents)), not an owner's merge of it: \(Self.firstLines(result))"
            )
        }
    }

    /// The removals the remote's file now holds are published from this step on.
    func notePublishedRemovals(at head: String) throws {
        for x in members where x.removedAtStep != nil && x.removalPublishedAtStep == nil {
            if try audit(head).roster[x.name] == nil { x.removalPublishedAtStep = step }
        }
    }

    /// `vault sync` killed with SIGKILL after `delay` µs (or finished before); what it started (git,
    /// the merge driver) is left to end as it would on a machine.
    func killedSync(_ m: Member, after delay: UInt32) throws -> RunResult {
        let process = try MergeKillTests.Started(m.person, syncArguments(m), in: m.person.project)
        usleep(delay)
        process.kill()
        let result = process.finish()
        let deadline = DispatchTime.now().uptimeNanoseconds + 60_000_000_000
        while MergeKillTests.groupAlive(process.pid) && DispatchTime.now().uptimeNanoseconds < deadline { usleep(10_000) }
        if MergeKillTests.groupAlive(process.pid) { problem("what \(m.name)'s killed vault sync started still runs after 60 s") }
        logged(m, syncArguments(m).joined(separator: " ") + " (SIGKILL after \(delay / 1000) ms)", result)
        return result
    }

    /// The vault file committed, `git pull --rebase` (the merge driver where the clone has it), then
    /// while git holds the rebase: `vault sync`, which finishes it (the vault file at each stop, then
    /// `git rebase --continue`) and pushes; then `vault sync`. The last sync's result (a rebase that
    /// could not be finished is aborted, and the failed sync in it returned).
    func pullRebaseThenSync(_ m: Member) throws -> RunResult {
        try commitWorkTree(m)
        let pull = try m.person.git(["pull", "--rebase"])
        logged(m, "git pull --rebase", pull)
        var rounds = 0
        var failed: RunResult?
        while rebaseInProgress(m), rounds < 8 {
            rounds += 1
            let finish = try m.person.vault(syncArguments(m))
            logged(m, syncArguments(m).joined(separator: " ") + " (in the rebase)", finish)
            if finish.status != 0 { failed = finish; break }
            // sync finishes the rebase itself (docs/TEAMS.md, "What vault sync does") and pushes.
            if !rebaseInProgress(m) { break }
            problem("\(m.name): vault sync in a rebase exited 0 and left the rebase unfinished: \(finish.stderr)")
            let next = try m.person.git(["rebase", "--continue"])
            logged(m, "git rebase --continue", next)
            let unmerged = try m.person.git(["ls-files", "-u"]).stdoutText
            if next.status != 0 && rebaseInProgress(m) && unmerged.isEmpty {
                // Nothing left to replay in this commit (its change was upstream's already).
                let skip = try m.person.git(["rebase", "--skip"])
                logged(m, "git rebase --skip", skip)
            }
        }
        if rebaseInProgress(m) {
            let abort = try m.person.git(["rebase", "--abort"])
            logged(m, "git rebase --abort (the rebase could not be finished)", abort)
            count("rebases aborted")
            return failed ?? RunResult(status: 1, stdout: [], stderr: "the rebase could not be finished in 8 rounds")
        }
        let result = try m.person.vault(syncArguments(m))
        logged(m, syncArguments(m).joined(separator: " "), result)
        return result
    }

    /// The vault file's change in the work tree committed alone, as a person does before git moves it.
    func commitWorkTree(_ m: Member) throws {
        guard !(try m.person.git(["status", "--porcelain", "--", "team.vault"]).stdoutText.isEmpty) else { return }
        let commit = try m.person.git(["commit", "-q", "-m", "\(m.name)'s change", "--", "team.vault"])
        logged(m, "git commit -- team.vault", commit)
    }
}
