import Foundation
import Testing
import VaultTestSupport

/// Items changed on both sides of a sync: different items, the same item, a change against a delete.
extension TeamSyncTests {
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
        #expect(
            try alice.git(["show", "--name-only", "--format=", "HEAD"]).stdoutText == "team.vault\n",
            "vault sync commits the vault file alone")
        #expect(try alice.git(["status", "--porcelain"]).stdoutText == "?? scratch.txt\n", "other files are left as they were")
        try Self.expectSettled(alice, team)
        try Self.sync(bob)
        try Self.expectSettled(bob, team)
        // Run from HOME, outside the work tree: vault sync works on VAULT_PATH's repository.
        try Self.sync(alice, in: alice.home)
        try Self.expectSettled(alice, team)

        let expected = [
            ("github", "alice", "gh-2"), ("slack", "alice", "slack-1"), ("deploy", "ci", "ci-token-2"),
            ("npm", "bob", "npm-1"), ("api", "shared", "api-1"), ("postgres", "ci", "pg-ci-1"), ("db", "admin", "prod-pass-1")
        ]
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
        #expect(
            plain.status == 0 && lines.count == 1 && lines.allSatisfy { $0.contains("api") && $0.contains("shared") },
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
        #expect(
            try Self.conflicts(bob) == [Conflict(service: "github", account: "alice", group: "default")],
            "\(deleter.name) deleted, \(editor.name) changed: a conflict")
        // The edit is kept and readable. The contract says get prints the merging side's ("ours") version; when
        // that side deleted the item, vault prints the surviving edit with plain get (its help: "get prints the
        // current one") and get --theirs says the other side deleted it. Either place is accepted here.
        let current = try Self.get(bob, "github", "alice")
        let other = try Self.get(bob, "github", "alice", theirs: true)
        let readable = [current, other].filter { $0.status == 0 }.map(\.stdoutText)
        #expect(
            readable == ["gh-edited"],
            "the edit must be readable once, the deletion not as a secret: get \(current.status) \(String(reflecting: current.stdoutText)) \(current.stderr); get --theirs \(other.status) \(String(reflecting: other.stdoutText)) \(other.stderr)"
        )
        // Whichever says the item is deleted on one side must point at the flag that keeps the edit.
        let keepFlag = mergerDeletes ? "--theirs" : "--ours"  // resolve: --ours = the merging side's (bob's) version
        for refusal in [current, other] where refusal.status != 0 {
            if let range = refusal.stderr.range(of: "keep it with 'vault resolve ") {
                let named = refusal.stderr[range.upperBound...].prefix(while: { $0 != "'" })
                #expect(
                    named == keepFlag,
                    "the hint says to keep the edit with \(named), but resolve \(keepFlag) is what keeps it (bob \(mergerDeletes ? "deleted" : "edited")): \(refusal.stderr)"
                )
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
        #expect(
            readable == ["gh-alice", "gh-bob-again"],
            "both versions readable: get \(current.status) \(String(reflecting: current.stdoutText)); get --theirs \(other.status) \(String(reflecting: other.stdoutText)) \(other.stderr)"
        )

        let resolve = try alice.vault(["resolve", "-s", "github", "-a", "alice", "--theirs"])
        Self.expectStatus(resolve, 0, "resolve --theirs (bob's: added again with gh-bob-again)")
        try Self.expectSecret(alice, "github", "alice", "gh-bob-again")
        try Self.expectNoConflicts(alice)
    }
}
