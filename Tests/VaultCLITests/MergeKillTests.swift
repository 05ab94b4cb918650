import Foundation
import Testing
import VaultTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The merge is one write (docs/TEAMS.md, "How a merge works"): `vault merge-driver` and `vault sync`
/// killed with SIGKILL at random moments, end to end with the built binary and real git, on the team of
/// `TeamSyncTests.makeTeam()` (alice the owner, bob a full member, ci-runner a read-only member of ci).
///
/// Every run: alice removes carol — a full member, or a read-write member of group ci, chosen by the
/// run's seed — and writes a secret after the removal, and syncs; bob has a change of his own committed;
/// bob merges alice's work.
///
/// - The driver: `vault merge-driver BASE OURS THEIRS team.vault` on copies of the merge base's, bob's
///   and origin's files (what git would hand it), killed after a random delay. OURS must then be
///   byte for byte what it was, or the whole merge: it opens with bob's identity and with the owner's
///   passphrase, verifies intact at the key epoch of the removal, holds alice's secret and bob's change,
///   lists no carol; and carol's identity opens nothing of it, while the keys of the slot she had open
///   nothing written since (no key in it is one her old slot gave).
/// - `vault sync` in bob's clone (with the merge driver configured or not, by the seed), killed after a
///   random delay; then `vault sync` again, not killed: it exits 0 and leaves the clone settled (no
///   merge in progress, nothing uncommitted, the remote at bob's HEAD), both commits in bob's history,
///   nothing committed lost, and carol's identity opens nothing of the final file.
/// - One kill point of `vault sync` set up without a kill, so it fails or passes every time: git's merge
///   done and added, its commit not made.
///
/// Kills are spread over the time an unkilled run takes here (measured first), from 0 to 1.25 times it:
/// some early, some late, some after the process ended. Each run prints its own seed; VAULT_TEST_SEED
/// set to it with VAULT_KILL_RUNS=1 repeats that run (the kill delay as a share of the measured time).
/// VAULT_KILL_RUNS (default 5) is the number of killed runs per test; `make reliability` runs 50.
@Suite struct MergeKillTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    /// How many killed runs each test makes: VAULT_KILL_RUNS, else 5.
    static let runs: Int = {
        let text = ProcessInfo.processInfo.environment["VAULT_KILL_RUNS"] ?? ""
        return Int(text).map { max($0, 1) } ?? 5
    }()

    /// Which member alice removes.
    enum Removal: String, CustomStringConvertible {
        case full, scoped
        var description: String { rawValue == "full" ? "carol a full member" : "carol a read-write member of group ci" }
    }

    /// An item by its name and the secret it must hold.
    struct Item {
        let service: String
        let account: String
        let group: String?
        let secret: String
    }

    /// One team, with carol removed by alice on the remote and bob's change committed, not merged.
    final class Scenario: @unchecked Sendable {
        let removal: Removal
        let team: Sync.Team
        let carol: Person
        /// bob's HEAD (his change), origin's main (alice's removal and secret), their merge base.
        let ours: String, theirs: String, base: String
        /// team.vault at each of them.
        let oursFile: [UInt8], theirsFile: [UInt8], baseFile: [UInt8]
        /// The key epoch of alice's file after the removal.
        let keyEpoch: Int
        /// Every key carol's slot gave in the merge base (hex).
        let carolsOldKeys: Set<String>
        /// What alice wrote after the removal (in a group carol could read).
        let afterRemoval: Item
        /// bob's committed changes, and items nobody touched.
        let bobsChanges: [Item]
        let untouched: [Item]

        init(
            removal: Removal, team: Sync.Team, carol: Person, ours: String, theirs: String, base: String,
            oursFile: [UInt8], theirsFile: [UInt8], baseFile: [UInt8], keyEpoch: Int, carolsOldKeys: Set<String>,
            afterRemoval: Item, bobsChanges: [Item], untouched: [Item]
        ) {
            self.removal = removal
            self.team = team
            self.carol = carol
            self.ours = ours
            self.theirs = theirs
            self.base = base
            self.oursFile = oursFile
            self.theirsFile = theirsFile
            self.baseFile = baseFile
            self.keyEpoch = keyEpoch
            self.carolsOldKeys = carolsOldKeys
            self.afterRemoval = afterRemoval
            self.bobsChanges = bobsChanges
            self.untouched = untouched
        }
    }

    // MARK: - The scenario

    /// The team, carol added (full or scoped to ci) and taken by bob; bob's change committed; alice's
    /// removal of carol and a secret written after it, synced; bob's clone fetched, nothing merged.
    static func makeScenario(_ removal: Removal) throws -> Scenario {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        let carol = try Person("carol")
        try alice.mustVault(["member", "add", "carol", try carol.makeIdentity()] + (removal == .scoped ? ["--group", "ci"] : []))
        try Sync.sync(alice)
        try bob.mustGit(["pull", "-q", "--no-rebase", "--no-edit"])
        // The oracle's check: carol's slot opens the file from before her removal, and what it gave is kept.
        let before = try slot(of: bob.vaultFile, identity: carol, via: bob)
        try #require(before.status == 0, "carol's slot should open the file before her removal: \(before.stderr)")
        let carolsOldKeys = keys(in: before.object)
        try #require(!carolsOldKeys.isEmpty, "no keys in carol's slot: \(before.stderr)")

        let bobsChanges = [
            Item(service: "api", account: "shared", group: nil, secret: "api-by-bob"),
            Item(service: "bobs", account: "new", group: "ci", secret: "bobs-new-in-ci")
        ]
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try bob.mustVault(["add", "-s", "bobs", "-a", "new", "--group", "ci", "-w", "bobs-new-in-ci"])
        try bob.mustGit(["commit", "-q", "-m", "bob's change", "--", "team.vault"])

        let afterRemoval = Item(
            service: "after-removal", account: "alice", group: removal == .scoped ? "ci" : nil,
            secret: "written-after-carol-left")
        Sync.expectStatus(
            try alice.vault(["member", "remove", "carol", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove carol")
        try alice.mustVault(
            ["add", "-s", afterRemoval.service, "-a", afterRemoval.account, "-w", afterRemoval.secret]
                + (afterRemoval.group.map { ["--group", $0] } ?? []))
        try Sync.sync(alice)
        let verified = try alice.mustVault(["verify", "--json"])
        let keyEpoch = try #require(verifyReport(verified)?.keyEpoch, "alice: vault verify --json: \(verified.stdoutText)")

        try bob.mustGit(["fetch", "-q", "origin"])
        let ours = try bob.mustGit(["rev-parse", "HEAD"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let theirs = try bob.mustGit(["rev-parse", "origin/main"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let base = try bob.mustGit(["merge-base", "HEAD", "origin/main"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(Set([ours, theirs, base]).count == 3, "bob's HEAD and origin's main should have diverged: \(ours) \(theirs) \(base)")
        func file(_ commit: String) throws -> [UInt8] { try bob.mustGit(["show", "\(commit):team.vault"]).stdout }
        return Scenario(
            removal: removal, team: team, carol: carol, ours: ours, theirs: theirs, base: base,
            oursFile: try file(ours), theirsFile: try file(theirs), baseFile: try file(base),
            keyEpoch: keyEpoch, carolsOldKeys: carolsOldKeys, afterRemoval: afterRemoval, bobsChanges: bobsChanges,
            untouched: [
                Item(service: "github", account: "alice", group: nil, secret: "gh-1"),
                Item(service: "deploy", account: "ci", group: "ci", secret: "ci-token-1"),
                Item(service: "db", account: "admin", group: "prod", secret: "prod-pass-1")
            ])
    }

    // MARK: - The oracle

    struct VerifyReport {
        let intact: Bool
        let keyEpoch: Int
    }

    static func verifyReport(_ result: RunResult) -> VerifyReport? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [String: Any],
            let intact = object["intact"] as? Bool, let epoch = object["key_epoch"] as? Int
        else { return nil }
        return VerifyReport(intact: intact, keyEpoch: epoch)
    }

    /// `Tests/FormatReader/member_slot.py FILE IDENTITY`, an independent reader: the slot that opens with
    /// the person's identity (status 0 and its JSON), or status 1.
    static func slot(of file: String, identity person: Person, via runner: Person) throws -> (
        status: Int32, object: [String: Any]?, stderr: String
    ) {
        let identity = try #require(person.env["VAULT_IDENTITY"], "\(person.name) has no identity file")
        let result = try runner.sandbox.run(
            "/usr/bin/python3", [Sandbox.packageRoot + "/Tests/FormatReader/member_slot.py", file, identity])
        return (result.status, (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [String: Any], result.stderr)
    }

    /// Every key a slot gives, as hex: a full member's header MAC and wrap keys, a scoped member's group
    /// key checks, lookup and index MAC keys and class keys.
    static func keys(in object: [String: Any]?) -> Set<String> {
        guard let object else { return [] }
        var found: Set<String> = []
        for name in ["header_mac_key", "wrap_key"] {
            if let key = object[name] as? String { found.insert(key) }
        }
        for group in object["groups"] as? [[String: Any]] ?? [] {
            for name in ["key_check", "lookup_key", "index_mac_key"] {
                if let key = group[name] as? String { found.insert(key) }
            }
            for key in (group["classes"] as? [String: String] ?? [:]).values { found.insert(key) }
        }
        return found
    }

    /// `vault ARGS` by `person` on `file`, remembering nothing of earlier files (a state directory of its
    /// own), so checking one run's file does not move what another run's file is compared with.
    static func read(_ person: Person, _ arguments: [String], file: String, state: String) throws -> RunResult {
        try person.vault(arguments, adding: ["VAULT_PATH": file, "XDG_STATE_HOME": state])
    }

    /// The values `get` and `get --theirs` print for an item (both versions of a conflict).
    static func readable(_ person: Person, _ item: Item, file: String, state: String) throws -> Set<String> {
        let get = ["get", "-s", item.service, "-a", item.account] + (item.group.map { ["--group", $0] } ?? [])
        return Set(
            try [get, get + ["--theirs"]].map { try read(person, $0, file: file, state: state) }.filter { $0.status == 0 }.map(\.stdoutText)
        )
    }

    /// `file` is the whole merge of the scenario: it opens and verifies intact with bob's identity and
    /// with alice's passphrase, at the removal's key epoch; bob reads alice's secret from after the
    /// removal, his own changes (current or kept in a conflict) and the untouched items; carol is no
    /// member; and carol's identity opens nothing of it (`expectCarolOpensNothing`).
    static func expectWholeMerge(
        _ file: String, _ scenario: Scenario, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (alice, bob) = (scenario.team.alice, scenario.team.bob)
        let state = bob.sandbox.path(".state-" + UUID().uuidString)
        for person in [bob, alice] {
            let verify = try read(person, ["verify", "--json"], file: file, state: state)
            let report = verifyReport(verify)
            #expect(
                verify.status == 0 && report?.intact == true && report?.keyEpoch == scenario.keyEpoch,
                "\(person.name): vault verify --json of the merged file: exit \(verify.status), \(verify.stdoutText) \(verify.stderr); want intact at key epoch \(scenario.keyEpoch)\n\(context)",
                sourceLocation: sourceLocation)
        }
        for item in [scenario.afterRemoval] + scenario.untouched {
            let seen = try readable(bob, item, file: file, state: state)
            #expect(
                seen == [item.secret], "bob: \(item.service)/\(item.account) in the merged file: \(seen), want \(item.secret)\n\(context)",
                sourceLocation: sourceLocation)
        }
        for item in scenario.bobsChanges {
            let seen = try readable(bob, item, file: file, state: state)
            #expect(
                seen.contains(item.secret),
                "bob's change \(item.service)/\(item.account) = \(item.secret) lost in the merged file: \(seen)\n\(context)",
                sourceLocation: sourceLocation)
        }
        let members = try read(bob, ["member", "list", "--json"], file: file, state: state)
        let names = ((try? JSONSerialization.jsonObject(with: Data(members.stdout))) as? [[String: Any]] ?? []).compactMap {
            $0["name"] as? String
        }
        #expect(
            members.status == 0 && Set(names) == ["bob", "ci-runner"],
            "bob: vault member list --json of the merged file: exit \(members.status), \(names) \(members.stderr)\n\(context)",
            sourceLocation: sourceLocation)
        try expectCarolOpensNothing(file, scenario, context, sourceLocation: sourceLocation)
    }

    /// carol's identity opens no slot of `file` (the independent reader and vault agree), vault prints
    /// nothing of any item to her, and no key the file's remaining slots give is one carol's slot gave
    /// before her removal: nothing in it is under her old keys.
    static func expectCarolOpensNothing(
        _ file: String, _ scenario: Scenario, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (bob, ci, carol) = (scenario.team.bob, scenario.team.ci, scenario.carol)
        let carols = try slot(of: file, identity: carol, via: bob)
        #expect(
            carols.status == 1 && carols.stderr.contains("no member slot opens with the identity"),
            "member_slot.py FILE carol.identity: exit \(carols.status), \(String(describing: carols.object)) \(carols.stderr)\n\(context)",
            sourceLocation: sourceLocation)
        let state = carol.sandbox.path(".state-" + UUID().uuidString)
        let secrets = ([scenario.afterRemoval] + scenario.bobsChanges + scenario.untouched).map(\.secret)
        for item in [scenario.afterRemoval] + scenario.untouched {
            let get = try read(
                carol, ["get", "-s", item.service, "-a", item.account] + (item.group.map { ["--group", $0] } ?? []), file: file,
                state: state)
            #expect(
                get.status != 0 && get.stdout.isEmpty && !secrets.contains(where: { get.stderr.contains($0) }),
                "carol, removed: get \(item.service)/\(item.account): exit \(get.status), stdout \(String(reflecting: get.stdoutText)) \(get.stderr)\n\(context)",
                sourceLocation: sourceLocation)
        }
        var current: Set<String> = []
        for member in [bob, ci] {
            let opened = try slot(of: file, identity: member, via: bob)
            #expect(
                opened.status == 0, "member_slot.py FILE \(member.name).identity: exit \(opened.status) \(opened.stderr)\n\(context)",
                sourceLocation: sourceLocation)
            current.formUnion(keys(in: opened.object))
        }
        let reused = current.intersection(scenario.carolsOldKeys)
        #expect(
            reused.isEmpty, "keys carol's slot gave before her removal still open the file: \(reused.sorted())\n\(context)",
            sourceLocation: sourceLocation)
    }

    // MARK: - Processes

    /// `vault ARGS` started by `person` in `directory`, not waited for.
    struct Started {
        let pid: pid_t
        let io: String

        init(_ person: Person, _ arguments: [String], adding extra: [String: String] = [:], in directory: String) throws {
            io = person.sandbox.home + "/.io-" + UUID().uuidString
            for suffix in [".out", ".err"] { _ = FileManager.default.createFile(atPath: io + suffix, contents: nil) }
            pid = try Sandbox.launch(
                Sandbox.vaultBinary, arguments,
                environment: person.sandbox.environment.merging(person.environment(without: [], adding: extra)) { $1 },
                directory: directory, stdin: "/dev/null", stdout: io + ".out", stderr: io + ".err")
        }

        func kill() { _ = Glibc.kill(pid, SIGKILL) }

        /// Waits for the process; 137 when SIGKILL ended it.
        func finish() -> RunResult {
            let status = Sandbox.waitForExit(pid)
            defer { for suffix in [".out", ".err"] { try? FileManager.default.removeItem(atPath: io + suffix) } }
            let out = FileManager.default.contents(atPath: io + ".out").map { Array($0) } ?? []
            let err = FileManager.default.contents(atPath: io + ".err").map { String(decoding: $0, as: UTF8.self) } ?? ""
            return RunResult(status: status, stdout: out, stderr: err)
        }
    }

    /// Whether a live process (not a zombie) is left in process group `group`: the git and driver
    /// processes a killed `vault sync` started go on without it.
    static func groupAlive(_ group: pid_t) -> Bool {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return false }
        for entry in entries where !entry.isEmpty && entry.allSatisfy(\.isNumber) {
            let fd = Glibc.open("/proc/\(entry)/stat", O_RDONLY)
            guard fd >= 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = Glibc.read(fd, &buffer, buffer.count)
            _ = Glibc.close(fd)
            guard count > 0 else { continue }
            let stat = String(decoding: buffer[0..<count], as: UTF8.self)
            guard let name = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: name)...].split(separator: " ")  // state, ppid, pgrp, …
            if fields.count > 2, fields[0] != "Z", pid_t(fields[2]) == group { return true }
        }
        return false
    }

    static func microseconds(since start: UInt64) -> Int { Int((DispatchTime.now().uptimeNanoseconds - start) / 1000) }

    /// One run's random numbers: the test's stream for run 0 (so VAULT_TEST_SEED=S VAULT_KILL_RUNS=1
    /// repeats the run that printed seed S), a derived one for the others.
    static func runGenerator(_ parent: SeededGenerator, _ run: Int) -> SeededGenerator {
        SeededGenerator(derivedFrom: parent, index: run)
    }
}
