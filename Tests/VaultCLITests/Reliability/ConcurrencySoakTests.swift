import Foundation
import Testing
import VaultTestSupport

/// N processes at once, each running M mixed add/update/delete/get on keys of
/// its own and on keys all of them share. No acknowledged update is lost, the
/// vault never reads as damaged, and a reader sees only whole values.
@Suite struct ConcurrencySoakTests {
    struct SharedWrite {
        let value: String
        let started: UInt64
        let ended: UInt64
        let acknowledged: Bool
    }

    @Test func parallelWritersAndReaders() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        let workers = ReliabilityScale.pick(short: 4, full: 8)
        let operations = ReliabilityScale.pick(short: 10, full: 80)
        let sharedKeys = ["shared-0", "shared-1"]
        for key in sharedKeys {
            try sandbox.vault(["add", "-s", key, "-a", "soak"], stdin: Array("initial".utf8))
        }
        let sharedWrites = Ledger<(key: String, write: SharedWrite)>()
        let sharedReads = Ledger<(key: String, value: String)>()
        let failures = Ledger<String>()
        let seeds = SeededGenerator(test: "ConcurrencySoakTests")

        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var random = SeededGenerator(derivedFrom: seeds, index: worker)
            // This worker alone writes its own keys, so it knows what each must hold.
            var own: [String: String] = [:]
            func vault(_ arguments: [String], _ stdin: String = "") -> RunResult {
                do {
                    return try sandbox.vault(arguments, stdin: Array(stdin.utf8))
                } catch {
                    failures.append("worker \(worker): \(error)")
                    return RunResult(status: -1, stdout: [], stderr: "\(error)")
                }
            }
            for step in 0..<operations {
                let value = "w\(worker)-s\(step)-" + String(repeating: "v", count: (step * 37) % 300)
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1:
                    let key = "own-\(worker)-\(step % 3)"
                    let result =
                        own[key] == nil
                        ? vault(["add", "-s", key, "-a", "soak"], value)
                        : vault(["update", "-s", key, "-a", "soak"], value)
                    if result.status == 0 {
                        own[key] = value
                    } else {
                        failures.append("worker \(worker) write \(key): exit \(result.status): \(result.stderr)")
                    }
                case 2:
                    guard let key = own.keys.sorted().randomElement(using: &random) else { continue }
                    let result = vault(["delete", "-s", key, "-a", "soak"])
                    if result.status == 0 {
                        own[key] = nil
                    } else {
                        failures.append("worker \(worker) delete \(key): exit \(result.status): \(result.stderr)")
                    }
                case 3:
                    let key = sharedKeys.randomElement(using: &random)!
                    let started = DispatchTime.now().uptimeNanoseconds
                    let result = vault(["update", "-s", key, "-a", "soak"], value)
                    sharedWrites.append(
                        (
                            key,
                            SharedWrite(
                                value: value, started: started, ended: DispatchTime.now().uptimeNanoseconds,
                                acknowledged: result.status == 0)
                        ))
                    if result.status != 0 { failures.append("worker \(worker) update \(key): exit \(result.status): \(result.stderr)") }
                case 4:
                    let key = sharedKeys.randomElement(using: &random)!
                    let result = vault(["get", "-s", key, "-a", "soak"])
                    if result.status == 0 {
                        sharedReads.append((key, result.stdoutText))
                    } else {
                        failures.append("worker \(worker) get \(key): exit \(result.status): \(result.stderr)")
                    }
                default:
                    guard let (key, expected) = own.sorted(by: { $0.key < $1.key }).randomElement(using: &random) else { continue }
                    let result = vault(["get", "-s", key, "-a", "soak"])
                    if result.status != 0 || result.stdoutText != expected {
                        failures.append(
                            "worker \(worker) read its own \(key): exit \(result.status), \(result.stdoutText.prefix(40)) instead of \(expected.prefix(40))"
                        )
                    }
                }
            }
            for (key, expected) in own {
                let result = vault(["get", "-s", key, "-a", "soak"])
                if result.stdoutText != expected { failures.append("worker \(worker): \(key) lost its last acknowledged value") }
            }
        }

        for failure in failures.entries { Issue.record(Comment(rawValue: failure)) }
        for key in sharedKeys {
            let writes = sharedWrites.entries.filter { $0.key == key }.map(\.write)
            let written = Set(writes.map(\.value) + ["initial"])
            for read in sharedReads.entries where read.key == key {
                #expect(written.contains(read.value), "a reader saw \(read.value.prefix(40)) in \(key), which no writer wrote")
            }
            // The last value must come from an acknowledged write that no other acknowledged write began after.
            let final = try sandbox.vault(["get", "-s", key, "-a", "soak"]).stdoutText
            let acknowledged = writes.filter(\.acknowledged)
            guard let latestStart = acknowledged.map(\.started).max() else { continue }
            let candidates = acknowledged.filter { $0.ended >= latestStart }.map(\.value)
            #expect(candidates.contains(final), "\(key) holds \(final.prefix(40)); an acknowledged update was lost")
        }
        let listing = try sandbox.vault(["list"])
        #expect(listing.status == 0, "the vault does not list after the soak: \(listing.stderr)")
    }

    /// first-run started several times at once wipes once: one run removes the group's items and
    /// raises the key epoch by one, the others find the marker (its lock beside it serialises them).
    @Test func parallelFirstRunsWipeOnce() throws {
        let sandbox = try Sandbox()
        try WritingCommand.makeVault(sandbox)
        let marker = sandbox.path("state/first-run")
        let runs = try (0..<ReliabilityScale.pick(short: 4, full: 8)).map { _ in
            try RunningVault(sandbox, ["first-run", "--marker", marker, "--group", "ci"])
        }.map { $0.finish() }
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        #expect(runs.filter { $0.stderr.contains("first run: removed 1 item") }.count == 1, "\(runs.map(\.stderr))")
        #expect(runs.filter { $0.stderr.contains("first run already done") }.count == runs.count - 1, "\(runs.map(\.stderr))")
        let verify = try sandbox.vault(["verify", "--json"])
        #expect(verify.stdoutText.contains("\"key_epoch\":2,"), "\(verify.stdoutText)")
    }
}
