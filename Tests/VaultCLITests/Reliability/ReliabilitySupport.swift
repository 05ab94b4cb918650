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
        pid = try Sandbox.launch(
            Sandbox.vaultBinary, arguments, environment: sandbox.environment, directory: sandbox.home,
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

/// The writing commands of issue 37's list, each on the same small vault (github/ci = "token" in
/// group default, s2/x = "a" in group ci, s3/x = "bound" in group default bound to this device,
/// unlocked by the key file): what each needs set up, its
/// arguments, and the probes that tell its before from its after where the items and the key epoch
/// do not. The full-filesystem and power-loss suites run this one table.
struct WritingCommand: Sendable {
    /// A check whose answer joins a `VaultObservation`: a label and what it printed.
    struct Probe: Sendable {
        let label: String
        let run: @Sendable (Sandbox) throws -> String
    }

    let name: String
    /// Sets up what the command needs on the common vault; returns its arguments and stdin.
    let prepare: @Sendable (Sandbox) throws -> (arguments: [String], stdin: String)
    var probes: [Probe] = []
    /// Whether a state between its before and its after is one it completes when run again (first-run's
    /// wipe on the disk, its marker not yet): such a state passes when the run again leaves the after.
    var resumes = false
    /// Whether a change it acknowledged (exit 0) must survive a power loss. Not for a new session:
    /// the runtime directory is a tmpfs that a power loss empties anyway, and losing one is harmless.
    var durable = true

    /// The common vault in the sandbox's default place, unlocked by the key file.
    static func makeVault(_ sandbox: Sandbox) throws {
        sandbox.environment["CI"] = "true"
        try sandbox.initWithKeyFile()
        // s3 is sealed under this machine's device key too: a rekey replaces that key (pending, then published).
        for (service, group, secret, accessibility) in [
            ("github", "default", "token", "when-unlocked"), ("s2", "ci", "a", "when-unlocked"),
            ("s3", "default", "bound", "when-unlocked-this-device-only")
        ] {
            let account = service == "github" ? "ci" : "x"
            let result = try sandbox.vault(
                ["add", "-s", service, "-a", account, "--group", group, "--class", accessibility], stdin: Array(secret.utf8))
            guard result.status == 0 else { throw SandboxError.setupFailed("add \(service): \(result.stderr)") }
        }
    }

    /// Runs `vault ARGS` for a setup step, throwing when it fails.
    static func setUp(_ sandbox: Sandbox, _ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws
        -> RunResult
    {
        let result = try sandbox.vault(arguments, stdin: Array(stdin.utf8), environment: environment)
        guard result.status == 0 else { throw SandboxError.setupFailed("vault \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result
    }

    /// Whether the credential file `c.cred` opens group ci's item (without the key file).
    static let credentialOpens = Probe(label: "credential c.cred") { sandbox in
        let result = try sandbox.vault(
            ["get", "--credential", sandbox.path("c.cred"), "-s", "s2", "-a", "x"], environment: ["VAULT_KEY_FILE": ""])
        return result.status == 0 ? "opens" : "does not open"
    }
    /// The names of the members.
    static let members = Probe(label: "members") { sandbox in
        let result = try sandbox.vault(["member", "list", "--json"])
        guard result.status == 0 else { return "member list exited \(result.status)" }
        return result.stdoutText.components(separatedBy: "\"name\":\"").dropFirst().map { $0.prefix { $0 != "\"" } }.joined(separator: ",")
    }
    /// Where the harness keeps the token of the session a command started (`unlock --raw` prints it).
    static func sessionTokenPath(_ sandbox: Sandbox) -> String { sandbox.path(".session-token") }
    /// Whether the session whose token was kept opens the vault (a session file that is only there,
    /// its key wiped, does not).
    static let sessions = Probe(label: "session") { sandbox in
        let token = FileManager.default.contents(atPath: sessionTokenPath(sandbox)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard token.hasPrefix("vs1_") else { return "does not open" }
        let result = try sandbox.vault(
            ["get", "-s", "github", "-a", "ci"],
            environment: ["VAULT_KEY_FILE": "", "VAULT_SESSION": token.trimmingCharacters(in: .whitespacesAndNewlines)])
        return result.status == 0 ? "opens" : "does not open"
    }

    /// Keeps the session token a run printed, for `sessions`.
    static func keepSessionToken(_ result: RunResult, _ sandbox: Sandbox) throws {
        if result.stdoutText.hasPrefix("vs1_") { try sandbox.write(sessionTokenPath(sandbox), result.stdout) }
    }

    static let all: [WritingCommand] = [
        WritingCommand(name: "add") { _ in (["add", "-s", "new", "-a", "x"], "new-secret") },
        WritingCommand(name: "update") { _ in (["update", "-s", "github", "-a", "ci"], "token-2") },
        WritingCommand(name: "delete") { _ in (["delete", "-s", "github", "-a", "ci"], "") },
        WritingCommand(name: "rekey") { _ in (["rekey", "--yes"], "") },
        WritingCommand(
            name: "passwd",
            prepare: { sandbox in
                try sandbox.write("passphrase", Array("a new passphrase".utf8))
                return (["passwd", "--new-passphrase-file", sandbox.path("passphrase")], "")
            },
            probes: [
                Probe(label: "passphrase") { sandbox in
                    let result = try sandbox.vault(
                        ["env", "--format", "json"],
                        environment: ["VAULT_KEY_FILE": "", "VAULT_PASSPHRASE_FILE": sandbox.path("passphrase")])
                    return result.status == 0 ? "opens" : "does not open"
                }
            ]),
        WritingCommand(
            name: "grant",
            prepare: { sandbox in
                (["grant", "--group", "ci", "--out", sandbox.path("c.cred")], "")
            }, probes: [credentialOpens]),
        WritingCommand(
            name: "revoke",
            prepare: { sandbox in
                _ = try setUp(sandbox, ["grant", "--group", "ci", "--out", sandbox.path("c.cred")])
                return (["revoke", "--group", "ci"], "")
            }, probes: [credentialOpens]),
        WritingCommand(
            name: "member add",
            prepare: { sandbox in
                let recipient = try setUp(sandbox, ["identity", "new", "--out", sandbox.path("runner.identity")]).stdoutText
                return (
                    ["member", "add", "runner", recipient.trimmingCharacters(in: .whitespacesAndNewlines), "--group", "ci", "--read-only"],
                    ""
                )
            }, probes: [members]),
        WritingCommand(
            name: "member remove",
            prepare: { sandbox in
                let recipient = try setUp(sandbox, ["identity", "new", "--out", sandbox.path("runner.identity")]).stdoutText
                _ = try setUp(
                    sandbox,
                    ["member", "add", "runner", recipient.trimmingCharacters(in: .whitespacesAndNewlines), "--group", "ci", "--read-only"])
                return (["member", "remove", "runner", "--yes"], "")
            }, probes: [members]),
        WritingCommand(
            name: "merge-driver",
            prepare: { sandbox in
                // theirs: the vault as it was plus an item, written under its own state directory (this
                // machine's counters would call the copy a rollback); ours: the vault plus another item.
                let base = sandbox.path("base.vault"), theirs = sandbox.path("theirs.vault")
                try FileManager.default.copyItem(atPath: sandbox.vaultPath, toPath: base)
                try FileManager.default.copyItem(atPath: sandbox.vaultPath, toPath: theirs)
                _ = try setUp(
                    sandbox, ["--vault", theirs, "add", "-s", "theirs", "-a", "x"], stdin: "from-theirs",
                    environment: ["XDG_STATE_HOME": sandbox.path("theirs-state")])
                _ = try setUp(sandbox, ["add", "-s", "ours", "-a", "x"], stdin: "from-ours")
                return (["merge-driver", base, sandbox.vaultPath, theirs, "default.vault"], "")
            }),
        WritingCommand(
            name: "import",
            prepare: { sandbox in
                _ = try setUp(sandbox, ["add", "-s", "imported", "-a", "x"], stdin: "from-bundle")
                _ = try setUp(sandbox, ["export", "--out", sandbox.path("b.vexport"), "--bundle-key-file", sandbox.path("bundle.key")])
                _ = try setUp(sandbox, ["delete", "-s", "imported", "-a", "x"])
                return (["import", sandbox.path("b.vexport"), "--bundle-key-file", sandbox.path("bundle.key"), "--on-conflict", "skip"], "")
            }),
        WritingCommand(
            name: "first-run",
            prepare: { sandbox in
                // In a directory it makes (a runner's workspace): its mkdir is one of the calls that may fail.
                (["first-run", "--marker", sandbox.path("out/markers/first-run"), "--group", "ci"], "")
            },
            probes: [
                Probe(label: "marker") { sandbox in
                    FileManager.default.fileExists(atPath: sandbox.path("out/markers/first-run")) ? "present" : "absent"
                }
            ], resumes: true),
        WritingCommand(name: "unlock", prepare: { _ in (["unlock", "--raw"], "") }, probes: [sessions], durable: false),
        WritingCommand(
            name: "lock",
            prepare: { sandbox in
                try keepSessionToken(try setUp(sandbox, ["unlock", "--raw"]), sandbox)
                return (["lock", "--all"], "")
            }, probes: [sessions]),
        WritingCommand(name: "wipe") { _ in (["wipe", "--group", "ci", "--yes"], "") }
    ]

    /// The commands `make test` runs (every one in `make reliability`); VAULT_WRITING_COMMANDS="first-run,lock" runs those only.
    static var sample: [WritingCommand] {
        if let names = ProcessInfo.processInfo.environment["VAULT_WRITING_COMMANDS"], !names.isEmpty {
            let chosen = Set(names.split(separator: ",").map(String.init))
            return all.filter { chosen.contains($0.name) }
        }
        return ReliabilityScale.isFull ? all : all.filter { ["add", "rekey", "passwd", "revoke", "first-run", "lock"].contains($0.name) }
    }
}

extension WritingCommand {
    init(name: String, prepare: @escaping @Sendable (Sandbox) throws -> (arguments: [String], stdin: String)) {
        self.init(name: name, prepare: prepare, probes: [], resumes: false, durable: true)
    }
}

/// What a reader can see of the vault: whether it verifies, its key epoch and write generation,
/// every item's secret, and a command's probes. Equal observations: the same vault to a reader.
struct VaultObservation: Equatable, CustomStringConvertible {
    let text: String
    /// Whether `vault verify` passed and `vault env` read every item.
    let readable: Bool

    var description: String { text }

    static func take(_ sandbox: Sandbox, probes: [WritingCommand.Probe] = []) throws -> VaultObservation {
        let verify = try sandbox.vault(["verify", "--json"])
        func number(_ key: String) -> String {
            guard let range = verify.stdoutText.range(of: "\"\(key)\":") else { return "?" }
            return String(verify.stdoutText[range.upperBound...].prefix { $0.isNumber })
        }
        let items = try sandbox.vault(["env", "--format", "json"])
        var lines = [
            "verify: exit \(verify.status), key epoch \(number("key_epoch")), generation \(number("write_generation"))",
            "items: " + (items.status == 0 ? items.stdoutText.split(separator: "\n").joined() : "exit \(items.status): \(items.stderr)")
        ]
        if verify.status != 0 { lines.append("verify said: \(verify.stderr)") }
        for probe in probes { lines.append("\(probe.label): \(try probe.run(sandbox))") }
        return VaultObservation(text: lines.joined(separator: "\n"), readable: verify.status == 0 && items.status == 0)
    }

    /// The same items and probes as `other`, whatever the key epoch and generation.
    func sameItems(as other: VaultObservation) -> Bool {
        text.split(separator: "\n").dropFirst() == other.text.split(separator: "\n").dropFirst()
    }

    /// Whether a state that is neither `before` nor `after` is one `command` completes: run again
    /// here, it exits 0 and leaves `after`'s items and probes. Nil when it does; else what it left.
    static func resumed(
        _ sandbox: Sandbox, _ command: WritingCommand, arguments: [String], stdin: String,
        after: VaultObservation
    ) throws -> String? {
        guard command.resumes else { return "" }
        let again = try sandbox.vault(arguments, stdin: Array(stdin.utf8))
        let seen = try take(sandbox, probes: command.probes)
        return again.status == 0 && seen.readable && seen.sameItems(as: after)
            ? nil : "run again it exited \(again.status) and left:\n\(seen)"
    }

    /// The next write and a verify after it work: nothing a crash or a full disk left blocks the vault.
    static func nextCommandWorks(_ sandbox: Sandbox) throws -> String? {
        let add = try sandbox.vault(["add", "--update", "-s", "next", "-a", "x"], stdin: Array("next".utf8))
        guard add.status == 0 else { return "the next add exited \(add.status): \(add.stderr)" }
        let verify = try sandbox.vault(["verify"])
        return verify.status == 0 ? nil : "verify after the next add exited \(verify.status): \(verify.stderr)"
    }
}

/// The key epoch and write generation the sandbox's seen counters hold (nil where there are none).
/// Read them before anything else opens the vault: a read raises them to what it sees.
struct SeenCountersFile: Equatable, CustomStringConvertible {
    var epoch: String?, generation: String?
    var description: String { "key epoch \(epoch ?? "none"), generation \(generation ?? "none")" }

    static func read(_ sandbox: Sandbox) -> SeenCountersFile {
        let directory = sandbox.path(".local/state/vault/seen")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            !$0.hasPrefix(".") && !$0.hasSuffix(".lock")
        }
        var counters = SeenCountersFile()
        for name in names {
            for line in String(decoding: sandbox.read(directory + "/" + name) ?? [], as: UTF8.self).split(separator: "\n") {
                if line.hasPrefix("epoch ") { counters.epoch = String(line.dropFirst(6)) }
                if line.hasPrefix("generation ") { counters.generation = String(line.dropFirst(11)) }
            }
        }
        return counters
    }
}
