import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension Sandbox {
    func expectSuccess(_ arguments: [String], stdin: String = "") throws {
        let result = try vault(arguments, stdin: Array(stdin.utf8))
        guard result.status == 0 else {
            throw SandboxError.setupFailed("vault \(arguments.joined(separator: " ")): exit \(result.status): \(result.stderr)")
        }
    }

    /// The age recipient of identity `name` (made under out/ on first use).
    func recipient(_ name: String) -> String {
        let file = path("identities/\(name).pub")
        if let known = read(file) { return String(decoding: known, as: UTF8.self) }
        try? FileManager.default.createDirectory(atPath: path("identities"), withIntermediateDirectories: true)
        let made = try? vault(["identity", "new", "--out", path("identities/\(name).identity")])
        // With --out FILE the recipient is the line printed on stdout.
        let recipient = (made?.stdoutText ?? "").split(separator: "\n").first { $0.hasPrefix("age1") }.map(String.init) ?? ""
        try? write(file, Array(recipient.utf8))
        return recipient
    }
}

/// A sandbox kept as it was after one command's preparation, restored before every run.
final class FaultHarness {
    struct Reference {
        var status: Int32
        var calls: [(name: String, path: String)]
        var items: [String]
        var files: [String: [UInt8]]
        var epoch: Int?
    }

    let command: WritingCommand
    /// The command's arguments and standard input, as its preparation gave them.
    let arguments: [String]
    let stdin: String
    let sandbox: Sandbox
    let shim: String
    private let pristine: String
    let before: (items: [String], files: [String: [UInt8]], epoch: Int?)
    private(set) var reference: Reference!

    /// Where calls count: the vault's, state, data, config and runtime directories, and the files
    /// the commands write outside them (grant's credential).
    var watched: [String] {
        [sandbox.path(".local"), sandbox.path(".config"), sandbox.path("run"), sandbox.path("out"), sandbox.path("c.cred")]
    }

    init(command: WritingCommand, shim: String) throws {
        self.command = command
        self.shim = shim
        sandbox = try Sandbox()
        // The vault and commands of the power-loss and full-filesystem suites (`WritingCommand`).
        try WritingCommand.makeVault(sandbox)
        try FileManager.default.createDirectory(atPath: sandbox.path("out"), withIntermediateDirectories: true)
        (arguments, stdin) = try command.prepare(sandbox)
        pristine = sandbox.home + ".pristine"
        _ = try sandbox.run("/bin/cp", ["-a", sandbox.home, pristine])
        before = (try Self.items(sandbox), Self.files(sandbox), try Self.epoch(sandbox))
        try restore()
        let log = sandbox.path(".fault-log")
        let result = try sandbox.vault(arguments, stdin: Array(stdin.utf8), environment: environment(n: 0, mode: "once", log: log))
        let calls = Self.calls(in: log)
        try? FileManager.default.removeItem(atPath: log)
        reference = Reference(
            status: result.status, calls: calls, items: try Self.items(sandbox), files: Self.files(sandbox), epoch: try Self.epoch(sandbox))
        guard result.status == 0 else {
            throw SandboxError.setupFailed("\(command.name) without a fault exited \(result.status): \(result.stderr)")
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: pristine)
    }

    /// What call `n` of the reference run was.
    func describe(_ n: Int) -> String {
        guard n >= 1, n <= reference.calls.count else { return "past the last call" }
        let call = reference.calls[n - 1]
        return "\(call.name) \(call.path.replacingOccurrences(of: sandbox.home, with: "~"))"
    }

    /// The errno a failing call of this kind gets: the ones it may really see, in turn.
    func errnoName(for n: Int) -> String {
        let name = n >= 1 && n <= reference.calls.count ? reference.calls[n - 1].name : "write"
        let choices: [String]
        switch name {
        case "write", "sendfile": choices = ["ENOSPC", "EIO", "EDQUOT"]
        case "fsync", "fdatasync", "close": choices = ["EIO", "ENOSPC", "EDQUOT"]
        case "openat", "mkdir", "link", "rename": choices = ["EACCES", "ENOSPC", "EIO", "EDQUOT"]
        case "flock": choices = ["37"]  // ENOLCK
        default: choices = ["EIO", "EACCES"]
        }
        return choices[n % choices.count]
    }

    func environment(n: Int, mode: String, log: String) -> [String: String] {
        [
            "LD_PRELOAD": shim, "FAULT_DIRS": watched.joined(separator: ":"), "FAULT_N": String(n), "FAULT_MODE": mode,
            "FAULT_ERRNO": errnoName(for: n), "FAULT_LOG": log
        ]
    }

    /// Runs the command with call `n` failing (alone, or with every later one), then checks the invariants; the problems found.
    func run(failing n: Int, mode: String) throws -> [String] {
        try restore()
        let log = sandbox.path(".fault-log")
        let result = try sandbox.vault(arguments, stdin: Array(stdin.utf8), environment: environment(n: n, mode: mode, log: log))
        let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        let failed = lines.filter { $0.hasSuffix(" FAILED") }
        let firstVaultTemporary =
            lines.first { $0.contains(" openat ") && $0.contains("/.default.vault.tmp-") }
            .flatMap { Int($0.prefix { $0.isNumber }) } ?? Int.max
        try? FileManager.default.removeItem(atPath: log)
        // As the command left it: the reads below record what they check.
        let recordLeft = seenRecord()
        var problems: [String] = []
        let said =
            "exit \(result.status)\(result.stderr.isEmpty ? "" : ": " + result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        let generation = try Self.counter("write_generation", sandbox)
        let verify = try sandbox.vault(["verify"])
        if verify.status != 0 { problems.append("vault verify exited \(verify.status) after \(said): \(verify.stderr)") }
        let items = try Self.items(sandbox)
        let isBefore = items == before.items, isAfter = items == reference.items
        if !isBefore && !isAfter { problems.append("the items are neither as before nor as after (\(said)): \(items)") }
        if result.status == 0 {
            if !isAfter { problems.append("exit 0, but the items are not the command's") }
            // The seen record counts from the new vault file's creation on: a raise is recorded there, not by an earlier read.
            let logged = failed.map { line in (Int(line.prefix { $0.isNumber }) ?? 0, line) }
            let durable = logged.filter { isDurabilityCall($0.1) && (!$0.1.contains("/seen/") || $0.0 > firstVaultTemporary) }.map(\.1)
            if !durable.isEmpty {
                problems.append("exit 0 although a call that makes the change durable failed: \(durable.joined(separator: "; "))")
            }
            if let raised = reference.epoch, raised != before.epoch, let generation,
                !(recordLeft?.hasPrefix("epoch \(raised)\ngeneration \(generation)\n") == true && recordLeft?.contains("previous") == false)
            {
                problems.append(
                    "exit 0, but this machine's record is not the file's key epoch \(raised) and generation \(generation), settled: \(recordLeft.debugDescription)"
                )
            }
        } else if result.stderr.split(separator: "\n").isEmpty {
            problems.append("exit \(result.status) with nothing said")
        }
        problems += stateFileProblems(mode: mode)
        let next = try sandbox.vault(["add", "-s", "next", "-a", "check"], stdin: Array("next-secret".utf8))
        let read = try sandbox.vault(["get", "-s", "next", "-a", "check"])
        if next.status != 0 || read.stdoutText != "next-secret" {
            problems.append(
                "the next command failed after \(said): add exited \(next.status) \(next.stderr) get exited \(read.status) \(read.stderr)")
        }
        // A new device key a failed re-key made, when even removing it failed, goes with the next write.
        let leftovers = Self.allFiles(under: sandbox.path(".local")).filter { $0.contains(".tmp-") || $0.hasSuffix(".key.pending") }
        if !leftovers.isEmpty { problems.append("temp files left after the next write: \(leftovers)") }
        return problems
    }

    /// A failed call that, when the command still exits 0, makes it claim a change that may not survive a crash:
    /// writing or syncing the new file (a temp file), renaming or linking it into place, or syncing the directory
    /// it went into; in the vault's directory, the command's output directory, and, for a command that raises the
    /// key epoch, the seen record's. Reads (an open of the file in place) and removing leftovers are not.
    private func isDurabilityCall(_ line: String) -> Bool {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 3 else { return false }
        let name = words[1], path = words[2]
        var directories = [sandbox.path(".local/share/vault"), sandbox.path("out")]
        if reference.epoch != before.epoch { directories.append(sandbox.path(".local/state/vault/seen")) }
        guard let directory = directories.first(where: { path == $0 || path.hasPrefix($0 + "/") }) else { return false }
        if path == directory { return name == "openat" || name == "fsync" || name == "fdatasync" }
        let isTemporary = path.contains(".tmp-") && !path.contains("/device-keys/")
        if ["write", "sendfile", "fsync", "fdatasync", "close", "openat"].contains(name) { return isTemporary }
        return (name == "rename" || name == "link") && !path.contains("/device-keys/")
    }

    private func seenRecord() -> String? {
        let directory = sandbox.path(".local/state/vault/seen")
        guard let name = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.first(where: { !$0.contains(".") }) else {
            return nil
        }
        return try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    /// Every state file as before or as after: the same bytes as one of them, or (sealed afresh with new nonces) the same length.
    private func stateFileProblems(mode: String) -> [String] {
        var problems: [String] = []
        let now = Self.files(sandbox)
        for (name, bytes) in now
        where !name.contains(".tmp-") && !name.hasSuffix(".session") && !(mode == "from" && name.hasSuffix(".key.pending")) {
            let old = before.files[name], new = reference.files[name]
            if bytes == old || bytes == new { continue }
            if name.contains("/seen/") {
                let text = String(decoding: bytes, as: UTF8.self)
                // A write that did not land, or one whose record of a raise a later read settles, may leave `previous`.
                if text.contains("previous") { continue }
                // The write id is made afresh by every write: a record is as after when it differs from it in that alone.
                let sameButTheWriteID = { (other: [UInt8]?) in other.map { Self.withoutWriteID($0) == Self.withoutWriteID(bytes) } ?? false
                }
                if sameButTheWriteID(old) || sameButTheWriteID(new) { continue }
                problems.append("the seen record \(name) is neither as before nor as after: \(text.debugDescription)")
            } else if bytes.count != old?.count && bytes.count != new?.count {
                problems.append(
                    "state file \(name) is neither as before (\(old.map { "\($0.count) bytes" } ?? "absent")) nor as after (\(new.map { "\($0.count) bytes" } ?? "absent")): \(bytes.count) bytes"
                )
            }
        }
        // A session's file is named by its random token: one more or fewer than before or after is a mix.
        let sessions = { (files: [String: [UInt8]]) in files.keys.filter { $0.hasSuffix(".session") }.count }
        if sessions(now) != sessions(before.files) && sessions(now) != sessions(reference.files) {
            problems.append(
                "\(sessions(now)) session files, neither as before (\(sessions(before.files))) nor as after (\(sessions(reference.files)))")
        }
        return problems
    }

    /// A seen record's lines but its `write-id`, with whether it had one (the id is random per write).
    private static func withoutWriteID(_ bytes: [UInt8]) -> (lines: [Substring], hadWriteID: Bool) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        let kept = lines.filter { !$0.hasPrefix("write-id ") }
        return (kept, kept.count != lines.count)
    }

    private func restore() throws {
        let result = try sandbox.run(
            "/bin/sh",
            [
                "-c", "find \"$0\" -mindepth 1 -maxdepth 1 ! -name '.io-*' -exec rm -rf {} + && cp -a \"$1\"/. \"$0\"/",
                sandbox.home, pristine
            ])
        guard result.status == 0 else { throw SandboxError.setupFailed("restore: \(result.stderr)") }
    }

    static func calls(in log: String) -> [(name: String, path: String)] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            return (words.count > 1 ? words[1] : "?", words.count > 2 ? words[2] : "")
        }
    }

    /// Every item with its secret, as sorted lines (dates left out: a run later than the reference stamps later ones).
    static func items(_ sandbox: Sandbox) throws -> [String] {
        let list = try sandbox.vault(["list", "--json"])
        guard list.status == 0, let array = try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [[String: Any]] else {
            return ["list exited \(list.status): \(list.stderr)"]
        }
        var lines: [String] = []
        for item in array {
            let service = item["service"] as? String ?? "", account = item["account"] as? String ?? "",
                group = item["group"] as? String ?? ""
            let secret = try sandbox.vault(["get", "-s", service, "-a", account, "--group", group])
            let attributes = item.filter { !$0.key.contains("created") && !$0.key.contains("modified") && !$0.key.hasSuffix("_at") }
                .map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
            lines.append(
                "\(group)/\(service)/\(account) [\(attributes)] = \(secret.status == 0 ? secret.stdoutText : "exit \(secret.status)")")
        }
        return lines.sorted()
    }

    static func epoch(_ sandbox: Sandbox) throws -> Int? {
        try counter("key_epoch", sandbox)
    }

    /// A counter of the file in place, as `vault verify --json` gives it.
    static func counter(_ name: String, _ sandbox: Sandbox) throws -> Int? {
        let result = try sandbox.vault(["verify", "--json"])
        guard result.status == 0, let range = result.stdoutText.range(of: "\"\(name)\":") else { return nil }
        return Int(result.stdoutText[range.upperBound...].prefix { $0.isNumber })
    }

    /// The state, data (other than the vault file), config, runtime and output files, by path under HOME.
    static func files(_ sandbox: Sandbox) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for directory in [".local", ".config", "run", "out"] {
            for path in allFiles(under: sandbox.path(directory)) where !path.hasSuffix("/default.vault") && !path.hasSuffix(".lock") {
                files[String(path.dropFirst(sandbox.home.count))] = sandbox.read(path) ?? []
            }
        }
        return files
    }

    static func allFiles(under directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var paths: [String] = []
        while let name = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + name
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { paths.append(path) }
        }
        return paths
    }
}
