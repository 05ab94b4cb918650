import Foundation
import Synchronization
import Testing
import VaultTestSupport

/// Issue 50's oracle, the CLI side: every version of the vault file in ExposureTests' history, opened
/// by the built `vault` as each member (its identity, under the trust pin of that version) and each
/// credential (its file as `vault grant` wrote it), each time in a directory of its own with fresh
/// XDG state, runtime, data and config directories, so no rollback memory refuses an older version.
/// Every value the CLI opens there — each item's secret, notes and otp seed (`get --json --show-secret`), its conflict
/// versions (`get --conflict N`) and its revisions (`get --revision N`) — must be one that
/// `vault exposure --json` lists for that principal, counted as ExposureTests compares it. A version
/// vault refuses (a member not in it, a revoked or expired credential) opens nothing; each principal
/// must open some, so the check cannot pass with nothing opened. The trash stays out: the CLI reads
/// it only by `undelete`, a write a read-only principal may not make.
@Suite struct ExposureCLIOracleTests {
    typealias History = ExposureTests.History

    /// A member or a credential as the CLI takes it, and as `exposure` names it.
    struct Principal {
        let name: String
        let unlock: [String: String]
        let exposure: [String]
        let isMember: Bool
    }

    /// What the CLI opened as one principal: each value with where it was first opened, and how many
    /// versions it opened and it refused.
    struct Opened {
        var values: [String: String] = [:]
        var versions = 0
        /// The versions refused, by the first line vault gave.
        var refused: [String: Int] = [:]
    }

    @Test func everyValueTheCLIOpensIsListedByExposure() throws {
        let steps = ProcessInfo.processInfo.environment["VAULT_EXPOSURE_STEPS"].flatMap(Int.init) ?? 30
        var random = SeededGenerator(test: "ExposureCLIOracleTests")
        let seed = random.seed
        let history = try ExposureTests.teamHistory()
        try ExposureTests.walk(history, steps: steps / 2, random: &random)
        try ExposureCredentialTests.grant(history, "ci-read-only", ["--group", "ci", "--read-only"])
        try ExposureTests.walk(history, steps: steps - steps / 2, from: steps / 2, random: &random)
        let versions = try history.versions()
        let probe = try Sandbox()
        let ownerKey = history.s.path("key")
        let trusts = try Self.inParallel(versions.count) { number in
            try Self.trust(of: versions[number], key: ownerKey, probe: probe, place: "trust-\(number)")
        }
        let live = try history.liveValues()
        let principals =
            history.members.sorted { $0.key < $1.key }.map {
                Principal(name: $0.key, unlock: ["VAULT_IDENTITY": $0.value], exposure: ["--member", $0.key], isMember: true)
            }
            + history.credentials.sorted { $0.key < $1.key }.map {
                Principal(
                    name: "credential " + $0.key, unlock: ["VAULT_CREDENTIAL": $0.value], exposure: ["--grant", $0.key], isMember: false)
            }
        let openedBy = try Self.inParallel(principals.count) { try Self.open(versions, trusts: trusts, as: principals[$0], probe: probe) }
        var summary: [String] = [], runnerOpened: [String] = []
        for (principal, opened) in zip(principals, openedBy) {
            if principal.name == "runner" { runnerOpened = Array(opened.values.keys) }
            summary.append(
                "\(principal.name): \(opened.versions) opened, \(opened.refused.values.reduce(0, +)) refused \(opened.refused), \(opened.values.count) values"
            )
            #expect(opened.versions > 0, "seed \(seed): vault opened none of the \(versions.count) versions as \(principal.name)")
            let listed = try ExposureTests.exposure(history, principal.name, principal: principal.exposure)
            let byKey = Dictionary(grouping: opened.values.keys) { value in ExposureTests.expected([value], live: live).keys.first ?? "?" }
            for (key, values) in byKey.sorted(by: { $0.key < $1.key }) where values.count > listed[key, default: 0] {
                let places = values.sorted().map { "\($0) (\(opened.values[$0] ?? "?"))" }
                #expect(
                    Bool(false),
                    """
                    seed \(seed) (VAULT_TEST_SEED=\(seed) replays it): as \(principal.name) vault opens \(values.count) of \(key), \
                    exposure lists \(listed[key, default: 0]): \(places.joined(separator: ", "))
                    """)
            }
        }
        print("ExposureCLIOracleTests: \(versions.count) versions; " + summary.joined(separator: "; "))
        // The read-only runner opens deploy's secret as it was when the runner was added (ExposureTests.teamHistory).
        #expect(runnerOpened.contains("deploy:ci:secret:4"), "seed \(seed): as the runner vault opens none of the values it was added to")
    }

    /// `body` of 0..<count, side by side (each call works in directories of its own), in order.
    static func inParallel<T: Sendable>(_ count: Int, _ body: @Sendable (Int) throws -> T) throws -> [T] {
        let results = Mutex([Result<T, Error>?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = Result { try body(index) }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { $0 }.map { try #require($0).get() }
    }

    /// `vault trust` of a version, by the owner's key file, in a fresh state (the pin a member is given).
    static func trust(of version: String, key: String, probe: Sandbox, place: String) throws -> String {
        let environment = try fresh(version, probe: probe, place: place).merging(["VAULT_KEY_FILE": key]) { $1 }
        let result = try probe.vault(["trust"], environment: environment)
        return result.status == 0 ? result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) : ""
    }

    /// A copy of `version` in a directory of its own with empty XDG directories: the environment that reads it.
    static func fresh(_ version: String, probe: Sandbox, place: String) throws -> [String: String] {
        let directory = probe.path(place)
        var environment = ["VAULT_PATH": directory + "/team.vault"]
        for (variable, name) in [
            ("XDG_STATE_HOME", "state"), ("XDG_RUNTIME_DIR", "run"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config")
        ] {
            try FileManager.default.createDirectory(
                atPath: directory + "/" + name, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            environment[variable] = directory + "/" + name
        }
        try FileManager.default.copyItem(atPath: version, toPath: directory + "/team.vault")
        return environment
    }

    /// The items read in each version, so the calls per version stay bounded whatever the vault holds.
    static let itemsPerVersion = 2

    /// Every value the CLI opens as `principal` in each version: its items (`itemsPerVersion` of them,
    /// the next ones each version), their revisions (once per item and current secret: an item's
    /// revisions change only with its secret) and every conflict version.
    static func open(_ versions: [String], trusts: [String], as principal: Principal, probe: Sandbox) throws -> Opened {
        var opened = Opened()
        var revisionsRead: Set<String> = []
        for (number, version) in versions.enumerated() {
            let name = URL(fileURLWithPath: version).lastPathComponent
            var environment = try fresh(
                version, probe: probe, place: "\(principal.name.replacingOccurrences(of: " ", with: "-"))-\(number)"
            )
            .merging(principal.unlock) { $1 }
            if principal.isMember { environment["VAULT_TRUST"] = trusts[number] }
            func run(_ arguments: [String]) throws -> RunResult { try probe.vault(arguments, environment: environment) }
            func note(_ bytes: [UInt8], _ how: String) {
                let value = String(decoding: bytes, as: UTF8.self)
                if opened.values[value] == nil { opened.values[value] = "\(name): \(how)" }
            }
            let list = try run(["list", "--json"])
            guard list.status == 0 else {
                opened.refused["\(list.status) \(list.stderr.split(separator: "\n").first ?? "")", default: 0] += 1
                continue
            }
            opened.versions += 1
            let items = try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [[String: Any]] ?? []
            // At most `itemsPerVersion` items read, the next ones each version: items change little from one version to the next.
            for index in items.indices.prefix(itemsPerVersion) {
                let listed = items[(index + number * itemsPerVersion) % items.count]
                let names = [
                    "-s", listed["service"] as? String ?? "", "-a", listed["account"] as? String ?? "", "--group",
                    listed["group"] as? String ?? ""
                ]
                let label = names.joined(separator: " ")
                let got = try run(["get"] + names + ["--json", "--show-secret"])
                let item = got.status == 0 ? try JSONSerialization.jsonObject(with: Data(got.stdout)) as? [String: Any] ?? [:] : [:]
                for field in ["secret", "notes", "otp"] {
                    if let text = item[field] as? String { note(Array(text.utf8), "\(field) of \(label)") }
                }
                guard revisionsRead.insert(label + " " + (item["secret"] as? String ?? "")).inserted else { continue }
                for revision in 1...8 {
                    let read = try run(["get"] + names + ["--revision", String(revision)])
                    guard read.status == 0 else { break }
                    note(read.stdout, "revision \(revision) of \(label)")
                }
            }
            for conflict in try JSONSerialization.jsonObject(with: Data(try run(["conflicts", "--json"]).stdout)) as? [[String: Any]] ?? []
            {
                let names = ["service", "account", "group"].map { conflict[$0] as? String ?? "" }
                let label = "-s \(names[0]) -a \(names[1]) --group \(names[2])"
                for number in 1...((conflict["older_versions"] as? Int ?? 0) + 1) {
                    let read = try run(["get", "-s", names[0], "-a", names[1], "--group", names[2], "--conflict", String(number)])
                    if read.status == 0 { note(read.stdout, "conflict \(number) of \(label)") }
                }
            }
        }
        return opened
    }
}
