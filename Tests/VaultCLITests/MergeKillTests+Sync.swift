import Foundation
import Testing
import VaultTestSupport
#if canImport(Glibc)
import Glibc
#endif

extension MergeKillTests {
    // MARK: - 2. vault sync killed

    @Test func aKilledSyncIsFinishedByTheNextSync() throws {
        let parent = SeededGenerator(test: "MergeKillTests.sync")
        var scenarios: [String: (scenario: Scenario, driver: String, microseconds: Int)] = [:]
        var phases: [String: Int] = [:]
        var run = 0, killed = 0, leftovers = 0
        let started = DispatchTime.now().uptimeNanoseconds

        /// bob's clone back to his change, the remote back to alice's sync, the driver configured or not,
        /// and a state directory that has seen what bob's own file holds (as his machine had).
        func reset(_ scenario: Scenario, driver: String, withDriver: Bool, _ name: String) throws {
            let bob = scenario.team.bob
            try bob.mustGit(["reset", "-q", "--hard", scenario.ours])
            try bob.mustGit(["clean", "-q", "-fdx"])
            let moved = try bob.sandbox.run(
                "/usr/bin/git", ["--git-dir", scenario.team.remote, "update-ref", "refs/heads/main", scenario.theirs],
                environment: bob.env)
            try #require(moved.status == 0, "git update-ref in the remote: \(moved.stderr)")
            // A clone without the driver has no merge.vault section at all (a name alone makes git fail).
            _ = try bob.git(["config", "--local", "--remove-section", "merge.vault"])
            if withDriver {
                try bob.mustGit(["config", "--local", "merge.vault.name", "vault: record-by-record merge of vault files"])
                try bob.mustGit(["config", "--local", "merge.vault.driver", driver])
            }
            bob.env["XDG_STATE_HOME"] = bob.sandbox.path("state-" + name)
            try Sync.expectSecret(bob, "api", "shared", "api-by-bob")
        }

        /// After bob's last sync: settled, alice's removal in his history (bob's commit, sealed under
        /// the keys it retired, is pushed only without its vault change), the whole merge, carol out.
        func expectSettledMerge(_ scenario: Scenario, _ context: String) throws {
            let bob = scenario.team.bob
            try Sync.expectSettled(bob, scenario.team)
            try MergeKillTests.expectRemovalKept(bob, scenario, context)
            #expect(
                try bob.git(["show", "HEAD:team.vault"]).stdout == bob.sandbox.read(bob.vaultFile),
                "bob's work tree file is not his HEAD's\n\(context)")
            try Self.expectWholeMerge(bob.vaultFile, scenario, context)
            let untracked = try bob.git(["status", "--porcelain", "--untracked-files=all"]).stdoutText.split(separator: "\n").filter {
                $0.hasPrefix("??")
            }
            leftovers += untracked.count
            if !untracked.isEmpty { print("MergeKillTests.sync: left untracked in bob's clone: \(untracked)\n  \(context)") }
            // A killed driver's temp file beside git's copy of OURS is gone once the next sync ran.
            #expect(
                !untracked.contains { $0.contains(".merge_file_") },
                "a killed merge driver's temp file outlived the next sync: \(untracked)\n\(context)")
        }

        func prepared(_ removal: Removal) throws -> (scenario: Scenario, driver: String, microseconds: Int) {
            if let made = scenarios[removal.rawValue] { return made }
            let scenario = try Self.makeScenario(removal)
            let bob = scenario.team.bob
            Sync.expectStatus(try bob.vault(["sync", "--setup"]), 0, "bob: vault sync --setup")
            let driver = try bob.mustGit(["config", "--local", "merge.vault.driver"]).stdoutText.trimmingCharacters(
                in: .whitespacesAndNewlines)
            // A sync not killed, with the driver and without: the whole merge, settled; the faster time is what kills are spread over
            // (the first sync after the setup is the slower: most kills would come after it ended).
            var times: [Int] = []
            for withDriver in [true, false] {
                try reset(scenario, driver: driver, withDriver: withDriver, "calibrate-\(removal)-\(withDriver)")
                let start = DispatchTime.now().uptimeNanoseconds
                let sync = try bob.vault(["sync"])
                times.append(Self.microseconds(since: start))
                let context =
                    "MergeKillTests.sync: \(removal), the driver \(withDriver ? "configured" : "not configured"), a run not killed (seed \(parent.seed))"
                Sync.expectStatus(sync, 0, "bob: vault sync not killed\n\(context)")
                try expectSettledMerge(scenario, context)
            }
            let made: (scenario: Scenario, driver: String, microseconds: Int) = (scenario, driver, max(times.min() ?? 0, 1000))
            scenarios[removal.rawValue] = made
            print("MergeKillTests.sync: \(removal): a sync takes about \(made.2) µs here")
            return made
        }

        let runs = Self.runs
        while run < runs || killed < 1 {
            guard run < runs + 20 else { break }
            var random = Self.runGenerator(parent, run)
            let removal: Removal = Bool.random(using: &random) ? .full : .scoped
            let withDriver = Bool.random(using: &random)
            let share = Double.random(in: 0..<1.25, using: &random)
            let (scenario, driver, typical) = try prepared(removal)
            let delay = Int(share * Double(typical))
            let context =
                "MergeKillTests.sync run \(run): seed \(random.seed) (VAULT_TEST_SEED=\(random.seed) VAULT_KILL_RUNS=1 repeats it), "
                + "\(removal), the driver \(withDriver ? "configured" : "not configured"), SIGKILL after \(delay) µs (\(String(format: "%.2f", share)) of \(typical) µs)"
            let bob = scenario.team.bob
            try reset(scenario, driver: driver, withDriver: withDriver, "\(run)")

            let process = try Started(bob, ["sync"], in: bob.project)
            usleep(UInt32(delay))
            process.kill()
            let first = process.finish()
            #expect(
                first.status == 0 || first.status == 137, "bob: the killed vault sync exited \(first.status): \(first.stderr)\n\(context)")
            if first.status == 137 { killed += 1 }
            // What it started (git, the driver) goes on without it: wait for that to end, as a machine would.
            let deadline = DispatchTime.now().uptimeNanoseconds + 60_000_000_000
            while Self.groupAlive(process.pid) && DispatchTime.now().uptimeNanoseconds < deadline { usleep(10_000) }
            if Self.groupAlive(process.pid) {
                Issue.record("what the killed vault sync started still runs after 60 s\n\(context)")
                _ = Glibc.kill(-process.pid, SIGKILL)
            }

            // Where the kill left the clone; the work tree's file is bob's as it was or one carol opens nothing of.
            let pushed = try scenario.team.remoteHead().trimmingCharacters(in: .whitespacesAndNewlines) != scenario.theirs
            let merging = try bob.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status == 0
            let committed = try bob.git(["rev-parse", "-q", "--verify", "HEAD^2"]).status == 0
            let conflicted = try !bob.git(["ls-files", "-u"]).stdoutText.isEmpty
            let phase =
                first.status == 0
                ? "finished before the kill"
                : pushed
                    ? "killed after the push"
                    : committed
                        ? "killed after the merge commit"
                        : merging && conflicted
                            ? "killed with git's merge in conflict"
                            : merging
                                ? "killed with git's merge done, not committed"
                                : "killed before git's merge"
            phases[phase, default: 0] += 1
            if bob.sandbox.read(bob.vaultFile) != scenario.oursFile {
                try Self.expectCarolOpensNothing(bob.vaultFile, scenario, context + "\n(the work tree's file after the kill, \(phase))")
            }

            let again = try bob.vault(["sync"])
            print(context + ": exit \(first.status), \(phase); the next sync exited \(again.status)")
            Sync.expectStatus(
                again, 0, "bob: vault sync after a killed one (\(phase))\n\(context)\nthe killed sync's stderr: \(first.stderr)")
            try expectSettledMerge(scenario, context + "\n(after the next sync; the kill: \(phase))")
            run += 1
        }
        print(
            "MergeKillTests.sync: \(run) runs in \(Self.microseconds(since: started) / 1000) ms: "
                + phases.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                + "; \(leftovers) untracked files left in bob's clone")
        #expect(killed >= 1, "no vault sync was killed in \(run) runs: the kills never reached a sync")
    }

    // MARK: - 3. A sync killed between its merge and its commit

    /// The clone one kill point of `vault sync` leaves, set up without a kill (found by
    /// `aKilledSyncIsFinishedByTheNextSync`). Sync runs `git merge --no-ff --no-commit`, merges the vault
    /// file (through the driver, or itself from git's stages and `git add`), then commits: killed before
    /// that commit, git holds the merge unfinished (MERGE_HEAD) with the merged file added and nothing
    /// in conflict. With the driver, git's merge as sync runs it; without, the stages merged by
    /// `vault merge-driver` and added, as sync does before its commit. The next `vault sync` must commit
    /// that merge and push it: exit 0, settled, the whole merge.
    @Test(arguments: [true, false]) func aSyncKilledBeforeItsMergeCommitIsFinishedByTheNextSync(driver: Bool) throws {
        let scenario = try Self.makeScenario(.full)
        let bob = scenario.team.bob
        let context = "MergeKillTests: git's merge done and added, not committed, the driver \(driver ? "configured" : "not configured")"
        if driver {
            Sync.expectStatus(try bob.vault(["sync", "--setup"]), 0, "bob: vault sync --setup")
            Sync.expectStatus(
                try bob.git(["merge", "-q", "--no-ff", "--no-commit", "--no-edit", "origin/main"]), 0,
                "bob: git merge --no-ff --no-commit through the driver, as vault sync runs it")
        } else {
            let merge = try bob.git(["merge", "-q", "--no-ff", "--no-commit", "--no-edit", "origin/main"])
            #expect(merge.status != 0, "bob: git merge without the driver should stop on team.vault: \(merge.stderr)")
            var sides: [String] = []
            for (stage, name) in [(1, "base"), (2, "ours"), (3, "theirs")] {
                try bob.sandbox.write("stage-" + name, try bob.mustGit(["show", ":\(stage):team.vault"]).stdout, mode: 0o644)
                sides.append(bob.sandbox.path("stage-" + name))
            }
            Sync.expectStatus(try bob.vault(["merge-driver"] + sides + ["team.vault"]), 0, "bob: vault merge-driver on git's stages")
            try bob.sandbox.write(bob.vaultFile, try #require(bob.sandbox.read(sides[1])), mode: 0o644)
            try bob.mustGit(["add", "--", "team.vault"])
        }
        try #require(try bob.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status == 0, "the scenario needs git's merge in progress")
        #expect(try bob.git(["ls-files", "-u"]).stdoutText == "", "nothing should be left in conflict")
        #expect(try bob.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "M  team.vault\n")

        let sync = try bob.vault(["sync"])
        Sync.expectStatus(sync, 0, "bob: vault sync with git's merge done and not committed\n\(context)")
        try Sync.expectSettled(bob, scenario.team)
        try Self.expectRemovalKept(bob, scenario, context)
        try Self.expectWholeMerge(bob.vaultFile, scenario, context)
    }

    /// alice's removal is in bob's history; bob's own commit, whose vault file was sealed under the
    /// keys the removal retired, is not (sync made it again without its vault change, which the
    /// merged file holds: docs/TEAMS.md, "What vault sync does").
    static func expectRemovalKept(_ bob: Person, _ scenario: Scenario, _ context: String) throws {
        #expect(
            try bob.git(["merge-base", "--is-ancestor", scenario.theirs, "HEAD"]).status == 0,
            "alice's removal (\(scenario.theirs)) is not in bob's history\n\(context)")
        #expect(
            try bob.git(["merge-base", "--is-ancestor", scenario.ours, "HEAD"]).status != 0,
            "bob's commit sealed under the retired keys (\(scenario.ours)) was pushed\n\(context)")
    }
}
