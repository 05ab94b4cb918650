import Foundation
import Testing
import VaultTestSupport

/// `vault sync`, `vault merge-driver`, `vault conflicts` and `vault resolve`
/// end to end with real git: one bare remote, and a HOME, a clone and keys of
/// their own for each person — alice (the owner, a passphrase), bob (a full
/// member, an age identity and a pinned trust fingerprint) and ci-runner (a
/// read-only member of group ci). Every command gets its environment
/// explicitly; nothing is inherited from the test runner.
@Suite struct TeamSyncTests {
    // MARK: - People

    /// One person: a HOME, a clone at ~/project, the vault at ~/project/team.vault,
    /// and the variables their commands run with.
    final class Person: @unchecked Sendable {
        let name: String
        let sandbox: Sandbox
        var env: [String: String]

        init(_ name: String, vault relativePath: String = "project/team.vault") throws {
            self.name = name
            sandbox = try Sandbox()
            env = ["GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": "\(name)@example.org",
                   "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": "\(name)@example.org"]
            env["VAULT_PATH"] = sandbox.path(relativePath)
        }

        var home: String { sandbox.home }
        var project: String { sandbox.path("project") }
        var vaultFile: String { env["VAULT_PATH"] ?? "" }

        func environment(without removed: [String], adding extra: [String: String]) -> [String: String] {
            var result = env
            for key in removed { result[key] = nil }
            return result.merging(extra) { $1 }
        }

        /// `vault ARGS`, run in the clone (or HOME before there is one), killed after 120 s.
        @discardableResult
        func vault(_ arguments: [String], without removed: [String] = [], adding extra: [String: String] = [:],
                   in directory: String? = nil) throws -> RunResult {
            let cwd = directory ?? (FileManager.default.fileExists(atPath: project) ? project : home)
            return try sandbox.run("/usr/bin/env", ["-C", cwd, "/usr/bin/timeout", "120", Sandbox.vaultBinary] + arguments,
                                   environment: environment(without: removed, adding: extra))
        }

        /// `git -C ~/project ARGS`.
        @discardableResult
        func git(_ arguments: [String], without removed: [String] = []) throws -> RunResult {
            try sandbox.run("/usr/bin/timeout", ["120", "/usr/bin/git", "-C", project] + arguments,
                            environment: environment(without: removed, adding: [:]))
        }

        @discardableResult
        func mustVault(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
            let result = try vault(arguments)
            try #require(result.status == 0, "\(name): vault \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)",
                         sourceLocation: sourceLocation)
            return result
        }

        @discardableResult
        func mustGit(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
            let result = try git(arguments)
            try #require(result.status == 0, "\(name): git \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)\(result.stdoutText)",
                         sourceLocation: sourceLocation)
            return result
        }

        func clone(_ remote: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try sandbox.run("/usr/bin/git", ["clone", "-q", remote, project], environment: env)
            try #require(result.status == 0, "\(name): git clone: \(result.stderr)", sourceLocation: sourceLocation)
        }

        /// A fresh identity from `vault identity new --out -`, kept in a 0600 file named by VAULT_IDENTITY; its recipient.
        func makeIdentity(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let result = try vault(["identity", "new", "--out", "-"])
            try #require(result.status == 0, "\(name): vault identity new: \(result.stderr)", sourceLocation: sourceLocation)
            let prefix = "vault: recipient: "
            let recipient = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) },
                                         "no recipient line: \(result.stderr)", sourceLocation: sourceLocation)
            try #require(recipient.hasPrefix("age1"), "\(recipient)", sourceLocation: sourceLocation)
            try sandbox.write("\(name).identity", result.stdout)
            env["VAULT_IDENTITY"] = sandbox.path("\(name).identity")
            return recipient
        }

        func head() throws -> String { try git(["rev-parse", "HEAD"]).stdoutText }
    }

    struct Team {
        let alice: Person
        let bob: Person
        let ci: Person
        let remote: String
        let trust: String
        let ciRecipient: String

        func remoteHead() throws -> String { try TeamSyncTests.remoteHead(remote, via: alice) }
    }

    struct Conflict: Hashable {
        let service: String
        let account: String
        let group: String
    }

    static let attributesLine = "*.vault merge=vault diff=vault -text"

    /// service, account, group (nil: default), secret.
    static let initialItems: [(String, String, String?, String)] = [
        ("github", "alice", nil, "gh-1"), ("api", "shared", nil, "api-1"),
        ("deploy", "ci", "ci", "ci-token-1"), ("postgres", "ci", "ci", "pg-ci-1"),
        ("db", "admin", "prod", "prod-pass-1"),
    ]

    // MARK: - Setup

    /// alice's vault with a few items (groups default, ci, prod), bob a full member,
    /// ci-runner a read-only member of ci; `vault sync --setup` run (twice) by alice;
    /// all committed and pushed; bob and ci-runner cloned with the fingerprint pinned.
    static func makeTeam() throws -> Team {
        let alice = try Person("alice")
        try alice.sandbox.write("pass", Array("alice's passphrase".utf8))
        alice.env["VAULT_PASSPHRASE_FILE"] = alice.sandbox.path("pass")
        let remote = alice.sandbox.path("remote.git")
        let bare = try alice.sandbox.run("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", remote], environment: alice.env)
        try #require(bare.status == 0, "\(bare.stderr)")
        try alice.clone(remote)
        try alice.mustGit(["symbolic-ref", "HEAD", "refs/heads/main"])

        try alice.mustVault(["init", "--kdf-cost", "testing"])
        for (service, account, group, secret) in initialItems {
            try alice.mustVault(["add", "-s", service, "-a", account, "-w", secret] + (group.map { ["--group", $0] } ?? []))
        }
        let bob = try Person("bob")
        let ci = try Person("ci-runner")
        let bobRecipient = try bob.makeIdentity()
        let ciRecipient = try ci.makeIdentity()
        try alice.mustVault(["member", "add", "bob", bobRecipient])
        try alice.mustVault(["member", "add", "ci-runner", ciRecipient, "--group", "ci", "--read-only"])
        let trust = try alice.mustVault(["trust"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(trust.count == 64 && trust.allSatisfy { "0123456789abcdef".contains($0) }, "vault trust printed \(trust)")

        try alice.mustGit(["add", "team.vault"])
        try alice.mustGit(["commit", "-q", "-m", "team vault"])
        try alice.mustGit(["push", "-q", "-u", "origin", "main"])

        // vault sync --setup: .gitattributes alone committed, the driver configured locally, nothing pushed.
        let setup = try alice.vault(["sync", "--setup"])
        try #require(setup.status == 0, "vault sync --setup exited \(setup.status): \(setup.stderr)")
        let attributes = String(decoding: alice.sandbox.read("project/.gitattributes") ?? [], as: UTF8.self)
        #expect(attributes.split(separator: "\n").filter { $0 == attributesLine }.count == 1, ".gitattributes: \(String(reflecting: attributes))")
        #expect(try alice.git(["show", "--name-only", "--format=", "HEAD"]).stdoutText == ".gitattributes\n", "the setup commit holds .gitattributes alone")
        #expect(try alice.git(["config", "--local", "merge.vault.name"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) != "")
        let driver = try alice.git(["config", "--local", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        expectDriver(driver)
        let afterSetup = try alice.head()
        #expect(try remoteHead(remote, via: alice) != afterSetup, "vault sync --setup pushed")
        let again = try alice.vault(["sync", "--setup"])
        #expect(again.status == 0, "second vault sync --setup exited \(again.status): \(again.stderr)")
        #expect(try alice.head() == afterSetup, "a second vault sync --setup made a commit")
        #expect(alice.sandbox.read("project/.gitattributes") == Array(attributes.utf8), "a second vault sync --setup changed .gitattributes")
        #expect(try alice.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "")
        try alice.mustGit(["push", "-q"])

        for member in [bob, ci] {
            try member.clone(remote)
            member.env["VAULT_TRUST"] = trust
        }
        try expectSecret(bob, "github", "alice", "gh-1")
        try expectSecret(ci, "deploy", "ci", "ci-token-1")
        return Team(alice: alice, bob: bob, ci: ci, remote: remote, trust: trust, ciRecipient: ciRecipient)
    }

    /// The commit the remote's main points at.
    static func remoteHead(_ remote: String, via person: Person) throws -> String {
        try person.sandbox.run("/usr/bin/git", ["--git-dir", remote, "rev-parse", "main"], environment: person.env).stdoutText
    }

    /// merge.vault.driver = "vault merge-driver %O %A %B %P": the sandbox's PATH finds the binary
    /// under test first, so the driver names it by name, not by its absolute path.
    static func expectDriver(_ driver: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let suffix = " merge-driver %O %A %B %P"
        #expect(driver == "vault" + suffix, "merge.vault.driver = \(driver)", sourceLocation: sourceLocation)
    }

    // MARK: - Helpers

    static func get(_ person: Person, _ service: String, _ account: String, group: String? = nil, theirs: Bool = false,
                    adding extra: [String: String] = [:]) throws -> RunResult {
        try person.vault(["get", "-s", service, "-a", account] + (group.map { ["--group", $0] } ?? []) + (theirs ? ["--theirs"] : []),
                         adding: extra)
    }

    static func expectSecret(_ person: Person, _ service: String, _ account: String, group: String? = nil, theirs: Bool = false,
                             _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try get(person, service, account, group: group, theirs: theirs)
        #expect(result.status == 0 && result.stdoutText == expected,
                "\(person.name): get -s \(service) -a \(account)\(theirs ? " --theirs" : ""): exit \(result.status), stdout \(String(reflecting: result.stdoutText)), want \(String(reflecting: expected)); stderr: \(result.stderr)",
                sourceLocation: sourceLocation)
    }

    static func expectStatus(_ result: RunResult, _ status: Int32, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(what): exit \(result.status), want \(status); stdout \(String(reflecting: result.stdoutText)); stderr: \(result.stderr)",
                sourceLocation: sourceLocation)
    }

    @discardableResult
    static func sync(_ person: Person, in directory: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let result = try person.vault(["sync"], in: directory)
        #expect(result.status == 0, "\(person.name): vault sync exited \(result.status): \(result.stderr)\(result.stdoutText)",
                sourceLocation: sourceLocation)
        return result
    }

    /// `vault conflicts --json`, parsed; also checks that it exits 0.
    static func conflicts(_ person: Person, sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<Conflict> {
        let result = try person.vault(["conflicts", "--json"])
        #expect(result.status == 0, "\(person.name): vault conflicts --json exited \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        guard result.status == 0 else { return [] }
        guard let array = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [[String: Any]] else {
            Issue.record("\(person.name): vault conflicts --json printed no JSON array of objects: \(String(reflecting: result.stdoutText))",
                         sourceLocation: sourceLocation)
            return []
        }
        var found: Set<Conflict> = []
        for object in array {
            guard let service = object["service"] as? String, let account = object["account"] as? String, let group = object["group"] as? String else {
                Issue.record("\(person.name): a conflict without service, account and group: \(result.stdoutText)", sourceLocation: sourceLocation)
                continue
            }
            found.insert(Conflict(service: service, account: account, group: group))
        }
        return found
    }

    /// `vault conflicts` (plain) prints nothing and exits 0.
    static func expectNoConflicts(_ person: Person, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let plain = try person.vault(["conflicts"])
        #expect(plain.status == 0 && plain.stdout.isEmpty, "\(person.name): vault conflicts: exit \(plain.status), stdout \(String(reflecting: plain.stdoutText)); \(plain.stderr)",
                sourceLocation: sourceLocation)
        #expect(try conflicts(person, sourceLocation: sourceLocation).isEmpty, sourceLocation: sourceLocation)
    }

    /// No merge in progress, nothing conflicted, nothing tracked left uncommitted, and the remote at this HEAD.
    static func expectSettled(_ person: Person, _ team: Team, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let status = try person.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText
        #expect(status == "", "\(person.name): git status after vault sync: \(status)", sourceLocation: sourceLocation)
        #expect(try person.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status != 0, "\(person.name): a merge is still in progress",
                sourceLocation: sourceLocation)
        #expect(try person.head() == team.remoteHead(), "\(person.name): HEAD is not what the remote holds", sourceLocation: sourceLocation)
    }

    // MARK: - 1. Different items

    @Test func editsOfDifferentItemsAllArrive() throws {
        let team = try Self.makeTeam()
        let (alice, bob, ci) = (team.alice, team.bob, team.ci)
        try alice.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-2"])
        try alice.mustVault(["add", "-s", "slack", "-a", "alice", "-w", "slack-1"])
        try bob.mustVault(["update", "-s", "deploy", "-a", "ci", "-w", "ci-token-2"])
        try bob.mustVault(["add", "-s", "npm", "-a", "bob", "-w", "npm-1"])
        try alice.sandbox.write("project/scratch.txt", Array("not for the vault's commit\n".utf8))

        try Self.sync(alice)
        #expect(try alice.git(["show", "--name-only", "--format=", "HEAD"]).stdoutText == "team.vault\n", "vault sync commits the vault file alone")
        #expect(try alice.git(["status", "--porcelain"]).stdoutText == "?? scratch.txt\n", "other files are left as they were")
        try Self.expectSettled(alice, team)
        try Self.sync(bob)
        try Self.expectSettled(bob, team)
        // Run from HOME, outside the work tree: vault sync works on VAULT_PATH's repository.
        try Self.sync(alice, in: alice.home)
        try Self.expectSettled(alice, team)

        let expected = [("github", "alice", "gh-2"), ("slack", "alice", "slack-1"), ("deploy", "ci", "ci-token-2"),
                        ("npm", "bob", "npm-1"), ("api", "shared", "api-1"), ("postgres", "ci", "pg-ci-1"), ("db", "admin", "prod-pass-1")]
        for person in [alice, bob] {
            for (service, account, secret) in expected {
                try Self.expectSecret(person, service, account, secret)
            }
            try Self.expectNoConflicts(person)
        }
        let pull = try ci.git(["pull", "-q", "--no-rebase", "--no-edit"])
        Self.expectStatus(pull, 0, "ci-runner: git pull")
        try Self.expectSecret(ci, "deploy", "ci", "ci-token-2")
        try Self.expectSecret(ci, "postgres", "ci", "pg-ci-1")
        #expect(try ci.head() == alice.head() && bob.head() == alice.head())
    }

    // MARK: - 2. The same item on both sides

    @Test(arguments: ["--theirs", "--ours"]) func sameItemOnBothSidesIsAConflict(choice: String) throws {
        let team = try Self.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        try alice.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-alice"])
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-bob"])
        try Self.sync(alice)
        let merged = try Self.sync(bob)
        #expect(merged.stderr.contains("in conflict") && merged.stderr.contains("vault conflicts"), "bob's sync: \(merged.stderr)")
        try Self.expectSettled(bob, team)

        // bob merged: his version is "ours", alice's "theirs".
        let plain = try bob.vault(["conflicts"])
        let lines = plain.stdoutText.split(separator: "\n")
        #expect(plain.status == 0 && lines.count == 1 && lines.allSatisfy { $0.contains("api") && $0.contains("shared") },
                "vault conflicts: exit \(plain.status), \(String(reflecting: plain.stdoutText)) \(plain.stderr)")
        #expect(try Self.conflicts(bob) == [Conflict(service: "api", account: "shared", group: "default")])
        try Self.expectSecret(bob, "api", "shared", "api-bob")
        let warned = try Self.get(bob, "api", "shared").stderr
        #expect(warned.contains("is in conflict since a merge"), "get of an item in conflict says so: \(warned)")
        try Self.expectSecret(bob, "api", "shared", theirs: true, "api-alice")
        Self.expectStatus(try Self.get(bob, "github", "alice", theirs: true), 44, "get --theirs of an item in no conflict")
        Self.expectStatus(try bob.vault(["resolve", "-s", "github", "-a", "alice", "--ours"]), 44, "resolve of an item in no conflict")
        try Self.expectSecret(bob, "github", "alice", "gh-1")

        // alice pulls the conflict: both versions there too.
        try Self.sync(alice)
        #expect(try Self.conflicts(alice) == [Conflict(service: "api", account: "shared", group: "default")])
        let seen = Set([try Self.get(alice, "api", "shared"), try Self.get(alice, "api", "shared", theirs: true)].map(\.stdoutText))
        #expect(seen == ["api-alice", "api-bob"], "alice sees \(seen)")

        // bob resolves; alice gets the resolution.
        let chosen = choice == "--theirs" ? "api-alice" : "api-bob"
        let resolve = try bob.vault(["resolve", "-s", "api", "-a", "shared", choice])
        Self.expectStatus(resolve, 0, "vault resolve \(choice)")
        try Self.expectSecret(bob, "api", "shared", chosen)
        try Self.expectNoConflicts(bob)
        Self.expectStatus(try Self.get(bob, "api", "shared", theirs: true), 44, "get --theirs after resolve")
        Self.expectStatus(try bob.vault(["resolve", "-s", "api", "-a", "shared", choice]), 44, "a second resolve")
        try Self.sync(bob)
        try Self.sync(alice)
        try Self.expectSettled(alice, team)
        try Self.expectSecret(alice, "api", "shared", chosen)
        try Self.expectNoConflicts(alice)
        try Self.expectSecret(alice, "github", "alice", "gh-1")
    }

    // MARK: - 3. Changed on one side, deleted on the other

    @Test(arguments: [true, false]) func changeAgainstDeleteIsAConflict(mergerDeletes: Bool) throws {
        let team = try Self.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        let (editor, deleter) = mergerDeletes ? (alice, bob) : (bob, alice)
        try editor.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-edited"])
        try deleter.mustVault(["delete", "-s", "github", "-a", "alice"])
        try Self.sync(alice)
        let merged = try Self.sync(bob)  // bob merges: bob's side is "ours"
        #expect(merged.stderr.contains("in conflict") && merged.stderr.contains("vault conflicts"), "bob's sync: \(merged.stderr)")
        #expect(try Self.conflicts(bob) == [Conflict(service: "github", account: "alice", group: "default")],
                "\(deleter.name) deleted, \(editor.name) changed: a conflict")
        // The edit is kept and readable. The contract says get prints the merging side's ("ours") version; when
        // that side deleted the item, vault prints the surviving edit with plain get (its help: "get prints the
        // current one") and get --theirs says the other side deleted it. Either place is accepted here.
        let current = try Self.get(bob, "github", "alice")
        let other = try Self.get(bob, "github", "alice", theirs: true)
        let readable = [current, other].filter { $0.status == 0 }.map(\.stdoutText)
        #expect(readable == ["gh-edited"], "the edit must be readable once, the deletion not as a secret: get \(current.status) \(String(reflecting: current.stdoutText)) \(current.stderr); get --theirs \(other.status) \(String(reflecting: other.stdoutText)) \(other.stderr)")
        // Whichever says the item is deleted on one side must point at the flag that keeps the edit.
        let keepFlag = mergerDeletes ? "--theirs" : "--ours"  // resolve: --ours = the merging side's (bob's) version
        for refusal in [current, other] where refusal.status != 0 {
            if let range = refusal.stderr.range(of: "keep it with 'vault resolve ") {
                let named = refusal.stderr[range.upperBound...].prefix(while: { $0 != "'" })
                #expect(named == keepFlag, "the hint says to keep the edit with \(named), but resolve \(keepFlag) is what keeps it (bob \(mergerDeletes ? "deleted" : "edited")): \(refusal.stderr)")
            }
        }
        try Self.expectSecret(bob, "api", "shared", "api-1")

        let resolve = try bob.vault(["resolve", "-s", "github", "-a", "alice", mergerDeletes ? "--theirs" : "--ours"])
        Self.expectStatus(resolve, 0, "resolve keeping the edit")
        try Self.expectSecret(bob, "github", "alice", "gh-edited")
        try Self.expectNoConflicts(bob)
        try Self.sync(bob)
        try Self.sync(alice)
        try Self.expectSecret(alice, "github", "alice", "gh-edited")
        try Self.expectNoConflicts(alice)
    }

    /// Found by the property test (seed 15823866027440737871): one side deletes an item and adds it again
    /// under the same name, the other changes it. Both versions must stay readable, the item is one
    /// conflict, and resolving it keeps the chosen side's value.
    @Test func deleteAndAddAgainAgainstAChangeKeepsBoth() throws {
        let team = try Self.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        try bob.mustVault(["delete", "-s", "github", "-a", "alice"])
        try bob.mustVault(["add", "-s", "github", "-a", "alice", "-w", "gh-bob-again"])
        try Self.sync(bob)
        try alice.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-alice"])
        try Self.sync(alice)  // alice merges: hers is "ours", bob's "theirs"

        let plain = try alice.vault(["conflicts"])
        let lines = plain.stdoutText.split(separator: "\n").filter { $0.contains("github") && $0.contains("alice") }
        #expect(lines.count == 1, "one line per item in conflict: \(String(reflecting: plain.stdoutText))")
        let current = try Self.get(alice, "github", "alice")
        let other = try Self.get(alice, "github", "alice", theirs: true)
        let readable = Set([current, other].filter { $0.status == 0 }.map(\.stdoutText))
        #expect(readable == ["gh-alice", "gh-bob-again"],
                "both versions readable: get \(current.status) \(String(reflecting: current.stdoutText)); get --theirs \(other.status) \(String(reflecting: other.stdoutText)) \(other.stderr)")

        let resolve = try alice.vault(["resolve", "-s", "github", "-a", "alice", "--theirs"])
        Self.expectStatus(resolve, 0, "resolve --theirs (bob's: added again with gh-bob-again)")
        try Self.expectSecret(alice, "github", "alice", "gh-bob-again")
        try Self.expectNoConflicts(alice)
    }

    // MARK: - 4. git pull and the merge driver

    /// alice changes github/alice, bob deploy/ci.
    static let edits: [String: (String, String, String)] = ["alice": ("github", "alice", "gh-by-alice"), "bob": ("deploy", "ci", "ci-by-bob")]

    /// `other` changes its item and syncs; `puller` changes its item and commits it with git.
    static func divergeForPull(puller: Person, other: Person) throws {
        let (otherService, otherAccount, otherSecret) = edits[other.name]!
        try other.mustVault(["update", "-s", otherService, "-a", otherAccount, "-w", otherSecret])
        try sync(other)
        let (service, account, secret) = edits[puller.name]!
        try puller.mustVault(["update", "-s", service, "-a", account, "-w", secret])
        try puller.mustGit(["commit", "-q", "-m", "\(puller.name)'s change", "--", "team.vault"])
    }

    static func expectBothEdits(_ person: Person, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (service, account, secret) in edits.values {
            try expectSecret(person, service, account, secret, sourceLocation: sourceLocation)
        }
        try expectSecret(person, "api", "shared", "api-1", sourceLocation: sourceLocation)
        try expectNoConflicts(person, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["alice", "bob"]) func gitPullWithTheDriverMergesWhenUnlocked(pullerName: String) throws {
        let team = try Self.makeTeam()
        let (puller, other) = pullerName == "alice" ? (team.alice, team.bob) : (team.bob, team.alice)
        if pullerName == "bob" {
            // bob configures the driver in his clone: .gitattributes already says it, so nothing is committed.
            let before = try puller.head()
            let setup = try puller.vault(["sync", "--setup"])
            Self.expectStatus(setup, 0, "bob: vault sync --setup")
            #expect(try puller.head() == before, "bob's vault sync --setup made a commit")
            Self.expectDriver(try puller.git(["config", "--local", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try Self.divergeForPull(puller: puller, other: other)
        let pull = try puller.git(["pull", "--no-rebase", "--no-edit"])
        Self.expectStatus(pull, 0, "\(puller.name): git pull with the merge driver and the key")
        #expect(try puller.git(["ls-files", "-u"]).stdoutText == "", "nothing left conflicted")
        #expect(try puller.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "")
        try Self.expectBothEdits(puller)
        try Self.sync(puller)
        try Self.expectSettled(puller, team)
        try Self.sync(other)
        try Self.expectBothEdits(other)
    }

    /// A pull git stops with the vault file conflicted, then `vault sync` (with the key) finishes it.
    static func finishStoppedPull(_ team: Team, puller: Person, other: Person, pull: RunResult) throws {
        #expect(pull.status != 0, "\(puller.name): git pull should stop with a conflict; exit \(pull.status): \(pull.stdoutText)\(pull.stderr)")
        #expect(try puller.git(["ls-files", "-u", "--", "team.vault"]).stdoutText != "", "team.vault should be conflicted in the index")
        let finish = try sync(puller)
        #expect(!finish.stderr.contains("in conflict"), "different items merge cleanly: \(finish.stderr)")
        #expect(try puller.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status != 0, "the merge is still in progress: \(finish.stderr)")
        #expect(try puller.git(["ls-files", "-u"]).stdoutText == "", "still conflicted in the index")
        #expect(try puller.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "")
        let parents = try puller.git(["log", "-1", "--format=%P"]).stdoutText.split(separator: " ")
        #expect(parents.count == 2, "the stopped merge is committed as a merge: parents \(parents)")
        try expectBothEdits(puller)
        // The same run goes on to push the merge it finished.
        #expect(try puller.head() == team.remoteHead(), "vault sync finished the merge but did not push it: \(finish.stderr)")
        try expectSettled(puller, team)
        try expectBothEdits(puller)
        try sync(other)
        try expectBothEdits(other)
    }

    @Test func gitPullWithTheDriverWhileLockedStopsAndSyncFinishes() throws {
        let team = try Self.makeTeam()
        try Self.divergeForPull(puller: team.alice, other: team.bob)
        let pull = try team.alice.git(["pull", "--no-rebase", "--no-edit"], without: ["VAULT_PASSPHRASE_FILE"])
        #expect((pull.stderr + pull.stdoutText).contains("vault sync"), "the driver's message names vault sync: \(pull.stderr)\(pull.stdoutText)")
        try Self.finishStoppedPull(team, puller: team.alice, other: team.bob, pull: pull)
    }

    @Test func gitPullWithoutTheDriverStopsAndSyncFinishes() throws {
        let team = try Self.makeTeam()
        // bob's clone has .gitattributes but never ran vault sync --setup: no driver, git's binary merge stops.
        #expect(try team.bob.git(["config", "merge.vault.driver"]).status != 0)
        try Self.divergeForPull(puller: team.bob, other: team.alice)
        let pull = try team.bob.git(["pull", "--no-rebase", "--no-edit"])
        try Self.finishStoppedPull(team, puller: team.bob, other: team.alice, pull: pull)
    }

    /// In a rebase git swaps the sides: the driver's "ours" is the upstream, "theirs" the commit replayed.
    @Test func gitPullRebaseWithTheDriverMergesAndSwapsTheSides() throws {
        let team = try Self.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        try Self.divergeForPull(puller: alice, other: bob)
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try Self.sync(bob)
        try alice.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-alice"])
        try alice.mustGit(["commit", "-q", "-m", "alice's api", "--", "team.vault"])
        let pull = try alice.git(["pull", "--rebase"])
        Self.expectStatus(pull, 0, "alice: git pull --rebase with the merge driver and the key")
        #expect(try alice.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "")
        for (service, account, secret) in Self.edits.values { try Self.expectSecret(alice, service, account, secret) }
        // The item both changed: the upstream's (bob's) version is current, alice's own is "theirs".
        #expect(try Self.conflicts(alice) == [Conflict(service: "api", account: "shared", group: "default")])
        try Self.expectSecret(alice, "api", "shared", "api-by-bob")
        try Self.expectSecret(alice, "api", "shared", theirs: true, "api-by-alice")
        Self.expectStatus(try alice.vault(["resolve", "-s", "api", "-a", "shared", "--theirs"]), 0, "resolve --theirs after a rebase")
        try Self.expectSecret(alice, "api", "shared", "api-by-alice")
        try Self.sync(alice)
        try Self.expectSettled(alice, team)
        try Self.sync(bob)
        try Self.expectSecret(bob, "api", "shared", "api-by-alice")
        try Self.expectNoConflicts(bob)
    }

    // MARK: - 5. Removing a full member

    /// bob works on a branch cut before his removal; when alice merges it afterwards, none of his changes
    /// comes in silently: each is a conflict, named with his commit and name, and his identity opens nothing.
    @Test func aRemovedMembersBranchComesInOnlyAsConflicts() throws {
        let team = try Self.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-bob"])
        try bob.mustVault(["add", "-s", "bobs", "-a", "new", "-w", "bobs-new"])
        try bob.mustGit(["commit", "-q", "-m", "bob's work", "--", "team.vault"])
        try bob.mustGit(["push", "-q", "origin", "HEAD:refs/heads/bob-work"])
        Self.expectStatus(try alice.vault(["member", "remove", "bob", "--yes", "--kdf-cost", "testing"]), 0, "vault member remove bob")
        try Self.sync(alice)
        try alice.mustGit(["fetch", "-q", "origin"])
        let merge = try alice.git(["merge", "--no-edit", "origin/bob-work"])
        Self.expectStatus(merge, 0, "alice: git merge of bob's branch through the driver")
        #expect(try Self.conflicts(alice) == [Conflict(service: "api", account: "shared", group: "default"),
                                                Conflict(service: "bobs", account: "new", group: "default")])
        let listed = try alice.mustVault(["conflicts"]).stdoutText
        #expect(listed.contains("by bob"), "the conflicts name bob's commit: \(listed)")
        try Self.expectSecret(alice, "api", "shared", "api-1")
        try Self.expectSecret(alice, "api", "shared", theirs: true, "api-by-bob")
        #expect(try alice.mustVault(["member", "list", "--json"]).stdoutText.contains("\"bob\"") == false, "bob stays removed")
        try Self.sync(alice)
        Self.expectStatus(try bob.git(["pull", "-q", "--no-rebase", "--no-edit"]), 0, "bob: git pull")
        Self.expectStatus(try Self.get(bob, "api", "shared"), 51, "bob, removed, after the merge of his branch")
    }

    /// Issue 17: "bob removed: after pulling, bob's identity opens nothing in the current file, exit 51;
    /// alice and ci-runner unaffected". No member holds the trust key, so the removal's re-key keeps
    /// it: ci-runner reads on with the pin it had, and is told how to refuse copies from before.
    @Test func removedMemberOpensNothingAndPinsStay() throws {
        let team = try Self.makeTeam()
        let (alice, bob, ci) = (team.alice, team.bob, team.ci)
        let remove = try alice.vault(["member", "remove", "bob", "--yes", "--kdf-cost", "testing"])
        Self.expectStatus(remove, 0, "vault member remove bob")
        let trust = try alice.mustVault(["trust"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(trust == team.trust, "a full member's removal keeps the trust key: \(trust)")
        #expect(remove.stderr.contains("pinned readers keep their pin") && remove.stderr.contains("VAULT_MIN_EPOCH="), "\(remove.stderr)")
        try Self.sync(alice)
        try Self.expectSettled(alice, team)

        Self.expectStatus(try bob.git(["pull", "-q", "--no-rebase", "--no-edit"]), 0, "bob: git pull")
        let removed = try Self.get(bob, "github", "alice")
        Self.expectStatus(removed, 51, "bob, removed, with his pin")
        #expect(removed.stdout.isEmpty && removed.stderr.contains("no member slot"), "\(removed.stderr)")
        try Self.expectSecret(alice, "github", "alice", "gh-1")

        Self.expectStatus(try ci.git(["pull", "-q", "--no-rebase", "--no-edit"]), 0, "ci-runner: git pull")
        try Self.expectSecret(ci, "deploy", "ci", "ci-token-1")
        // The epoch the removal printed, as a fresh runner's floor: the current file passes it.
        let epoch = try #require(remove.stderr.split(separator: "VAULT_MIN_EPOCH=").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let floored = try Self.get(ci, "deploy", "ci", adding: ["VAULT_MIN_EPOCH": String(epoch)])
        #expect(floored.status == 0 && floored.stdoutText == "ci-token-1", "ci-runner with VAULT_MIN_EPOCH=\(epoch): \(floored.stderr)")
    }

    // MARK: - 6. A read-only scoped member

    @Test func readOnlyMemberReadsItsGroupOnly() throws {
        let team = try Self.makeTeam()
        let ci = team.ci
        let before = try #require(ci.sandbox.read("project/team.vault"))
        try Self.expectSecret(ci, "deploy", "ci", "ci-token-1")
        try Self.expectSecret(ci, "postgres", "ci", group: "ci", "pg-ci-1")
        let prod = try Self.get(ci, "db", "admin", group: "prod")
        Self.expectStatus(prod, 30, "ci-runner reading group prod")
        #expect(!prod.stdoutText.contains("prod-pass-1"))
        let other = try Self.get(ci, "github", "alice", group: "default")
        Self.expectStatus(other, 30, "ci-runner reading group default")
        Self.expectStatus(try ci.vault(["add", "-s", "other", "-a", "x", "--group", "ci", "-w", "nope"]), 30, "ci-runner adding to group ci")
        Self.expectStatus(try ci.vault(["update", "-s", "deploy", "-a", "ci", "-w", "nope"]), 30, "ci-runner updating in group ci")
        Self.expectStatus(try ci.vault(["delete", "-s", "deploy", "-a", "ci"]), 30, "ci-runner deleting in group ci")
        #expect(ci.sandbox.read("project/team.vault") == before, "a refused change left the file as it was")
        #expect(try ci.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText == "")
    }

    // MARK: - 7. A stranger's vault pushed over the team's

    static let forged = "forged-by-mallory-7f3a"

    /// mallory, who can push but holds no key of the team's vault, makes a vault of her own sealed to
    /// ci-runner's public recipient, with a forged deploy/ci, and pushes it over team.vault.
    static func pushStrangersVault(_ team: Team) throws -> Person {
        let mallory = try Person("mallory", vault: "evil.vault")
        try mallory.sandbox.write("pass", Array("mallory's passphrase".utf8))
        mallory.env["VAULT_PASSPHRASE_FILE"] = mallory.sandbox.path("pass")
        try mallory.mustVault(["init", "--kdf-cost", "testing"])
        try mallory.mustVault(["add", "-s", "deploy", "-a", "ci", "--group", "ci", "-w", forged])
        try mallory.mustVault(["member", "add", "ci-runner", team.ciRecipient, "--group", "ci", "--read-only"])
        // Without a pin check the runner's identity would open it: mallory sealed a slot to its public recipient.
        try mallory.clone(team.remote)
        try mallory.sandbox.write("project/team.vault", try #require(mallory.sandbox.read("evil.vault")), mode: 0o644)
        try mallory.mustGit(["commit", "-q", "-am", "rotate the ci token"])
        try mallory.mustGit(["push", "-q"])
        return mallory
    }

    @Test func strangersVaultIsRefusedByThePinnedRunner() throws {
        let team = try Self.makeTeam()
        let ci = team.ci
        let forged = Self.forged
        let mallory = try Self.pushStrangersVault(team)
        Self.expectStatus(try ci.git(["pull", "-q", "--no-rebase", "--no-edit"]), 0, "ci-runner: git pull")
        #expect(ci.sandbox.read("project/team.vault") == mallory.sandbox.read("evil.vault"), "the runner has mallory's file")
        for group in [nil, "ci"] as [String?] {
            let result = try Self.get(ci, "deploy", "ci", group: group)
            Self.expectStatus(result, 51, "ci-runner reading mallory's vault")
            #expect(!result.stdoutText.contains(forged) && !result.stderr.contains(forged))
            #expect(result.stderr.contains("not signed by the key you trust"), "\(result.stderr)")
        }
        let run = try ci.vault(["run", "--env", "T=vault://ci/deploy/ci", "--", "/usr/bin/printenv", "T"])
        #expect(run.status == 51 && !run.stdoutText.contains(forged), "vault run: exit \(run.status) \(run.stdoutText) \(run.stderr)")
    }

    /// Not in the brief's list; docs/TEAMS.md says it and names this file: "A side of another vault ...
    /// stops the merge and changes nothing" (93, "otherwise 93 and nothing is merged").
    @Test(arguments: ["alice", "bob"]) func syncRefusesToMergeAStrangersVault(name: String) throws {
        let team = try Self.makeTeam()
        let person = name == "alice" ? team.alice : team.bob
        let pushed = try team.remoteHead()
        _ = try Self.pushStrangersVault(team)
        let attacked = try team.remoteHead()
        #expect(attacked != pushed)
        try person.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-by-\(name)"])
        let before = try #require(person.sandbox.read("project/team.vault"))
        let sync = try person.vault(["sync"])
        Self.expectStatus(sync, 93, "\(name): vault sync against mallory's vault")
        #expect(!sync.stdoutText.contains(Self.forged) && !sync.stderr.contains(Self.forged))
        #expect(person.sandbox.read("project/team.vault") == before, "\(name)'s vault file changed")
        #expect(try team.remoteHead() == attacked, "something was pushed")
        try Self.expectSecret(person, "api", "shared", "api-by-\(name)")
        try Self.expectSecret(person, "deploy", "ci", "ci-token-1")
    }

    // MARK: - 8. Random edits and syncs lose nothing acknowledged

    /// What the contract says an item of the pool holds, name by name. vault matches records by item id
    /// (kept through updates; a delete and an add make a new one), so a value carries the id of the add
    /// that made it; -1 when the model cannot know it (written over a conflict).
    enum ModelState: Equatable, CustomStringConvertible {
        case absent
        case value(String, id: Int)
        case conflict(Set<String>)  // a conflict: these values must stay readable (get or get --theirs)

        var values: Set<String> {
            switch self {
            case .absent: []
            case .value(let value, _): [value]
            case .conflict(let values): values
            }
        }
        var id: Int? {
            if case .value(_, let id) = self, id >= 0 { return id }
            return nil
        }
        var description: String {
            switch self {
            case .absent: "absent"
            case .value(let value, let id): "\(value)#\(id)"
            case .conflict(let values): "conflict\(values.sorted())"
            }
        }
    }

    struct ModelItem: CustomStringConvertible {
        var state = ModelState.absent
        /// Written over a conflict: the contract does not say whether a change settles it, so vault may
        /// show either the value alone or the value in a conflict still.
        var uncertain = false
        var description: String { "\(state)\(uncertain ? "?" : "")" }
    }

    /// The contract's merge of one item against the merge base: a change on one side is taken; the same
    /// item changed on both sides (or changed on one, deleted on the other, or added on both under one
    /// name) is a conflict that keeps both. Items are matched by id, as vault does: an item deleted on
    /// both sides and added again on one is that new item, no conflict.
    static func merge(base: ModelItem, ours: ModelItem, theirs: ModelItem) -> ModelItem {
        if ours.state == theirs.state { return ModelItem(state: ours.state, uncertain: ours.uncertain || theirs.uncertain) }
        if ours.state == base.state { return theirs }
        if theirs.state == base.state { return ours }
        // What the base held was seen and replaced by the side that changed it: only newer values must stay.
        let newer = ours.state.values.union(theirs.state.values).subtracting(base.state.values)
        // Nothing newer than the base (say, a conflicted item deleted on one side, one of its versions dropped on
        // the other): no value is at stake, and whether that is still a conflict is vault's call.
        let conflict = newer.isEmpty ? ModelItem(state: .absent, uncertain: true) : ModelItem(state: .conflict(newer))
        // A side the model is unsure of (written over a conflict, or a conflict deleted): the newer values
        // must stay, but whether they stay in a conflict is vault's call (seed 4787439301121892010: bob
        // deleted a conflicted item, carol deleted its record and added a new one; vault, matching by
        // id, keeps carol's alone).
        if ours.uncertain || theirs.uncertain { return ModelItem(state: conflict.state, uncertain: true) }
        let known = { (state: ModelState) in state == .absent || state.id != nil }
        guard known(base.state), known(ours.state), known(theirs.state) else { return conflict }
        // Record by record: the base's record on each side, then records added on one side.
        var live: [ModelState] = []
        if let baseID = base.state.id {
            let mine = ours.state.id == baseID ? ours.state : .absent
            let other = theirs.state.id == baseID ? theirs.state : .absent
            if mine == other {
                if mine != .absent { live.append(mine) }
            } else if mine == base.state {
                if other != .absent { live.append(other) }
            } else if other == base.state {
                if mine != .absent { live.append(mine) }
            } else {
                return conflict
            }
        }
        for side in [ours.state, theirs.state] where side.id != nil && side.id != base.state.id {
            live.append(side)
        }
        switch live.count {
        case 0: return ModelItem(state: .absent)
        case 1: return ModelItem(state: live[0])
        default: return conflict  // two records under one name
        }
    }

    struct Observed: Equatable, CustomStringConvertible {
        var conflicted: Bool
        var getStatus: Int32
        var getValue: String?
        var theirsStatus: Int32
        var theirsValue: String?
        /// What `get --conflict N` prints for N = 1, 2, … (nil where that conflict records a deletion).
        var conflictValues: [String?] = []
        var visible: Set<String> { Set(([getValue, theirsValue] + conflictValues).compactMap { $0 }) }
        var description: String {
            "conflicted \(conflicted), get \(getStatus) \(getValue ?? "-"), --theirs \(theirsStatus) \(theirsValue ?? "-"), --conflict \(conflictValues.map { $0 ?? "deleted" })"
        }
    }

    /// 30 rounds: a random person (alice or bob) adds, updates or deletes a random item of a pool of six,
    /// and syncs with probability 0.4; at the end both sync twice, alternating. A change is acknowledged
    /// when a `vault sync` of its author exits 0 after it. The oracle replays the contract on acknowledged
    /// states: each person's vault, the remote, and each person's merge base (the state of their last sync,
    /// which is git's merge base of their HEAD and the remote's); every sync merges item by item as
    /// `merge(base:ours:theirs:)` says. Two people changing one item between syncs is a conflict by design,
    /// either version may be "ours": every value the model keeps in a conflict must be readable with
    /// `get`, `get --theirs` or `get --conflict N`, and the item listed by `vault conflicts --json`. Items the model holds
    /// without a conflict must hold exactly that value (or be absent) and not be in conflict.
    @Test func randomEditsAndSyncsLoseNothingAcknowledged() throws {
        var random = SeededGenerator(test: "TeamSyncTests.randomEditsAndSyncsLoseNothingAcknowledged")
        let seed = random.seed
        let team = try Self.makeTeam()
        // A third writer, as the issue asks for three clones: carol, a full member with an identity of her own.
        let carol = try Person("carol")
        try team.alice.mustVault(["member", "add", "carol", try carol.makeIdentity()])
        try Self.sync(team.alice)
        try carol.clone(team.remote)
        carol.env["VAULT_TRUST"] = team.trust
        let people = [team.alice, team.bob, carol]
        let services = (0..<6).map { "pool\($0)" }
        let account = "acct"
        let empty = Dictionary(uniqueKeysWithValues: services.map { ($0, ModelItem()) })
        var local = [empty, empty, empty]  // each person's vault as the contract says
        var base = [empty, empty, empty]   // each person's state at their last sync: git's merge base when they sync next
        var remote = empty
        var log: [String] = []
        func context() -> String {
            "seed \(seed) (VAULT_TEST_SEED=\(seed) repeats it)\n" + log.joined(separator: "\n")
        }
        func inConflict(_ p: Int) throws -> Set<String> {
            Set(try Self.conflicts(people[p]).filter { $0.account == account && $0.group == "default" }.map(\.service))
        }
        func syncAndAcknowledge(_ p: Int) throws {
            let result = try people[p].vault(["sync"])
            #expect(result.status == 0, "\(people[p].name): vault sync exited \(result.status): \(result.stderr)\n\(context())")
            guard result.status == 0 else {
                log.append("  \(people[p].name): vault sync → \(result.status)")
                return
            }
            for service in services {
                local[p][service] = Self.merge(base: base[p][service]!, ours: local[p][service]!, theirs: remote[service]!)
            }
            remote = local[p]
            base[p] = local[p]
            log.append("  \(people[p].name): vault sync → 0; now " + services.map { "\($0)=\(local[p][$0]!)" }.joined(separator: " "))
            let listed = try inConflict(p)
            for service in services {
                let item = local[p][service]!
                if item.uncertain { continue }
                if case .conflict = item.state {
                    #expect(listed.contains(service), "\(people[p].name): \(service) should be in conflict after this sync (\(item))\n\(context())")
                } else {
                    #expect(!listed.contains(service), "\(people[p].name): \(service) in conflict after this sync, but the model holds \(item)\n\(context())")
                }
            }
        }

        for round in 0..<30 {
            let p = Int(random.next() % UInt64(people.count))
            let person = people[p]
            let service = services[Int(random.next() % UInt64(services.count))]
            let op = random.next() % 3
            let value = "r\(round)-\(person.name)"
            let arguments: [String]
            switch op {
            case 0: arguments = ["add", "-s", service, "-a", account, "-w", value]
            case 1: arguments = ["update", "-s", service, "-a", account, "-w", value]
            default: arguments = ["delete", "-s", service, "-a", account]
            }
            let before = local[p][service]!
            let result = try person.vault(arguments)
            log.append("round \(round): \(person.name) \(arguments[0]) \(service)\(op < 2 ? " = " + value : "") → \(result.status) (was \(before))")
            var overConflict = before.uncertain
            if case .conflict = before.state { overConflict = true }
            if !overConflict {
                let present = before.state != .absent
                let want: Int32 = op == 0 ? (present ? 45 : 0) : (present ? 0 : 44)
                #expect(result.status == want, "round \(round): \(person.name) \(arguments[0]) \(service) exited \(result.status), want \(want) (the item is \(before)): \(result.stderr)\n\(context())")
            }
            if result.status == 0 {
                let state: ModelState
                switch op {
                case 0: state = .value(value, id: overConflict ? -1 : round)
                case 1: state = .value(value, id: overConflict ? -1 : before.state.id ?? -1)
                default: state = .absent
                }
                local[p][service] = ModelItem(state: state, uncertain: overConflict)
            }
            if random.next() % 10 < 4 { try syncAndAcknowledge(p) }
        }
        for p in [0, 1, 2, 0, 1, 2] { try syncAndAcknowledge(p) }

        let heads = try people.map { try $0.head() } + [team.remoteHead()]
        #expect(Set(heads).count == 1, "after the final syncs: \(heads)\n\(context())")
        var views: [[String: Observed]] = []
        for (p, person) in people.enumerated() {
            let listed = try inConflict(p)
            var view: [String: Observed] = [:]
            for service in services {
                let get = try Self.get(person, service, account)
                let theirs = try Self.get(person, service, account, theirs: true)
                var observed = Observed(conflicted: listed.contains(service),
                                        getStatus: get.status, getValue: get.status == 0 ? get.stdoutText : nil,
                                        theirsStatus: theirs.status, theirsValue: theirs.status == 0 ? theirs.stdoutText : nil)
                // Every version a conflict keeps, by number, until there is no such conflict.
                for number in 1...20 where observed.conflicted {
                    let version = try person.vault(["get", "-s", service, "-a", account, "--conflict", String(number)])
                    if version.status == 44, version.stderr.contains("there is no conflict") { break }
                    observed.conflictValues.append(version.status == 0 ? version.stdoutText : nil)
                }
                view[service] = observed
            }
            views.append(view)
        }
        #expect(views[0] == views[1] && views[0] == views[2], "the clones differ after syncing: \(views)\n\(context())")
        print("TeamSyncTests.randomEditsAndSyncsLoseNothingAcknowledged: seed \(seed): \(log.filter { $0.hasPrefix("round") && $0.contains("→ 0") }.count) changes, "
              + "\(log.filter { $0.contains("vault sync → 0") }.count) syncs; final " + services.map { "\($0)=\(remote[$0]!)" }.joined(separator: " "))

        for service in services {
            let seen = try #require(views[0][service])
            let item = remote[service]!
            let describe = "\(service): the model holds \(item), alice sees \(seen)\n\(context())"
            switch item.state {
            case .conflict(let required):
                #expect(item.uncertain || seen.conflicted, "should be in conflict; \(describe)")
                #expect(required.isSubset(of: seen.visible), "lost: \(required.subtracting(seen.visible).sorted()); \(describe)")
            case .value(let value, _):
                if item.uncertain && seen.conflicted {
                    #expect(seen.visible.contains(value), "lost: \(value); \(describe)")
                } else {
                    #expect(!seen.conflicted && seen.getStatus == 0 && seen.getValue == value, "want \(value); \(describe)")
                }
            case .absent:
                if !(item.uncertain && seen.conflicted) {
                    #expect(!seen.conflicted && seen.getStatus == 44, "want no item; \(describe)")
                }
            }
            if !seen.conflicted {
                #expect(seen.theirsStatus == 44, "get --theirs of an item in no conflict; \(describe)")
            }
        }
    }

    // MARK: - 9. age-keygen's identities

    @Test func ageKeygenIdentityReadsAfterSync() throws {
        let team = try Self.makeTeam()
        let runner = try Person("ci-age")
        let keyFile = runner.sandbox.path("runner.key")
        let keygen = try runner.sandbox.run("/usr/bin/age-keygen", ["-o", keyFile], environment: runner.env)
        try #require(keygen.status == 0, "age-keygen: \(keygen.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)
        let show = try runner.sandbox.run("/usr/bin/age-keygen", ["-y", keyFile], environment: runner.env)
        let recipient = show.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(show.status == 0 && recipient.hasPrefix("age1"), "age-keygen -y: \(show.stderr)")

        try team.alice.mustVault(["member", "add", "ci-age", recipient, "--group", "ci", "--read-only"])
        try Self.sync(team.alice)
        try Self.expectSettled(team.alice, team)
        try runner.clone(team.remote)
        runner.env["VAULT_IDENTITY"] = keyFile
        runner.env["VAULT_TRUST"] = team.trust
        try Self.expectSecret(runner, "deploy", "ci", "ci-token-1")
        Self.expectStatus(try Self.get(runner, "db", "admin", group: "prod"), 30, "the age-keygen member outside group ci")
        // The other members are untouched by the sync.
        Self.expectStatus(try team.ci.git(["pull", "-q", "--no-rebase", "--no-edit"]), 0, "ci-runner: git pull")
        try Self.expectSecret(team.ci, "deploy", "ci", "ci-token-1")
    }

    // MARK: - 10. --setup for a vault file not named *.vault

    @Test func setupNamesAFileNotEndingInVaultByItsPath() throws {
        let owner = try Person("owner", vault: "project/secrets/team.db")
        try owner.sandbox.write("pass", Array("owner's passphrase".utf8))
        owner.env["VAULT_PASSPHRASE_FILE"] = owner.sandbox.path("pass")
        // Outside a git work tree, sync refuses.
        try owner.mustVault(["init", "--kdf-cost", "testing"])
        let outside = try owner.vault(["sync", "--setup"])
        #expect(outside.status != 0, "vault sync --setup outside a work tree: exit \(outside.status) \(outside.stderr)")

        try #require(try owner.sandbox.run("/usr/bin/git", ["init", "-q", "-b", "main", owner.project], environment: owner.env).status == 0)
        try owner.sandbox.write("project/.gitattributes", Array("*.png binary\n".utf8), mode: 0o644)
        try owner.mustGit(["add", "-A"])
        try owner.mustGit(["commit", "-q", "-m", "start"])
        try owner.mustVault(["add", "-s", "x", "-a", "y", "-w", "z"])
        let setup = try owner.vault(["sync", "--setup"])
        Self.expectStatus(setup, 0, "vault sync --setup")
        let attributes = String(decoding: owner.sandbox.read("project/.gitattributes") ?? [], as: UTF8.self)
        // The path relative to the repository root; a leading "/" (anchored, the same pattern for git) is accepted.
        #expect(["*.png binary\nsecrets/team.db merge=vault diff=vault -text\n", "*.png binary\n/secrets/team.db merge=vault diff=vault -text\n"].contains(attributes),
                "\(String(reflecting: attributes))")
        #expect(try owner.git(["show", "--name-only", "--format=", "HEAD"]).stdoutText == ".gitattributes\n")
        #expect(try owner.git(["status", "--porcelain"]).stdoutText == " M secrets/team.db\n", "the vault file is left uncommitted")
        Self.expectDriver(try owner.git(["config", "--local", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(try owner.git(["check-attr", "merge", "--", "secrets/team.db"]).stdoutText == "secrets/team.db: merge: vault\n")
    }
}
