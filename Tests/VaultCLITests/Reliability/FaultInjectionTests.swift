import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue #37's fault-injection suite: every writing command run with the Nth system call of its
/// write path failing, N from 1 until the command completes, once failing only that call and once
/// failing it and every call after it. The calls are counted and failed by an LD_PRELOAD shim of
/// our own (Tests/FaultInjection/fault-shim.c: openat, write, fsync, fdatasync, rename, link,
/// unlink, mkdir, flock, sendfile and their variants, close), only on paths under the sandbox's
/// vault, state, data, config and runtime directories and the command's output directory, so N is
/// bounded by what the command writes. After every run:
/// - exit 0 only when the change is durable: the items are the command's, and no call that makes
///   the vault file or a raised key epoch durable failed; a raised epoch is recorded, settled;
/// - `vault verify` passes;
/// - every item reads as before or as after the command, never a mix;
/// - every state file reads as before or after (byte for byte, or, for the files sealed afresh on
///   every write, the same length as one of them), and no temp file is left once the next write ran;
/// - the next command (an add, and a get of it) works.
/// `make test` runs a sample (every command, a stride through N); `make reliability` runs every N
/// (VAULT_RELIABILITY=full). One summary line prints the injection points, commands and failures.
@Suite(.serialized) struct FaultInjectionTests {
    /// The shim, compiled once into a temp directory; nil with the reason when it cannot be.
    static let shim: Result<String, SandboxError> = {
        let source = Sandbox.packageRoot + "/Tests/FaultInjection/fault-shim.c"
        let directory = FileManager.default.temporaryDirectory.path + "/vault-fault-shim-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let output = directory + "/fault-shim.so"
        for name in ["/cc.out", "/cc.err"] { _ = FileManager.default.createFile(atPath: directory + name, contents: nil) }
        let status = try? Sandbox.spawn(
            "/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-o", output, source, "-ldl"],
            environment: ["PATH": "/usr/bin:/bin"], directory: directory,
            stdin: "/dev/null", stdout: directory + "/cc.out", stderr: directory + "/cc.err")
        guard status == 0 else {
            let err = FileManager.default.contents(atPath: directory + "/cc.err").map { String(decoding: $0, as: UTF8.self) } ?? ""
            return .failure(.setupFailed("cc could not build the fault shim (exit \(status.map(String.init) ?? "?")): \(err)"))
        }
        return .success(output)
    }()

    @Test func everyWritingCommandSurvivesEveryFailingCall() throws {
        let shim = try Self.shim.get()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: shim).deletingLastPathComponent().path) }
        let full = ReliabilityScale.isFull
        var points = 0, runs = 0, failures = 0, commands = 0
        var perCommand: [String] = []
        var kinds: [String: Int] = [:]
        for command in WritingCommand.all {
            let harness = try FaultHarness(command: command, shim: shim)
            let total = harness.reference.calls.count
            #expect(total > 0, "\(command.name): the shim counted no call; it does not see the command's writes")
            guard total > 0 else { continue }
            commands += 1
            points += total
            for call in harness.reference.calls { kinds[call.name, default: 0] += 1 }
            // The sample: about eight points per command, from a different start each command; then one past the last.
            let step = full ? 1 : max(1, total / 8)
            let sampled = Array(Swift.stride(from: 1 + commands % step, through: total, by: step))
            var commandFailures = 0
            for n in sampled + [total + 1] {
                for mode in ["once", "from"] {
                    let problems = try harness.run(failing: n, mode: mode)
                    runs += 1
                    if !problems.isEmpty {
                        commandFailures += 1
                        let which = mode == "once" ? "alone" : "and every later one"
                        let list = problems.joined(separator: "\n  ")
                        Issue.record("\(command.name), call \(n) of \(total) (\(harness.describe(n))) failing \(which):\n  \(list)")
                    }
                }
            }
            FileHandle.standardError.write(
                Data(
                    "FaultInjectionTests: \(command.name): \(total) points, \(sampled.count + 1) x 2 runs, \(commandFailures) failed\n".utf8
                ))
            failures += commandFailures
            perCommand.append("\(command.name) \(total)")
        }
        print(
            "FaultInjectionTests: \(points) injection points x 2 modes over \(commands) commands (\(perCommand.joined(separator: ", "))); \(runs) runs (\(full ? "every point" : "a sample"); VAULT_RELIABILITY=full runs every point), \(failures) failures"
        )
        let byKind = kinds.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("FaultInjectionTests: injection points by call: \(byKind)")
        #expect(commands == WritingCommand.all.count)
        // The shim must see every kind of call vault's write paths make (fdatasync and ftruncate it makes none of).
        for kind in ["openat", "write", "fsync", "close", "rename", "link", "unlink", "mkdir", "flock", "sendfile"] {
            #expect(kinds[kind, default: 0] > 0, "the shim saw no \(kind) call: it does not see what it is meant to fail")
        }
    }
}
