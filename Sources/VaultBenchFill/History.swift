// vault-bench-fill history: a vault file's git history of many commits, built in one process
// through the same Vault calls as the commands (addAll, update, addMember, revoke, removeMember)
// and written as a `git fast-import` stream on stdout, one commit per step: bench/exposure.sh
// and ExposureScaleTests read it with `vault exposure`. A commit per CLI process would cost a
// process start, an unlock and a `git commit` each; the file written is the same.
import VaultCore
import VaultCrypto

#if canImport(Glibc)
import Glibc
#endif

/// What `history` builds, from its arguments.
struct HistoryPlan {
    var vaultPath = ""
    var keyFile = ""
    /// The commits written, the fill included (at least 16).
    var commits = 0
    /// The items filled, one in four in group `ci`, the others in `default`.
    var items = 0
    /// The items updated by each commit that is not a member change or a re-key.
    var touched = 3
    /// The branch the commits go on, and the file's path in the repository.
    var ref = "refs/heads/main"
    var path = "bench.vault"
    /// The commit the first one follows (none: the first is a root commit).
    var parent: String?
    /// Recipients of `runner` (scoped to `ci`, read-only, added at commit 2) and `alice` (full,
    /// added at commit 3, removed half-way: a re-key of the whole vault).
    var runner: String?
    var alice: String?

    static let usage = """
        usage: vault-bench-fill history VAULT KEY_FILE COMMITS ITEMS [--touch N] [--ref REF] [--path PATH]
                                        [--parent COMMIT] [--runner RECIPIENT] [--alice RECIPIENT]

        """

    init?(_ arguments: [String]) {
        var positionals: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            guard let value = rest.popFirst() else { return nil }
            switch argument {
            case "--touch": guard let number = Int(value), number >= 1 else { return nil }; touched = number
            case "--ref": ref = value
            case "--path": path = value
            case "--parent": parent = value
            case "--runner": runner = value
            case "--alice": alice = value
            default: return nil
            }
        }
        guard positionals.count == 4, let commits = Int(positionals[2]), let items = Int(positionals[3]),
            commits >= 16, items >= 4
        else { return nil }
        (vaultPath, keyFile, self.commits, self.items) = (positionals[0], positionals[1], commits, items)
    }

    /// Commit `number`'s change (1: the fill): a revoke of `ci` a quarter of the way, alice's removal
    /// half-way, a revoke of `default` at three quarters, and else `touched` items updated.
    func step(_ number: Int) -> HistoryStep {
        switch number {
        case 1: .fill
        case 2 where runner != nil: .addRunner
        case 3 where alice != nil: .addAlice
        case commits / 4: .revoke("ci")
        case commits / 2 where alice != nil: .removeAlice
        case commits * 3 / 4: .revoke("default")
        default: .update((0..<touched).map { ((number * touched + $0) * 37) % items })
        }
    }

    func service(_ number: Int) -> String {
        "bench-" + String(repeating: "0", count: max(0, 6 - String(number).count)) + String(number)
    }

    func group(_ number: Int) -> AccessGroup { number % 4 == 0 ? AccessGroup("ci")! : .default }
}

/// One commit's change.
enum HistoryStep {
    case fill, addRunner, addAlice, removeAlice
    case revoke(String)
    case update([Int])
}

/// Runs the plan: each step through `vault`, then the file as it is, as one commit of the stream.
func writeHistory(_ plan: HistoryPlan) throws {
    let vault = Vault(location: VaultLocation(path: plan.vaultPath), credential: .keyFile(try KeyFile.read(path: plan.keyFile)))
    var stream = FastImportStream(ref: plan.ref, path: plan.path, parent: plan.parent)
    var written = 0
    // Each secret names its item and is never used twice (ExposureTests' oracle reads them as text).
    func secret(_ number: Int) -> SecretBytes {
        written += 1
        return SecretBytes(Array("\(plan.service(number)):bench:secret:\(written)".utf8))
    }
    for number in 1...plan.commits {
        let step = plan.step(number)
        switch step {
        case .fill:
            try vault.addAll(
                (0..<plan.items).map {
                    NewItem(service: plan.service($0), account: "bench", group: plan.group($0), secret: secret($0))
                })
        case .addRunner:
            try vault.addMember(
                name: "runner", recipient: try AgeRecipient(parsing: plan.runner ?? ""), groups: [AccessGroup("ci")!], readOnly: true)
        case .addAlice:
            try vault.addMember(name: "alice", recipient: try AgeRecipient(parsing: plan.alice ?? ""), groups: [], readOnly: false)
        case .removeAlice:
            _ = try vault.removeMember(named: "alice") { _ in }
        case .revoke(let group):
            try vault.revoke(group: AccessGroup(group)!)
        case .update(let numbers):
            for item in numbers {
                try vault.update(
                    matching: Query(service: plan.service(item), account: "bench", group: plan.group(item)),
                    with: ItemChange(secret: secret(item)))
            }
        }
        try stream.commit(message: "step \(number): \(step)", file: try contents(of: plan.vaultPath))
    }
}

/// A `git fast-import` stream on stdout: commits of one file on one branch.
struct FastImportStream {
    let ref: String
    let path: String
    var parent: String?
    var time = 1_700_000_000

    init(ref: String, path: String, parent: String?) {
        (self.ref, self.path, self.parent) = (ref, path, parent)
    }

    mutating func commit(message: String, file: [UInt8]) throws {
        time += 60
        var header = "commit \(ref)\ncommitter bench <bench@example.invalid> \(time) +0000\ndata \(message.utf8.count)\n\(message)\n"
        if let parent { header += "from \(parent)\n" }
        parent = nil
        header += "M 100644 inline \(path)\ndata \(file.count)\n"
        try Self.write(Array(header.utf8) + file + [0x0A])
    }

    static func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            guard count > 0 else { throw HistoryFailure("writing the stream: errno \(errno)") }
            offset += count
        }
    }
}

/// The bytes of the file at `path`.
func contents(of path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw HistoryFailure("\(path): errno \(errno)") }
    defer { fclose(file) }
    var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes += chunk[..<count]
    }
    guard ferror(file) == 0 else { throw HistoryFailure("\(path): a read failed") }
    return bytes
}

/// Why `history` stopped.
struct HistoryFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
