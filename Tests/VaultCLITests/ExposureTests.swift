import Foundation
import Testing
import VaultTestSupport

/// `vault exposure` against an oracle: a team vault's git history built through the CLI (items
/// added, updated, given notes, deleted; members added and removed, full, scoped and read-only;
/// revokes; branches merged with conflicts), then, for every member, every value the keys its slot ever carried open in any version
/// of the file, found by the independent reader (Tests/FormatReader/vault_v3.py through
/// Support/exposure-oracle.py). `vault exposure --member NAME --json` must list exactly those
/// values, and mark live exactly those the current file still holds. The CLI side of the oracle, every
/// version opened by the built `vault` as each member and credential with a fresh state directory, is
/// ExposureCLIOracleTests: every value it opens must be one exposure lists. The history is a seeded walk:
/// VAULT_TEST_SEED replays one, VAULT_EXPOSURE_STEPS lengthens it (`make reliability` walks 1 000).
@Suite struct ExposureTests {
    /// A vault in a git repository, its owner's key file, and members' identities.
    final class History {
        let s: Sandbox
        let repo: String
        var counter = 0
        var members: [String: String] = [:]
        var current: Set<String> = []
        var items: [String: String] = [:]
        /// Credential files as `vault grant` wrote them, by grant id.
        var credentials: [String: String] = [:]

        init() throws {
            s = try Sandbox()
            repo = s.path("repo")
            try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
            s.environment["VAULT_PATH"] = repo + "/team.vault"
            for (key, value) in [
                "GIT_AUTHOR_NAME": "owner", "GIT_AUTHOR_EMAIL": "owner@example.com",
                "GIT_COMMITTER_NAME": "owner", "GIT_COMMITTER_EMAIL": "owner@example.com", "GIT_CONFIG_NOSYSTEM": "1"
            ] {
                s.environment[key] = value
            }
            try git(["init", "-q"])
            try git(["config", "merge.vault.driver", "vault merge-driver %O %A %B %P"])
            try s.write("repo/.gitattributes", Array("team.vault merge=vault -text\n".utf8), mode: 0o644)
            try git(["add", ".gitattributes"])
            try s.initWithKeyFile()
            try commit("created")
        }

        /// The machine state vault keeps (seen counters): another for a branch's own side, as a teammate's.
        var state: [String: String] = [:]

        @discardableResult
        func vault(_ arguments: [String], stdin: String = "") throws -> RunResult {
            let result = try s.vault(arguments, stdin: Array(stdin.utf8), environment: state)
            guard result.status == 0 else { throw SandboxError.setupFailed("vault \(arguments): \(result.stderr)") }
            return result
        }

        func git(_ arguments: [String]) throws {
            let result = try s.run("/usr/bin/git", ["-C", repo] + arguments)
            guard result.status == 0 else { throw SandboxError.setupFailed("git \(arguments): \(result.stderr)") }
        }

        func commit(_ message: String) throws {
            try git(["add", "team.vault"])
            try git(["commit", "-q", "--allow-empty", "-m", message])
        }

        /// A value never used before, naming its item: SERVICE:ACCOUNT:what:n.
        func fresh(_ item: String, _ what: String) -> String {
            counter += 1
            return "\(item):\(what):\(counter)"
        }

        func set(_ group: String, _ service: String, _ account: String, adding: Bool, keepingNoRevision: Bool = false) throws {
            let item = "\(service):\(account)"
            let value = fresh(item, "secret")
            try vault(
                [adding ? "add" : "update", "-s", service, "-a", account, "--group", group] + (keepingNoRevision ? ["--keep", "0"] : []),
                stdin: value)
            items[item] = group
        }

        func notes(_ group: String, _ service: String, _ account: String) throws {
            let path = s.path("notes")
            try s.write("notes", Array(fresh("\(service):\(account)", "notes").utf8))
            try vault(["update", "-s", service, "-a", account, "--group", group, "--keep-secret", "--notes-file", path])
        }

        func addMember(_ name: String, groups: [String], readOnly: Bool) throws {
            let identity = s.path(name + ".id")
            if !FileManager.default.fileExists(atPath: identity) { try vault(["identity", "new", "--out", identity]) }
            let recipient = try vault(["identity", "show", "--identity", identity]).stdoutText.split(separator: "\n")[0]
            try vault(["member", "add", name, String(recipient)] + groups.flatMap { ["--group", $0] } + (readOnly ? ["--read-only"] : []))
            members[name] = identity
        }

        /// Every blob of the vault file in any commit, as files, and the file as it is: the versions the oracles try.
        func versions() throws -> [String] {
            let blobs = try s.run("/usr/bin/git", ["-C", repo, "log", "--all", "--format=%H", "--", "team.vault"]).stdoutText
                .split(separator: "\n").map(String.init)
            var paths: [String] = []
            for (number, commit) in blobs.enumerated() {
                let blob = try s.run("/usr/bin/git", ["-C", repo, "show", "\(commit):team.vault"])
                guard blob.status == 0 else { continue }
                try s.write("version-\(number)", blob.stdout)
                paths.append(s.path("version-\(number)"))
            }
            return paths + [repo + "/team.vault"]
        }

        /// The independent reader's values per member and credential, over every version.
        func oracle() throws -> [String: Set<String>] {
            let spec = try JSONSerialization.data(withJSONObject: [
                "versions": try versions(), "identities": members, "credentials": credentials
            ])
            try s.write("oracle.json", Array(spec))
            let python = Sandbox.packageRoot + "/.venv-tests/bin/python3"
            let run = try s.run(
                FileManager.default.isExecutableFile(atPath: python) ? python : "/usr/bin/python3",
                [Sandbox.packageRoot + "/Tests/VaultCLITests/Support/exposure-oracle.py", s.path("oracle.json")])
            guard run.status == 0 else { throw SandboxError.setupFailed("the oracle: \(run.stderr)") }
            let found = try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: [String]] ?? [:]
            return found.mapValues(Set.init)
        }

        /// The values the current file holds as an item's secret, notes or conflict version, by the reader.
        func liveValues() throws -> Set<String> {
            let python = Sandbox.packageRoot + "/.venv-tests/bin/python3"
            let run = try s.run(
                FileManager.default.isExecutableFile(atPath: python) ? python : "/usr/bin/python3",
                [
                    Sandbox.packageRoot + "/Tests/FormatReader/vault_v3.py", repo + "/team.vault", "--key-file", s.path("key"),
                    "--values", "--show-secrets"
                ])
            guard run.status == 0 else { throw SandboxError.setupFailed("the reader: \(run.stderr)") }
            let values = try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [[String: Any]] ?? []
            return Set(
                values.compactMap { value -> String? in
                    guard let place = value["where"] as? String, place == "item" || place == "conflict",
                        let hex = value["hex"] as? String
                    else { return nil }
                    return String(decoding: bytes(hex: hex), as: UTF8.self)
                })
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = [], digits = Array(hex.utf8)
        while digits.count >= 2 {
            out.append(UInt8(String(decoding: digits.prefix(2), as: UTF8.self), radix: 16) ?? 0)
            digits.removeFirst(2)
        }
        return out
    }

    /// `vault exposure --member NAME --json` (or another principal's options), as (item, field, state) counted:
    /// the field a secret (current, revision, conflict), notes or an otp seed.
    static func exposure(_ history: History, _ name: String, principal: [String]? = nil) throws -> [String: Int] {
        let rows =
            try JSONSerialization.jsonObject(
                with: Data(try history.vault(["exposure"] + (principal ?? ["--member", name]) + ["--json"]).stdout)) as? [[String: Any]]
            ?? []
        var counts: [String: Int] = [:]
        for row in rows {
            let field = ["notes": "notes", "otp": "otp"][row["value"] as? String ?? ""] ?? "secret"
            let key = "\(row["service"] as? String ?? "?"):\(row["account"] as? String ?? "?") \(field) \(row["state"] as? String ?? "?")"
            counts[key, default: 0] += 1
        }
        return counts
    }

    /// The oracle's values (SERVICE:ACCOUNT:FIELD:N), counted the same way.
    static func expected(_ values: Set<String>, live: Set<String>) -> [String: Int] {
        var counts: [String: Int] = [:]
        for value in values {
            let parts = value.split(separator: ":")
            counts["\(parts[0]):\(parts[1]) \(parts[2]) \(live.contains(value) ? "live" : "rotated")", default: 0] += 1
        }
        return counts
    }

    /// A seeded walk of changes, each committed; its steps numbered from `first` (a walk after another goes on from its end).
    static func walk(_ history: History, steps: Int, from first: Int = 0, random: inout SeededGenerator) throws {
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let groups = ["ci", "prod"]
        let names = ["runner", "alice", "bob"]
        for step in first..<first + steps {
            let group = groups[below(groups.count)]
            let existing = history.items.filter { $0.value == group }.keys.sorted()
            switch below(10) {
            case 0, 1:
                let service = "svc\(below(6))"
                if history.items["\(service):acct"] == nil { try history.set(group, service, "acct", adding: true) }
            case 2, 3, 4:
                guard let item = existing.randomElement(using: &random) else { continue }
                let parts = item.split(separator: ":").map(String.init)
                try history.set(group, parts[0], parts[1], adding: false)
            case 5:
                guard let item = existing.randomElement(using: &random) else { continue }
                let parts = item.split(separator: ":").map(String.init)
                try history.notes(group, parts[0], parts[1])
            case 6:
                guard let item = existing.randomElement(using: &random) else { continue }
                let parts = item.split(separator: ":").map(String.init)
                try history.vault(["delete", "-s", parts[0], "-a", parts[1], "--group", group])
                history.items[item] = nil
            case 7:
                let name = names[below(names.count)]
                if history.current.contains(name) {
                    try history.vault(["member", "remove", name, "--yes"])
                    history.current.remove(name)
                } else {
                    let scoped = below(3)
                    try history.addMember(name, groups: scoped == 0 ? [] : [group], readOnly: scoped == 2)
                    history.current.insert(name)
                }
            case 8:
                try history.vault(["revoke", "--group", group])
            default:
                // Both sides of a branch change one item: the merge keeps the other side's version as a conflict.
                guard let item = existing.randomElement(using: &random) else { continue }
                let parts = item.split(separator: ":").map(String.init)
                try history.git(["checkout", "-q", "-b", "side-\(step)"])
                history.state = ["XDG_STATE_HOME": history.s.path("state-side")]
                defer { history.state = [:] }
                try history.set(group, parts[0], parts[1], adding: false)
                try history.commit("side \(step)")
                history.state = [:]
                try history.git(["checkout", "-q", "-"])
                try history.set(group, parts[0], parts[1], adding: false)
                try history.commit("main \(step)")
                try history.git(["merge", "-q", "--no-edit", "side-\(step)"])
                let conflicts = try history.vault(["conflicts", "--json"]).stdoutText
                #expect(conflicts.contains("\"\(parts[0])\""), "the merge of step \(step) left no conflict on \(item): \(conflicts)")
                continue
            }
            try history.commit("step \(step)")
        }
    }

    /// The history's fixed start the issue names: items before a scoped member exists, a revision, the
    /// trash; the read-only runner of ci added after them.
    static func teamHistory() throws -> History {
        let history = try History()
        try history.set("ci", "deploy", "ci", adding: true)
        try history.set("prod", "db", "admin", adding: true)
        try history.commit("items")
        try history.set("ci", "deploy", "ci", adding: false)
        try history.commit("a revision")
        // Gone from the file before the runner exists (no revision kept), yet its keys open the commit above.
        try history.set("ci", "deploy", "ci", adding: false, keepingNoRevision: true)
        try history.vault(["add", "-s", "old", "-a", "token", "--group", "ci"], stdin: history.fresh("old:token", "secret"))
        try history.commit("a revision, an item to delete")
        try history.vault(["delete", "-s", "old", "-a", "token", "--group", "ci"])
        try history.commit("deleted")
        try history.addMember("runner", groups: ["ci"], readOnly: true)
        history.current.insert("runner")
        try history.commit("runner added")
        return history
    }

    @Test func exposureListsExactlyWhatEachMemberCouldOpen() throws {
        let steps = ProcessInfo.processInfo.environment["VAULT_EXPOSURE_STEPS"].flatMap(Int.init) ?? 30
        var random = SeededGenerator(test: "ExposureTests")
        let seed = random.seed
        let history = try Self.teamHistory()
        try Self.walk(history, steps: steps, random: &random)
        let oracle = try history.oracle()
        let live = try history.liveValues()
        for (name, values) in oracle.sorted(by: { $0.key < $1.key }) {
            let listed = try Self.exposure(history, name)
            #expect(
                listed == Self.expected(values, live: live),
                "seed \(seed) (VAULT_TEST_SEED=\(seed) replays it), \(steps) steps: member \(name): vault exposure lists \(listed), the oracle opens \(Self.expected(values, live: live))"
            )
        }
        // The scoped runner, added after them, opens the values written before it existed, in the file
        // and in commits alone (the secrets deploy held before the update that kept no revision).
        #expect(
            oracle["runner"]?.contains { $0.hasPrefix("old:token:") } == true, "the oracle's runner opens no value from before it was added"
        )
        #expect(
            oracle["runner"]?.isSuperset(of: ["deploy:ci:secret:1", "deploy:ci:secret:3"]) == true,
            "the oracle's runner opens no value that only a commit from before it was added holds")
    }

    /// `vault exposure check`: red after a removal, still red after rotating to a value the member
    /// saw, green once rotated, green with a signed acceptance, red again when the acceptance is
    /// tampered with; a re-key alone is green. Bad inputs: the documented exit and no change.
    @Test func checkFollowsRemovalRotationAndAcceptance() throws {
        let history = try History()
        let s = history.s
        func check() throws -> RunResult { try s.vault(["exposure", "check"]) }
        try history.set("ci", "deploy", "ci", adding: true)
        try history.set("ci", "api", "bot", adding: true)
        try history.commit("items")
        #expect(try check().status == 0, "a vault with no member is red")
        try history.vault(["rekey", "--yes"])
        try history.commit("re-keyed")
        #expect(try check().status == 0, "a re-key alone made the check red")
        try history.addMember("runner", groups: ["ci"], readOnly: true)
        try history.commit("runner added")
        try history.set("ci", "deploy", "ci", adding: false)
        try history.commit("deploy rotated while the runner is a member")
        let removal = try history.vault(["member", "remove", "runner"])
        #expect(
            removal.stderr.contains("could open 2 live values") && removal.stderr.contains("'vault exposure --member runner' lists them"),
            "member remove does not point at exposure: \(removal.stderr)")
        try history.commit("runner removed")
        var red = try check()
        #expect(
            red.status == 1 && red.stdoutText.split(separator: "\n").count == 2,
            "after the removal: \(red.status) \(red.stdoutText) \(red.stderr)")
        // Rotating deploy back to its revision 1, which the runner saw, does not count.
        try history.vault(["update", "-s", "deploy", "-a", "ci", "--group", "ci", "--undo"])
        try history.set("ci", "api", "bot", adding: false)
        try history.commit("deploy back to an exposed value, api rotated")
        red = try check()
        #expect(
            red.status == 1 && red.stdoutText.contains("deploy") && !red.stdoutText.contains("api"),
            "a rotation to a value the runner saw: \(red.status) \(red.stdoutText)")
        // Accepted, signed: green, and exposure says so.
        let snapshot = s.read(history.repo + "/team.vault")
        #expect(try s.vault(["exposure", "accept", "ci/deploy/ci"]).status == 2, "accept without --reason")
        #expect(try s.vault(["exposure", "accept", "ci/nothing/here", "--reason", "x"]).status == 44, "accept of no item")
        #expect(try s.vault(["exposure", "check", "--member", "runner"]).status == 2, "check with --member")
        #expect(try s.vault(["exposure"]).status == 2, "exposure naming no principal")
        #expect(try s.vault(["exposure", "--member", "runner", "--group", "ci"]).status == 2, "exposure naming two principals")
        #expect(try s.vault(["exposure", "--member", "nobody"]).status == 44, "exposure of a member no version names")
        #expect(s.read(history.repo + "/team.vault") == snapshot, "a refused command changed the vault")
        try history.vault(["exposure", "accept", "ci/deploy/ci", "--reason", "the vendor rotates it in March"])
        #expect(try check().status == 0, "an accepted value is still red")
        let listed = try history.vault(["exposure", "--member", "runner", "--json"]).stdoutText
        #expect(listed.contains("the vendor rotates it in March"), "exposure does not show the acceptance: \(listed)")
        // A tampered acceptance accepts nothing, and says so.
        let path = history.repo + "/team.vault.accepted"
        let signed = try #require(s.read(path))
        var fields = String(decoding: signed, as: UTF8.self).split(separator: " ").map(String.init)
        fields[3] = Array("another reason".utf8).base64
        try s.write(path, Array(fields.joined(separator: " ").utf8), mode: 0o644)
        red = try check()
        #expect(red.status == 1 && red.stderr.contains("signed by no trust key"), "a tampered acceptance: \(red.status) \(red.stderr)")
        try s.write(path, signed, mode: 0o644)
        #expect(try check().status == 0, "the acceptance as signed is red")
        // A change to the item after the acceptance ends it, even back to a value the runner saw.
        try history.vault(["update", "-s", "deploy", "-a", "ci", "--group", "ci", "--undo"])
        try history.commit("deploy swapped with its revision 1, another value the runner saw")
        red = try check()
        #expect(
            red.status == 1 && red.stdoutText.contains("deploy"),
            "an acceptance outlived a change of the item: \(red.status) \(red.stdoutText)")
        // Rotated for real: green.
        try history.set("ci", "deploy", "ci", adding: false)
        try history.commit("deploy rotated")
        let green = try check()
        #expect(
            green.status == 0 && green.stderr.contains("no live value exposed to \"runner\""),
            "after rotating: \(green.status) \(green.stderr)")
    }

    /// A history rewritten to drop the commits that held a removed member hides it from the check
    /// here (there is nothing left to read), and a clone that kept them is red: the check reads the
    /// history it has, which is why docs/TEAMS.md says to fetch every branch first.
    @Test func aCloneThatKeptTheRemovedCommitsIsRed() throws {
        let history = try History()
        let s = history.s
        try history.set("ci", "deploy", "ci", adding: true)
        try history.addMember("runner", groups: ["ci"], readOnly: true)
        try history.commit("runner added")
        try history.vault(["member", "remove", "runner"])
        try history.commit("runner removed")
        #expect(try s.vault(["exposure", "check"]).status == 1, "red after the removal")
        let clone = s.path("clone")
        #expect(try s.run("/usr/bin/git", ["clone", "-q", history.repo, clone]).status == 0)
        // Rewritten here: one commit of the file as it is, the old ones gone from every ref and the object store.
        try history.git(["checkout", "-q", "--orphan", "rewritten"])
        try history.git(["commit", "-q", "-m", "history rewritten"])
        let old = try s.run("/usr/bin/git", ["-C", history.repo, "for-each-ref", "--format=%(refname:short)", "refs/heads"]).stdoutText
        for branch in old.split(separator: "\n") where branch != "rewritten" { try history.git(["branch", "-q", "-D", String(branch)]) }
        try history.git(["reflog", "expire", "--expire=now", "--all"])
        try history.git(["gc", "-q", "--prune=now"])
        let here = try s.vault(["exposure", "check"])
        #expect(
            here.status == 0 && here.stderr.contains("no member or credential has lost access"),
            "the rewritten repository: \(here.status) \(here.stderr)")
        let there = try s.vault(["exposure", "check"], environment: ["VAULT_PATH": clone + "/team.vault"])
        #expect(
            there.status == 1 && there.stdoutText.contains("runner\tci\tdeploy\tci"),
            "the clone that kept the commits: \(there.status) \(there.stdoutText) \(there.stderr)")
    }
}

extension Array where Element == UInt8 {
    /// Standard base64, for the test's own bytes.
    var base64: String { Data(self).base64EncodedString() }
}
