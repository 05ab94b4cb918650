import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How hard the reliability tests push: a short pass in `make test` (CI), a
/// long one in `make reliability`, which sets VAULT_RELIABILITY=full.
enum ReliabilityScale {
    static let isFull = ProcessInfo.processInfo.environment["VAULT_RELIABILITY"] == "full"

    static func pick(short: Int, full: Int) -> Int { isFull ? full : short }
}

/// A `vault` process started in a sandbox and not yet waited for.
struct RunningVault {
    let pid: pid_t
    private let io: String

    /// Starts `vault ARGS` with `stdin` as its input; stdout and stderr go to files read by `finish`.
    init(_ sandbox: Sandbox, _ arguments: [String], stdin: String = "") throws {
        io = sandbox.home + "/.io-" + UUID().uuidString
        try Data(stdin.utf8).write(to: URL(fileURLWithPath: io + ".in"))
        _ = FileManager.default.createFile(atPath: io + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: io + ".err", contents: nil)
        pid = try Sandbox.launch(Sandbox.vaultBinary, arguments, environment: sandbox.environment, directory: sandbox.home,
                                 stdin: io + ".in", stdout: io + ".out", stderr: io + ".err")
    }

    /// Kills the process with SIGKILL (it may have exited already).
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the process and returns what it did (status 137 when SIGKILL ended it).
    func finish() -> RunResult {
        let status = Sandbox.waitForExit(pid)
        defer {
            for suffix in [".in", ".out", ".err"] { try? FileManager.default.removeItem(atPath: io + suffix) }
        }
        let out = FileManager.default.contents(atPath: io + ".out").map { Array($0) } ?? []
        let err = FileManager.default.contents(atPath: io + ".err").map { String(decoding: $0, as: UTF8.self) } ?? ""
        return RunResult(status: status, stdout: out, stderr: err)
    }
}

/// Thread-safe collection of what parallel workers saw.
final class Ledger<Entry>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Entry] = []

    func append(_ entry: Entry) {
        lock.lock()
        items.append(entry)
        lock.unlock()
    }

    var entries: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
