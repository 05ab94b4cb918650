import Foundation
import Testing

/// `vault sync` fetches before it commits (docs/TEAMS.md, "What vault sync does"): when the
/// remote's team log has entries this clone lacks (a removal, a re-key), the clone's changes are
/// merged into the remote's file in memory and only the result is committed, so no commit sealed
/// under keys the team has retired reaches the remote — not as a commit of its own, not as a parent
/// of a merge. End to end with real git, on the team of `TeamSyncTests.makeTeam()` and carol, a
/// full member, who has not pulled since alice removed bob.
@Suite struct FetchFirstSyncTests {
    typealias Sync = TeamSyncTests
    typealias Person = TeamSyncTests.Person

    /// Every commit of the bare repository `remote`, newest first.
    static func commits(of remote: String, via person: Person) throws -> [String] {
        try person.sandbox.run("/usr/bin/git", ["--git-dir", remote, "rev-list", "--all"], environment: person.env)
            .stdoutText.split(separator: "\n").map(String.init)
    }

    /// The commits of `remote` whose team.vault, opened by `reader` (an identity and the pin, no
    /// memory of seen counters that matters: `--accept-rollback`), gives `secret` for service/account/group.
    static func commitsRevealing(
        _ secret: String, service: String, account: String, group: String,
        in remote: String, to reader: Person
    ) throws -> [String] {
        var revealing: [String] = []
        for commit in try commits(of: remote, via: reader) {
            let blob = try reader.sandbox.run(
                "/usr/bin/git", ["--git-dir", remote, "cat-file", "blob", "\(commit):team.vault"], environment: reader.env)
            guard blob.status == 0 else { continue }
            let path = "old-\(commit).vault"
            try reader.sandbox.write(path, blob.stdout, mode: 0o644)
            let get = try reader.vault(
                ["get", "-s", service, "-a", account, "--group", group, "--accept-rollback"],
                adding: ["VAULT_PATH": reader.sandbox.path(path)])
            if get.status == 0 && get.stdoutText == secret { revealing.append(commit) }
        }
        return revealing
    }

    /// A person of their own HOME holding `person`'s identity and the pin: what a removed member
    /// does with the remote's history.
    static func readerWithIdentity(of person: Person, trust: String) throws -> Person {
        let reader = try Person("\(person.name)-reader")
        let identity = try #require(person.env["VAULT_IDENTITY"].flatMap { FileManager.default.contents(atPath: $0) })
        try reader.sandbox.write("identity", Array(identity))
        reader.env["VAULT_IDENTITY"] = reader.sandbox.path("identity")
        reader.env["VAULT_TRUST"] = trust
        return reader
    }

    /// alice removes bob (a re-key) and syncs. carol, who has not pulled, rotates prod's db secret —
    /// left in the work tree, or committed with git first (an earlier sync that could not push) —
    /// and runs `vault sync`. It says it merged her change into the remote's file; alice reads the
    /// new secret; and bob's identity opens it in no commit of the remote.
    @Test(arguments: [false, true]) func syncSealsNothingUnderRetiredKeys(committedFirst: Bool) throws {
        let team = try Sync.makeTeam()
        let (alice, bob) = (team.alice, team.bob)
        let carol = try TeamLogSyncTests.addCarol(team)
        try TeamLogSyncTests.cloneAndPin(carol, team)
        Sync.expectStatus(
            try alice.vault(["member", "remove", "bob", "--yes", "--kdf-cost", "testing"]), 0, "alice: vault member remove bob")
        try Sync.sync(alice)

        try carol.mustVault(["update", "-s", "db", "-a", "admin", "--group", "prod", "-w", "prod-pass-by-carol"])
        if committedFirst { try carol.mustGit(["commit", "-q", "-m", "carol rotates db", "--", "team.vault"]) }
        let sync = try carol.vault(["sync"])
        Sync.expectStatus(sync, 0, "carol: vault sync after alice removed bob")
        #expect(
            sync.stderr.contains("merged your changes into its file before committing"),
            "one line says the changes were merged first: \(sync.stderr)")
        try Sync.expectSettled(carol, team)
        try Sync.sync(alice)
        // carol's change, made on a file from before the removal, arrives: as the current version, or
        // (a branch from before a removal) as the other version of a conflict; nothing is lost.
        let seen = [try Sync.get(alice, "db", "admin", group: "prod"), try Sync.get(alice, "db", "admin", group: "prod", theirs: true)]
            .filter { $0.status == 0 }.map(\.stdoutText)
        #expect(seen.contains("prod-pass-by-carol"), "alice reads carol's change: \(seen)")

        let bobReader = try Self.readerWithIdentity(of: bob, trust: team.trust)
        let revealing = try Self.commitsRevealing(
            "prod-pass-by-carol", service: "db", account: "admin", group: "prod", in: team.remote, to: bobReader)
        #expect(revealing.isEmpty, "bob, removed, reads carol's new secret in the remote's commits \(revealing)")
    }

    /// A sync that only fast-forwards merged nothing, and says so: no "merged", `"merged": false`.
    @Test func aFastForwardIsNotCalledAMerge() throws {
        let team = try Sync.makeTeam()
        try team.alice.mustVault(["update", "-s", "github", "-a", "alice", "-w", "gh-2"])
        try Sync.sync(team.alice)
        let sync = try team.bob.vault(["sync", "--json"])
        Sync.expectStatus(sync, 0, "bob: vault sync --json that fast-forwards")
        let object = (try? JSONSerialization.jsonObject(with: Data(sync.stdout))) as? [String: Any]
        #expect(object?["merged"] as? Bool == false, "a fast-forward reported as a merge: \(sync.stdoutText)")
        let plain = try team.alice.vault(["sync"])
        #expect(!plain.stderr.contains("merged"), "alice's sync with nothing to merge says merged: \(plain.stderr)")
        try Sync.expectSecret(team.bob, "github", "alice", "gh-2")
    }

    /// Offline (the remote cannot be fetched): the change is committed here, nothing is pushed, and
    /// the next sync with the remote back sends it (after a re-key meanwhile, merged into the
    /// remote's file first: `syncSealsNothingUnderRetiredKeys(committedFirst: true)`).
    @Test func anOfflineSyncCommitsHereAndPushesNothing() throws {
        let team = try Sync.makeTeam()
        let bob = team.bob
        try bob.mustVault(["update", "-s", "api", "-a", "shared", "-w", "api-offline"])
        let remoteBefore = try team.remoteHead()
        let url = try bob.mustGit(["remote", "get-url", "origin"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try bob.mustGit(["remote", "set-url", "origin", bob.sandbox.path("nowhere.git")])
        let offline = try bob.vault(["sync"])
        Sync.expectStatus(offline, 1, "bob: vault sync with the remote unreachable")
        #expect(
            offline.stderr.contains("committed here, nothing was pushed"), "the refusal says what became of the change: \(offline.stderr)")
        #expect(try bob.git(["status", "--porcelain", "--", "team.vault"]).stdoutText == "", "the change was not committed")
        #expect(try team.remoteHead() == remoteBefore, "an offline sync pushed")
        try bob.mustGit(["remote", "set-url", "origin", url])
        try Sync.sync(bob)
        try Sync.expectSettled(bob, team)
        try Sync.sync(team.alice)
        try Sync.expectSecret(team.alice, "api", "shared", "api-offline")
    }
}
