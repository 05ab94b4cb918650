import Foundation
import Testing
import VaultTestSupport
#if canImport(Glibc)
import Glibc
#endif

extension MergeKillTests {
    // MARK: - 1. The merge driver killed

    @Test func aKilledMergeDriverLeavesOursAsItWasOrTheWholeMerge() throws {
        let parent = SeededGenerator(test: "MergeKillTests.driver")
        var scenarios: [String: (scenario: Scenario, microseconds: Int)] = [:]
        var killedAsItWas = 0, killedMerged = 0, finished = 0, leftovers = 0, run = 0
        let started = DispatchTime.now().uptimeNanoseconds

        /// Runs the driver on fresh copies in `project/.kill-N/`; returns its result, what OURS held, and the time it took.
        func drive(_ scenario: Scenario, _ name: String, killAfter delay: Int?) throws -> (RunResult, [UInt8], String, Int) {
            let bob = scenario.team.bob
            let directory = bob.project + "/.kill-" + name
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (file, bytes) in [("base", scenario.baseFile), ("ours", scenario.oursFile), ("theirs", scenario.theirsFile)] {
                try bob.sandbox.write(directory + "/" + file, bytes, mode: 0o644)
            }
            // As git runs it: from the work tree's root, the sides named in GITHEAD_<commit>, the files in the work tree.
            let arguments = ["merge-driver", directory + "/base", directory + "/ours", directory + "/theirs", "team.vault"]
            let environment = ["GITHEAD_\(scenario.ours)": "HEAD", "GITHEAD_\(scenario.theirs)": "origin/main"]
            let start = DispatchTime.now().uptimeNanoseconds
            let process = try Started(bob, arguments, adding: environment, in: bob.project)
            if let delay {
                usleep(UInt32(delay))
                process.kill()
            }
            let result = process.finish()
            let took = Self.microseconds(since: start)
            return (result, bob.sandbox.read(directory + "/ours") ?? [], directory, took)
        }

        func prepared(_ removal: Removal) throws -> (scenario: Scenario, microseconds: Int) {
            if let made = scenarios[removal.rawValue] { return made }
            let scenario = try Self.makeScenario(removal)
            // Three runs not killed: each the whole merge, exit 0; the median time is what kills are spread over.
            var times: [Int] = []
            for attempt in 0..<3 {
                let (result, ours, directory, took) = try drive(scenario, "calibrate-\(removal)-\(attempt)", killAfter: nil)
                let context = "MergeKillTests.driver: \(removal), a run not killed (seed \(parent.seed))"
                Sync.expectStatus(result, 0, "bob: vault merge-driver not killed\n\(context)")
                #expect(ours != scenario.oursFile, "the driver exited \(result.status) and left OURS as it was\n\(context)")
                try Self.expectWholeMerge(directory + "/ours", scenario, context)
                times.append(took)
                try? FileManager.default.removeItem(atPath: directory)
            }
            let made: (scenario: Scenario, microseconds: Int) = (scenario, max(times.sorted()[1], 1000))
            scenarios[removal.rawValue] = made
            print("MergeKillTests.driver: \(removal): the driver takes about \(made.1) µs here")
            return made
        }

        let runs = Self.runs
        while run < runs || killedAsItWas < 1 {
            guard run < runs + 20 else { break }
            var random = Self.runGenerator(parent, run)
            let removal: Removal = Bool.random(using: &random) ? .full : .scoped
            let share = Double.random(in: 0..<1.25, using: &random)
            let (scenario, typical) = try prepared(removal)
            let delay = Int(share * Double(typical))
            let context =
                "MergeKillTests.driver run \(run): seed \(random.seed) (VAULT_TEST_SEED=\(random.seed) VAULT_KILL_RUNS=1 repeats it), "
                + "\(removal), SIGKILL after \(delay) µs (\(String(format: "%.2f", share)) of \(typical) µs)"
            let (result, ours, directory, _) = try drive(scenario, "\(run)", killAfter: delay)
            let outcome: String
            if ours == scenario.oursFile {
                outcome = "OURS as it was"
                #expect(result.status == 137, "the driver exited \(result.status) and left OURS as it was: \(result.stderr)\n\(context)")
                if result.status == 137 { killedAsItWas += 1 }
            } else {
                outcome = "OURS the merge"
                #expect(
                    result.status == 0 || result.status == 137,
                    "the driver exited \(result.status) and changed OURS: \(result.stderr)\n\(context)")
                if result.status == 137 { killedMerged += 1 } else { finished += 1 }
                try Self.expectWholeMerge(directory + "/ours", scenario, context)
            }
            let left =
                (try? FileManager.default.contentsOfDirectory(atPath: directory))?.filter { !["base", "ours", "theirs"].contains($0) } ?? []
            leftovers += left.count
            print(context + ": exit \(result.status), \(outcome)" + (left.isEmpty ? "" : "; left beside it: \(left.sorted())"))
            try? FileManager.default.removeItem(atPath: directory)
            run += 1
        }
        print(
            "MergeKillTests.driver: \(run) runs in \(Self.microseconds(since: started) / 1000) ms: \(killedAsItWas) killed before writing, "
                + "\(killedMerged) killed after writing, \(finished) finished before the kill; \(leftovers) files left beside killed drivers' OURS"
        )
        #expect(killedAsItWas >= 1, "no driver was killed before its write in \(run) runs: the kills never reached the merge")
    }
}
