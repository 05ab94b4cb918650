import Foundation
import Testing
import VaultTestSupport

/// The read-write scoped member of a convergence run (frank, group ci): it opens group ci only, so
/// it cannot merge a file whose other groups moved. Its `vault sync` pushes when there is nothing to
/// merge; when a merge is needed it exits 30 with nothing committed (docs/TEAMS.md, "A scoped
/// writer's changes"), and frank pushes a branch of his own (`vault sync --branch`), which an owner
/// machine merges (`git merge` with the driver, then `vault sync`); frank's next sync fast-forwards.
/// A branch refused because the remote re-keyed (1) is given up: frank takes the remote's file.
extension TeamConvergenceTests.Run {
    /// The sync of the scoped writer: `vault sync`, then its branch when the sync needs a merge.
    func scopedSync(_ m: Member) throws {
        let before = m.knows
        try sync(m, rebase: false)
        guard lastSyncNeededAMerge else { return }
        m.knows = before
        let name = "\(m.name)-\(step)"
        let pushed = try m.person.vault(["sync", "--branch", name])
        logged(m, "sync --branch \(name)", pushed)
        count("branches of the scoped writer")
        switch pushed.status {
        case 0:
            scopedBranches.append((name: name, knows: m.knows))
        case 1 where pushed.stderr.contains("retired"):
            // Its change is sealed under keys the team retired: it takes the remote's file and gives the change up.
            _ = try m.person.git(["fetch", "-q"])
            let reset = try m.person.git(["reset", "-q", "--hard", "@{u}"])
            logged(m, "git reset --hard @{u} (the change given up)", reset)
            m.knows = remoteKnows
            m.pending = []
            count("scoped writer's changes given up after a re-key")
        case 51 where try audit(try remoteHead()).roster[m.name] == nil:
            note("  (\(m.name) is not in the remote's roster)")
        default:
            problem("\(m.name): vault sync --branch \(name) exited \(pushed.status): \(pushed.stderr)")
        }
    }

    /// An owner machine merges the scoped writer's branches (`git fetch`, `git merge`, `vault sync`).
    func mergeScopedBranches(_ owner: Member) throws {
        guard !scopedBranches.isEmpty, try !mergeInProgress(owner) else { return try sync(owner, rebase: false) }
        try commitWorkTree(owner)
        _ = try owner.person.git(["fetch", "-q"])
        var merged: Set<String> = []
        for branch in scopedBranches {
            let merge = try owner.person.git(["-c", "core.editor=true", "merge", "--no-edit", "origin/\(branch.name)"])
            logged(owner, "git merge origin/\(branch.name)", merge)
            owner.knows.formUnion(branch.knows)
            merged.insert(branch.name)
            count("scoped branches merged")
            if merge.status != 0 { break }  // vault sync finishes what git stopped
        }
        try sync(owner, rebase: false)
        if try !mergeInProgress(owner) { scopedBranches.removeAll { merged.contains($0.name) } }
    }
}
