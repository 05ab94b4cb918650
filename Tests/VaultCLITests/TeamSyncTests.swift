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
            env = [
                "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": "\(name)@example.org",
                "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": "\(name)@example.org"
            ]
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
        func vault(
            _ arguments: [String], without removed: [String] = [], adding extra: [String: String] = [:],
            in directory: String? = nil
        ) throws -> RunResult {
            let cwd = directory ?? (FileManager.default.fileExists(atPath: project) ? project : home)
            return try sandbox.run(
                "/usr/bin/env", ["-C", cwd, "/usr/bin/timeout", "120", Sandbox.vaultBinary] + arguments,
                environment: environment(without: removed, adding: extra))
        }

        /// `git -C ~/project ARGS`.
        @discardableResult
        func git(_ arguments: [String], without removed: [String] = []) throws -> RunResult {
            try sandbox.run(
                "/usr/bin/timeout", ["120", "/usr/bin/git", "-C", project] + arguments,
                environment: environment(without: removed, adding: [:]))
        }

        @discardableResult
        func mustVault(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
            let result = try vault(arguments)
            try #require(
                result.status == 0, "\(name): vault \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)",
                sourceLocation: sourceLocation)
            return result
        }

        @discardableResult
        func mustGit(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
            let result = try git(arguments)
            try #require(
                result.status == 0,
                "\(name): git \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)\(result.stdoutText)",
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
            let recipient = try #require(
                result.stderr.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) },
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
        ("db", "admin", "prod", "prod-pass-1")
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
        #expect(
            attributes.split(separator: "\n").filter { $0 == attributesLine }.count == 1,
            ".gitattributes: \(String(reflecting: attributes))")
        #expect(
            try alice.git(["show", "--name-only", "--format=", "HEAD"]).stdoutText == ".gitattributes\n",
            "the setup commit holds .gitattributes alone")
        #expect(try alice.git(["config", "--local", "merge.vault.name"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) != "")
        let driver = try alice.git(["config", "--local", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        expectDriver(driver)
        let afterSetup = try alice.head()
        #expect(try remoteHead(remote, via: alice) != afterSetup, "vault sync --setup pushed")
        let again = try alice.vault(["sync", "--setup"])
        #expect(again.status == 0, "second vault sync --setup exited \(again.status): \(again.stderr)")
        #expect(try alice.head() == afterSetup, "a second vault sync --setup made a commit")
        #expect(
            alice.sandbox.read("project/.gitattributes") == Array(attributes.utf8), "a second vault sync --setup changed .gitattributes")
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

    static func get(
        _ person: Person, _ service: String, _ account: String, group: String? = nil, theirs: Bool = false,
        adding extra: [String: String] = [:]
    ) throws -> RunResult {
        try person.vault(
            ["get", "-s", service, "-a", account] + (group.map { ["--group", $0] } ?? []) + (theirs ? ["--theirs"] : []),
            adding: extra)
    }

    static func expectSecret(
        _ person: Person, _ service: String, _ account: String, group: String? = nil, theirs: Bool = false,
        _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try get(person, service, account, group: group, theirs: theirs)
        #expect(
            result.status == 0 && result.stdoutText == expected,
            "\(person.name): get -s \(service) -a \(account)\(theirs ? " --theirs" : ""): exit \(result.status), stdout \(String(reflecting: result.stdoutText)), want \(String(reflecting: expected)); stderr: \(result.stderr)",
            sourceLocation: sourceLocation)
    }

    static func expectStatus(_ result: RunResult, _ status: Int32, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            result.status == status,
            "\(what): exit \(result.status), want \(status); stdout \(String(reflecting: result.stdoutText)); stderr: \(result.stderr)",
            sourceLocation: sourceLocation)
    }

    @discardableResult
    static func sync(_ person: Person, in directory: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let result = try person.vault(["sync"], in: directory)
        #expect(
            result.status == 0, "\(person.name): vault sync exited \(result.status): \(result.stderr)\(result.stdoutText)",
            sourceLocation: sourceLocation)
        return result
    }

    /// `vault conflicts --json`, parsed; also checks that it exits 0.
    static func conflicts(_ person: Person, sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<Conflict> {
        let result = try person.vault(["conflicts", "--json"])
        #expect(
            result.status == 0, "\(person.name): vault conflicts --json exited \(result.status): \(result.stderr)",
            sourceLocation: sourceLocation)
        guard result.status == 0 else { return [] }
        guard let array = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [[String: Any]] else {
            Issue.record(
                "\(person.name): vault conflicts --json printed no JSON array of objects: \(String(reflecting: result.stdoutText))",
                sourceLocation: sourceLocation)
            return []
        }
        var found: Set<Conflict> = []
        for object in array {
            guard let service = object["service"] as? String, let account = object["account"] as? String,
                let group = object["group"] as? String
            else {
                Issue.record(
                    "\(person.name): a conflict without service, account and group: \(result.stdoutText)", sourceLocation: sourceLocation)
                continue
            }
            found.insert(Conflict(service: service, account: account, group: group))
        }
        return found
    }

    /// `vault conflicts` (plain) prints nothing and exits 0.
    static func expectNoConflicts(_ person: Person, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let plain = try person.vault(["conflicts"])
        #expect(
            plain.status == 0 && plain.stdout.isEmpty,
            "\(person.name): vault conflicts: exit \(plain.status), stdout \(String(reflecting: plain.stdoutText)); \(plain.stderr)",
            sourceLocation: sourceLocation)
        #expect(try conflicts(person, sourceLocation: sourceLocation).isEmpty, sourceLocation: sourceLocation)
    }

    /// No merge in progress, nothing conflicted, nothing tracked left uncommitted, and the remote at this HEAD.
    static func expectSettled(_ person: Person, _ team: Team, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let status = try person.git(["status", "--porcelain", "--untracked-files=no"]).stdoutText
        #expect(status == "", "\(person.name): git status after vault sync: \(status)", sourceLocation: sourceLocation)
        #expect(
            try person.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).status != 0, "\(person.name): a merge is still in progress",
            sourceLocation: sourceLocation)
        #expect(try person.head() == team.remoteHead(), "\(person.name): HEAD is not what the remote holds", sourceLocation: sourceLocation)
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
        #expect(
            [
                "*.png binary\nsecrets/team.db merge=vault diff=vault -text\n",
                "*.png binary\n/secrets/team.db merge=vault diff=vault -text\n"
            ].contains(attributes),
            "\(String(reflecting: attributes))")
        #expect(try owner.git(["show", "--name-only", "--format=", "HEAD"]).stdoutText == ".gitattributes\n")
        #expect(try owner.git(["status", "--porcelain"]).stdoutText == " M secrets/team.db\n", "the vault file is left uncommitted")
        Self.expectDriver(
            try owner.git(["config", "--local", "merge.vault.driver"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(try owner.git(["check-attr", "merge", "--", "secrets/team.db"]).stdoutText == "secrets/team.db: merge: vault\n")
    }
}
