import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A power loss at every point of each writing command: unsynced writes are lost, not just the
/// process killed (CrashSafetyTests does that).
///
/// How: each command runs once under strace, which records every file-system call it makes with
/// the bytes it writes. Support/power-loss.py replays that trace over a copy of the sandbox taken
/// just before, and at each crash point (after every fsync, fdatasync, rename, link and unlink, and
/// after the command exits) builds every tree a power loss could leave: the data not yet fsynced
/// lost (a file as last synced, empty if never), torn (the first half of the writes since) or
/// kept, and of the directory operations not yet
/// made durable by an fsync of their directory, every prefix in order (so a rename not followed by
/// a directory fsync is tried both applied and not). Each distinct tree is put back as the sandbox
/// and read: `vault verify` must pass, every item must read as before the command or as after it
/// (one observation, never a mix), the seen counters must read as before or as after, and when
/// the tree can be left by a power loss after the command
/// exited 0, it must be the after: the acknowledgement comes after the durability point. Then the
/// next write must work on it.
///
/// Why a replayed trace and not a FUSE layer that forgets unsynced data: it needs no mount and no
/// daemon, it runs the real binary on the real file system, and one run gives every crash point
/// (a FUSE layer would need one run of the command per crash point). What the model leaves out is
/// in power-loss.py's doc comment: one file's data lost while another's is kept, a write torn
/// inside one call, file systems that reorder directory operations, writes through mmap.
@Suite(.serialized) struct PowerLossTests {
    static let hasStrace = FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")

    @Test(.enabled(if: hasStrace, "strace records the write path (scripts/install-deps.sh installs it)"))
    func everyCrashPointLeavesTheOldOrTheNewVault() throws {
        var states = 0, crashPoints = 0, failures = 0, afterExit = 0, resumed = 0
        let commands = WritingCommand.sample
        for command in commands {
            let result = try Self.check(command)
            states += result.states
            crashPoints += result.crashPoints
            afterExit += result.afterExit
            resumed += result.resumed
            failures += result.failures.count
            for failure in result.failures { Issue.record(Comment(rawValue: "\(command.name): \(failure)")) }
        }
        print(
            "PowerLossTests: \(crashPoints) crash points over \(commands.count) commands, \(states) distinct power-loss states checked (\(afterExit) after the command exited; \(resumed) between before and after, completed by running the command again), \(failures) failures"
        )
        #expect(states > commands.count * 2, "only \(states) states for \(commands.count) commands: the trace model saw no writes")
    }

    /// The model itself, on a hand-written trace whose trees are known (power-loss.py --self-test):
    /// a rename of a file whose data was never synced can leave the name on an empty or torn file.
    @Test func theModelLeavesWhatAPowerLossCan() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("/usr/bin/python3", [Self.script, "--self-test"])
        #expect(result.status == 0 && result.stdoutText.contains("self-test passed"), "\(result.stdoutText)\(result.stderr)")
    }

    struct Outcome {
        var states = 0, crashPoints = 0, afterExit = 0, resumed = 0
        var failures: [String] = []
    }

    /// Runs `command` under strace on a fresh vault, then checks every state a power loss could leave.
    static func check(_ command: WritingCommand) throws -> Outcome {
        let sandbox = try Sandbox()
        try WritingCommand.makeVault(sandbox)
        let (arguments, stdin) = try command.prepare(sandbox)
        let before = try VaultObservation.take(sandbox, probes: command.probes)
        let countersBefore = SeenCountersFile.read(sandbox)
        let scratch = sandbox.home + ".power-loss"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/states", withIntermediateDirectories: true)
        guard try sandbox.run("/bin/cp", ["-a", sandbox.home, scratch + "/before"]).status == 0 else {
            throw SandboxError.setupFailed("could not copy the sandbox")
        }
        let run = try sandbox.run(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-y", "-xx", "-s", "100000000", "-o", scratch + "/trace",
                "-e", "trace=" + (try tracedCalls(sandbox)), Sandbox.vaultBinary
            ] + arguments,
            stdin: Array(stdin.utf8))
        var outcome = Outcome()
        guard run.status == 0 else {
            outcome.failures.append("exited \(run.status) under strace: \(run.stderr)")
            return outcome
        }
        let countersAfter = SeenCountersFile.read(sandbox)
        try WritingCommand.keepSessionToken(run, sandbox)
        let after = try VaultObservation.take(sandbox, probes: command.probes)
        guard after != before, after.readable else {
            outcome.failures.append("the command changed nothing a reader sees, or left the vault unreadable:\n\(after)")
            return outcome
        }
        let model = try sandbox.run(
            "/usr/bin/python3", [script, sandbox.home, scratch + "/before", scratch + "/trace", scratch + "/states"])
        guard model.status == 0, let json = FileManager.default.contents(atPath: scratch + "/states/states.json"),
            let list = try JSONSerialization.jsonObject(with: json) as? [[String: Any]]
        else {
            outcome.failures.append("power-loss.py exited \(model.status): \(model.stderr)")
            return outcome
        }
        var points = Set<Int>()
        for state in list {
            guard let directory = state["directory"] as? String, let at = state["points"] as? [[String: Any]] else { continue }
            let exited = state["after_exit"] as? Bool ?? false
            for point in at { points.insert(point["index"] as? Int ?? 0) }
            let restore = try sandbox.run(
                "/bin/sh",
                [
                    "-c", "find \"$1\" -mindepth 1 -maxdepth 1 ! -name .session-token -exec rm -rf {} + && cp -a \"$2\"/. \"$1\"/",
                    "sh", sandbox.home, directory
                ])
            guard restore.status == 0 else { throw SandboxError.setupFailed("restore \(directory): \(restore.stderr)") }
            let counters = SeenCountersFile.read(sandbox)
            let seen = try VaultObservation.take(sandbox, probes: command.probes)
            let moment = "a power loss after \(describe(at))"
            if counters != countersBefore && counters != countersAfter {
                outcome.failures.append(
                    "\(moment) leaves the seen counters at \(counters), neither as before (\(countersBefore)) nor as after (\(countersAfter))"
                )
            }
            outcome.states += 1
            if exited { outcome.afterExit += 1 }
            if seen != before && seen != after {
                if let left = try VaultObservation.resumed(sandbox, command, arguments: arguments, stdin: stdin, after: after) {
                    outcome.failures.append(
                        "\(moment) leaves neither the vault before nor after:\n\(seen)\n-- before:\n\(before)\n-- after:\n\(after)\n\(left)"
                    )
                } else {
                    outcome.resumed += 1
                }
            } else if exited && command.durable && seen != after {
                outcome.failures.append("exited 0, yet \(moment) leaves the vault as before:\n\(seen)")
            } else if let problem = try VaultObservation.nextCommandWorks(sandbox) {
                outcome.failures.append("\(moment): \(problem)")
            }
        }
        outcome.crashPoints = points.count
        return outcome
    }

    /// The crash points that leave one state, as a reader of a failure needs them.
    static func describe(_ points: [[String: Any]]) -> String {
        points.prefix(3).map { point in
            "\(point["syscall"] ?? "?") (call \(point["index"] ?? "?"); \(point["applied"] ?? "?") of \(point["pending"] ?? "?") unsynced directory operations applied; unsynced data \(point["data"] ?? "?"))"
        }.joined(separator: " or ")
    }

    static let script = Sandbox.packageRoot + "/Tests/VaultCLITests/Support/power-loss.py"

    /// The system calls the model replays, as power-loss.py lists them.
    static func tracedCalls(_ sandbox: Sandbox) throws -> String {
        let result = try sandbox.run("/usr/bin/python3", [script, "--traced"])
        guard result.status == 0 else { throw SandboxError.setupFailed("power-loss.py --traced: \(result.stderr)") }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
