import Foundation
import Testing
import VaultTestSupport

/// `git log -p` of a team vault with real clones (TeamSyncTests' team): each person reads the
/// history their keys open at once — a full member's identity every name, the read-only CI
/// runner its group's names and only ids of the rest, the owner with a passphrase file only ids,
/// since the driver never runs a passphrase's KDF per blob — and nobody reads a secret.
@Suite struct TeamHistoryTests {
    static let secrets = ["gh-1", "api-1", "ci-token-1", "ci-token-2", "pg-ci-1", "prod-pass-1"]

    @Test func eachMemberReadsTheHistoryItsKeysOpen() throws {
        let team = try TeamSyncTests.makeTeam()
        let (alice, bob, ci) = (team.alice, team.bob, team.ci)
        for person in [bob, ci] { try person.mustVault(["sync", "--setup"]) }
        try bob.mustVault(["update", "-s", "deploy", "-a", "ci", "--group", "ci", "-w", "ci-token-2"])
        TeamSyncTests.expectStatus(try TeamSyncTests.sync(bob), 0, "bob: vault sync")
        let subject = try bob.mustGit(["log", "-1", "--format=%s"]).stdoutText
        #expect(subject.hasPrefix("vault: 1 changed in group #") && !subject.contains("deploy"), "\(subject)")

        let bobLog = try bob.mustGit(["log", "-p", "-1", "--", "team.vault"]).stdoutText
        #expect(
            bobLog.contains("\n-group \"ci\" service \"deploy\" account \"ci\" modified ")
                && bobLog.contains("\n+group \"ci\" service \"deploy\" account \"ci\" modified "), "\(bobLog)")

        TeamSyncTests.expectStatus(try ci.git(["pull", "-q", "--no-rebase", "--no-edit"]), 0, "ci-runner: git pull")
        let ciLog = try ci.mustGit(["log", "-p", "--", "team.vault"]).stdoutText
        #expect(ciLog.contains("+group \"ci\" service \"postgres\" account \"ci\" modified "), "\(ciLog)")
        #expect(
            ciLog.contains("+sealed item ") && !ciLog.contains("service \"db\"") && !ciLog.contains("service \"github\""),
            "the runner reads group ci's names only: \(ciLog)")

        TeamSyncTests.expectStatus(try TeamSyncTests.sync(alice), 0, "alice: vault sync")
        let aliceLog = try alice.mustGit(["log", "-p", "-1", "--", "team.vault"]).stdoutText
        #expect(
            aliceLog.contains("+sealed item ") && !aliceLog.contains("service \""),
            "a passphrase file is never used per blob: \(aliceLog)")

        for (name, log) in [("bob", bobLog), ("ci-runner", ciLog), ("alice", aliceLog)] {
            for secret in Self.secrets { #expect(!log.contains(secret), "\(name)'s git log -p holds the secret \(secret)") }
        }
    }
}
