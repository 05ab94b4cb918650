import Foundation
import Testing
import VaultTestSupport

/// The steps of a convergence run where git, not vault, moves the vault file (issue 48): a rebase
/// conflict resolved by hand with either side, `git revert` of the last change, an old file checked
/// out and committed, a cherry-pick, `git merge -s ours`, plain `git push`, and SIGKILL of
/// `vault sync` and of the merge driver. A write while git holds a stopped operation must be refused
/// (2). A file git put back is taken by the person as a whole: when vault refuses to write on it
/// (49: it drops team log entries) the person undoes it, as the hint says, after sometimes pushing it
/// with plain git first (the remote then holds a rolled-back head until the owner's sync repairs it);
/// when vault writes on it, every item of it is recorded as a write of the person's.
extension TeamConvergenceTests.Run {
    /// One of them, at random. While the remote holds a rolled-back head, nobody pushes or pulls with
    /// plain git (git would take that head; vault checks it, git does not): a killed sync instead.
    func gitWork(_ m: Member) throws {
        let roll = pick(8)
        if rolledBack != nil, [0, 4, 6].contains(roll) { return try sync(m, rebase: false, killedAfter: killDelay()) }
        switch roll {
        case 0: try rebaseResolvedByHand(m)
        case 1: try revertLastChange(m)
        case 2: try oldFileCommitted(m)
        case 3: try cherryPickAnAncestor(m)
        case 4: try mergeOursPushed(m)
        case 5: try sync(m, rebase: false, killedAfter: killDelay())
        case 6: try pullWithAKilledDriver(m)
        default: try sync(m, rebase: chance(50))
        }
    }

    /// A delay for SIGKILL: within the time a sync or the driver takes here (a debug build, a busy machine).
    func killDelay() -> UInt32 { UInt32(pick(1_500)) * 1000 }

    @discardableResult
    func handGit(_ m: Member, _ arguments: [String]) throws -> RunResult {
        let result = try m.person.git(["-c", "core.editor=true"] + arguments)
        logged(m, "git " + arguments.joined(separator: " "), result)
        return result
    }

    /// A plain `git push -q` of HEAD; whether it went through. The vault files of the commits it sent
    /// (those no remote-tracking branch of the clone holds) go into `handPushedFiles`.
    func handPush(_ m: Member) throws -> Bool {
        let commits = try m.person.git(["rev-list", "HEAD", "--not", "--remotes"]).stdoutText.split(separator: "\n")
        let files = try commits.compactMap { commit -> String? in
            let blob = try m.person.git(["rev-parse", "-q", "--verify", "\(commit):team.vault"])
            return blob.status == 0 ? blob.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }
        guard try handGit(m, ["push", "-q"]).status == 0 else { return false }
        handPushedFiles.formUnion(files)
        return true
    }

    /// `vault add` while git holds an operation unfinished: refused (2, naming it), the file unchanged.
    func expectWriteRefused(_ m: Member) throws {
        guard let operation = operationInProgress(m) else { return }
        let key = Key(group: "default", service: Self.pool["default"]![pick(Self.pool["default"]!.count)], account: Self.account)
        let value = "s\(step)-\(m.name)-stopped"
        let file = FileManager.default.contents(atPath: m.person.vaultFile)
        let result = try m.person.vault(["add", "-s", key.service, "-a", key.account, "-w", value])
        logged(m, "add \(key) while git holds \(operation)", result)
        count("writes during \(operation)")
        if result.status != 2 || !result.stderr.contains("git holds") {
            problem("\(m.name): vault add while git holds \(operation) exited \(result.status), want 2: \(result.stderr)")
        }
        if FileManager.default.contents(atPath: m.person.vaultFile) != file {
            problem("\(m.name): the refused write while git holds \(operation) changed the file")
        }
        if result.status == 0 { record(m, removes: nil, sets: (key, value)) }
    }

    /// `git pull --rebase` stopped on the vault file (the driver failing, as a clone without one or a
    /// killed one leaves it); a write tried; each stop resolved with `git checkout --ours` or
    /// `--theirs`, `git add`, `git rebase --continue`. The result is a file the person put back.
    func rebaseResolvedByHand(_ m: Member) throws {
        let start = try startPutBack(m, withTheRemote: true)
        let pull = try handGit(m, ["-c", "merge.vault.driver=false", "pull", "--rebase"])
        guard rebaseInProgress(m) else {
            if pull.status == 0 { m.knows.formUnion(start.brought) }
            return
        }
        count("rebases stopped")
        try expectWriteRefused(m)
        var sides: [String] = []
        for _ in 0..<8 where rebaseInProgress(m) {
            guard try !m.person.git(["ls-files", "-u", "--", "team.vault"]).stdoutText.isEmpty else {
                if try handGit(m, ["rebase", "--continue"]).status != 0 { try handGit(m, ["rebase", "--skip"]) }
                continue
            }
            let side = chance(50) ? "--ours" : "--theirs"
            sides.append(side)
            try handGit(m, ["checkout", side, "--", "team.vault"])
            try handGit(m, ["add", "--", "team.vault"])
            if try handGit(m, ["rebase", "--continue"]).status != 0, rebaseInProgress(m),
                try m.person.git(["ls-files", "-u"]).stdoutText.isEmpty
            {
                try handGit(m, ["rebase", "--skip"])
            }
        }
        if rebaseInProgress(m) {
            try handGit(m, ["rebase", "--abort"])
            problem("\(m.name): the rebase resolved by hand (\(sides)) is still in progress after 8 stops")
            return
        }
        count("rebases resolved by hand \(sides.last ?? "")")
        try judgePutBack(m, start, how: "a rebase resolved by hand \(sides)")
    }

    /// `git revert --no-edit` of the last commit that changed the vault file (often a removal or a
    /// re-key: the owner's syncs commit the file alone). A revert git stops is tried with a write, then aborted.
    func revertLastChange(_ m: Member) throws {
        try commitWorkTree(m)
        let commit = try m.person.git(["log", "-1", "--no-merges", "--format=%H", "--", "team.vault"]).stdoutText.trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard !commit.isEmpty, try m.person.git(["rev-parse", "-q", "--verify", commit + "^"]).status == 0 else { return }
        let start = try startPutBack(m, withTheRemote: false)
        let revert = try handGit(m, ["revert", "--no-edit", commit])
        if operationInProgress(m) != nil {
            count("reverts stopped")
            try expectWriteRefused(m)
            try handGit(m, ["revert", "--abort"])
            return
        }
        guard revert.status == 0 else { return }
        count("reverts")
        try judgePutBack(m, start, how: "a revert of \(commit.prefix(8))")
    }

    /// `git checkout HEAD~N -- team.vault; git commit`: an old file put back.
    func oldFileCommitted(_ m: Member) throws {
        try commitWorkTree(m)
        let back = 1 + pick(4)
        guard try m.person.git(["rev-parse", "-q", "--verify", "HEAD~\(back)"]).status == 0 else { return }
        let start = try startPutBack(m, withTheRemote: false)
        try handGit(m, ["checkout", "HEAD~\(back)", "--", "team.vault"])
        guard try handGit(m, ["commit", "-q", "-m", "\(m.name): team.vault of HEAD~\(back)", "--", "team.vault"]).status == 0 else {
            return
        }
        count("old files committed")
        try judgePutBack(m, start, how: "the file of HEAD~\(back)")
    }

    /// `git cherry-pick` of an earlier commit that changed the vault file: git stops on it (the change is
    /// there already); a write is tried; then `vault sync` finishes it, or `git cherry-pick --abort`.
    func cherryPickAnAncestor(_ m: Member) throws {
        try commitWorkTree(m)
        let commits = try m.person.git(["log", "-6", "--no-merges", "--format=%H", "--", "team.vault"]).stdoutText.split(separator: "\n")
            .map(String.init)
        guard commits.count > 1 else { return }
        let commit = commits[1 + pick(commits.count - 1)]
        guard try m.person.git(["rev-parse", "-q", "--verify", commit + "^"]).status == 0 else { return }
        let start = try startPutBack(m, withTheRemote: false)
        let applied = try handGit(m, ["cherry-pick", commit])
        guard operationInProgress(m) != nil else {
            if applied.status == 0 {
                count("cherry-picks applied")
                try judgePutBack(m, start, how: "a cherry-pick of \(commit.prefix(8))")
            }
            return
        }
        count("cherry-picks stopped")
        try expectWriteRefused(m)
        if chance(50) {
            try handGit(m, ["cherry-pick", "--abort"])
        } else {
            // sync finishes it (docs/TEAMS.md: a stopped cherry-pick is finished) from the stages: the change is there already.
            try sync(m, rebase: false)
        }
    }

    /// `git fetch`, `git merge -s ours` of the remote's branch (its changes dropped), then a plain
    /// `git push`, which no hook checks.
    func mergeOursPushed(_ m: Member) throws {
        let start = try startPutBack(m, withTheRemote: true)
        guard try handGit(m, ["fetch", "-q"]).status == 0 else { return }
        if try m.person.git(["merge-base", "--is-ancestor", "@{u}", "HEAD"]).status == 0 { return try plainPush(m) }
        guard try handGit(m, ["merge", "-s", "ours", "--no-edit", "@{u}"]).status == 0 else { return }
        count("merges -s ours")
        try judgePutBack(m, start, how: "git merge -s ours", pushFirst: true)
    }

    /// `git pull --no-rebase` with the merge driver killed (SIGKILL) after a random delay: a wrapper in
    /// its place starts it and kills it. A write is tried in what git stops; the next `vault sync` settles it.
    func pullWithAKilledDriver(_ m: Member) throws {
        let configured = try m.person.git(["config", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard configured.hasSuffix(" %O %A %B %P") else { return try sync(m, rebase: false, killedAfter: killDelay()) }
        try commitWorkTree(m)
        let delay = Double(pick(800)) / 1000
        let wrapper = "killed-driver.sh"
        let script =
            "#!/bin/sh\n\(configured.dropLast(12)) \"$@\" &\ndriver=$!\nsleep \(delay)\nkill -9 $driver 2>/dev/null\nwait $driver\n"
        try m.person.sandbox.write(wrapper, Array(script.utf8), mode: 0o755)
        let upstream = remoteKnows
        let pull = try handGit(
            m, ["-c", "merge.vault.driver=\(m.person.sandbox.path(wrapper)) %O %A %B %P", "pull", "--no-rebase", "--no-edit"])
        count("git pulls with the driver killed after \(delay < 0.1 ? "< 100" : "≥ 100") ms")
        if pull.status == 0 && operationInProgress(m) == nil {
            m.knows.formUnion(upstream)
            return
        }
        try expectWriteRefused(m)
        try sync(m, rebase: false)
    }

    /// A plain `git push` of HEAD; what the remote then holds. `puttingBack`: HEAD's file was put back by
    /// git (older items, the team log whole), which machines that saw the newer file take for a rollback.
    func plainPush(_ m: Member, puttingBack: Bool = false) throws {
        guard rolledBack == nil else { return }
        if try handPush(m) {
            remoteKnows.formUnion(m.knows)
            try notePublishedRemovals(at: try remoteHead())
            count("plain pushes")
            if puttingBack { itemsPutBack = true }
        }
    }

    /// What a file put back is judged against: where the person was, and the files it came from.
    struct PutBackStart {
        let head: String
        let knows: Set<Int>
        /// The writes the remote's file held (taken in by a pull or a merge); empty for a put-back of the clone's own history.
        let brought: Set<Int>
        /// HEAD's file, and the remote's when it is taken in.
        let inputs: [[TeamConvergenceTests.Key: TeamConvergenceTests.Observed]]
    }

    /// The work tree's file committed; HEAD, what the clone holds, and the views of its file and (`withTheRemote`) the remote's.
    func startPutBack(_ m: Member, withTheRemote: Bool) throws -> PutBackStart {
        try commitWorkTree(m)
        let committed = try m.person.git(["show", "HEAD:team.vault"])
        var inputs = [try fileView(committed.status == 0 ? committed.stdout : [])]
        if withTheRemote { inputs.append(try fileView(try remoteFile(try remoteHead()))) }
        return PutBackStart(head: try head(m), knows: m.knows, brought: withTheRemote ? remoteKnows : [], inputs: inputs)
    }

    /// The work tree holds a file git put back (`how`). The person writes on it: refused (49) when it
    /// drops team log entries — then, sometimes after a plain `git push` of it, the person goes back to
    /// where it was (the hint: drop that commit) — else accepted, and what the file holds otherwise
    /// than the files it came from becomes the person's writes.
    func judgePutBack(_ m: Member, _ start: PutBackStart, how: String, pushFirst: Bool = false) throws {
        let (headBefore, knowsBefore) = (start.head, start.knows)
        let file = try fileView(FileManager.default.contents(atPath: m.person.vaultFile).map { Array($0) } ?? [])
        let key = Key(group: "default", service: Self.pool["default"]![pick(Self.pool["default"]!.count)], account: Self.account)
        let value = "s\(step)-\(m.name)-on-put-back"
        let verb = file[key]?.getStatus == 0 ? "update" : "add"
        let write = try m.person.vault([verb, "-s", key.service, "-a", key.account, "-w", value])
        logged(m, "\(verb) \(key) = \(value) on \(how)", write)
        switch write.status {
        case 0:
            count("writes on a file put back")
            recordPutBack(m, file, start, acknowledgeable: true)
            record(m, removes: nil, sets: (key, value))
            if pushFirst || chance(35) { try plainPush(m, puttingBack: true) }
        case 49 where write.stderr.contains("drops team log entries"):
            count("writes refused on a file put back that drops team log entries")
            if (pushFirst || chance(40)), rolledBack == nil, try handPush(m) {
                // No hook on the remote: the head drops the removal until the owner's sync repairs it.
                recordPutBack(m, file, start, acknowledgeable: false)
                remoteKnows.formUnion(m.knows)
                rolledBack = try remoteHead()
                try notePublishedRemovals(at: rolledBack!)
                count("rolled-back heads pushed")
                try probeRemovedIdentities(rolledBack!)
            }
            try handGit(m, ["reset", "-q", "--hard", headBefore])
            m.knows = knowsBefore
        case 51 where write.stderr.contains("no member slot"):
            // A file that lacks the person (from before it was added, or the side of its removal): it
            // opens nothing of it, and goes back.
            count("files put back that lack their person")
            try handGit(m, ["reset", "-q", "--hard", headBefore])
            m.knows = knowsBefore
        case 49 where refusedAsRollback(write, putBackHere: true):
            try handGit(m, ["reset", "-q", "--hard", headBefore])
            m.knows = knowsBefore
        default:
            problem("\(m.name): \(verb) on \(how) exited \(write.status): \(write.stderr)")
        }
    }

    /// Every item the file put back holds otherwise than a file it came from, as a write of `m`'s made
    /// knowing what it had and what it took in (an item it holds as they did is no write: the same revision).
    func recordPutBack(_ m: Member, _ file: [Key: Observed], _ start: PutBackStart, acknowledgeable: Bool) {
        m.knows.formUnion(start.brought)
        let keys = start.inputs.reduce(Set(file.keys)) { $0.union($1.keys) }
        for key in keys.sorted() where start.inputs.contains(where: { $0[key] != file[key] }) {
            // A file vault refuses comes back only through the owner's repair, a merge with no base: an item
            // it lacks is no deletion there, and one it holds otherwise comes in as a conflict.
            if !acknowledgeable && file[key]?.current == nil { continue }
            let dropped = start.inputs.reduce(into: Set<String>()) { $0.formUnion($1[key]?.visible ?? []) }.subtracting(
                file[key]?.visible ?? [])
            if let current = file[key]?.current {
                record(m, removes: nil, sets: (key, current), dropped: dropped, acknowledgeable: acknowledgeable)
            } else {
                record(m, removes: key, sets: nil, dropped: dropped, acknowledgeable: acknowledgeable)
            }
        }
    }

    /// What a vault file holds, read by the owner's passphrase (the auditor) with a state directory of
    /// its own (no memory of newer files); empty when there is no file.
    func fileView(_ bytes: [UInt8]) throws -> [Key: Observed] {
        guard !bytes.isEmpty else { return [:] }
        try auditor.sandbox.write("put-back.vault", bytes)
        let state = auditor.sandbox.path("state-\(step)-\(counts["files read", default: 0])")
        count("files read")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        return try view(auditor, adding: ["VAULT_PATH": auditor.sandbox.path("put-back.vault"), "XDG_STATE_HOME": state])
    }
}
