import Foundation
import Testing
import VaultTestSupport

/// The grant ledger through the CLI: every `vault grant` recorded (`grant --list`), ended by a
/// re-key of one of its groups, kept from both sides by a merge; `exposure --grant ID` against the
/// oracle (each credential's file, as written, tried on every commit by the independent reader);
/// `exposure check` red for a revoked or expired credential's live values.
@Suite struct ExposureCredentialTests {
    typealias History = ExposureTests.History

    /// Grants `groups` (more options in `options`), keeps the file, commits; returns the grant id.
    @discardableResult
    static func grant(_ history: History, _ name: String, _ options: [String], now: Int? = nil) throws -> String {
        let path = history.s.path(name + ".cred")
        let environment = history.state.merging(now.map { ["VAULT_TEST_NOW": String($0)] } ?? [:]) { $1 }
        let result = try history.s.vault(["grant", "--out", path, "--json"] + options, environment: environment)
        guard result.status == 0 else { throw SandboxError.setupFailed("grant \(options): \(result.stderr)") }
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        let id = try #require(object?["id"] as? String)
        history.credentials[id] = path
        try history.commit("granted \(name)")
        return id
    }

    /// `vault grant --list --json`, by id.
    static func listed(_ history: History) throws -> [String: [String: Any]] {
        let rows =
            try JSONSerialization.jsonObject(with: Data(try history.vault(["grant", "--list", "--json"]).stdout)) as? [[String: Any]] ?? []
        return Dictionary(rows.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What vault itself says of the credential's file: live (it opens), revoked or expired.
    static func stateByUse(_ history: History, _ path: String) throws -> String {
        let result = try history.s.vault(["list", "--credential", path])
        if result.status == 0 { return "live" }
        return result.stderr.contains("revoked") ? "revoked" : result.stderr.contains("expired") ? "expired" : "refused: \(result.stderr)"
    }

    @Test func exposureListsExactlyWhatEachCredentialCouldOpen() throws {
        let steps = ProcessInfo.processInfo.environment["VAULT_EXPOSURE_STEPS"].flatMap(Int.init) ?? 16
        var random = SeededGenerator(test: "ExposureCredentialTests")
        let seed = random.seed
        let history = try History()
        try history.set("ci", "deploy", "ci", adding: true)
        try history.set("prod", "db", "admin", adding: true)
        try history.commit("items")
        try history.set("ci", "deploy", "ci", adding: false)
        try history.commit("a revision")
        try Self.grant(history, "ci-read-only", ["--group", "ci", "--read-only"])
        // Expired at once (granted in 2020 for a day): its keys still open what is sealed under them.
        try Self.grant(history, "both-expired", ["--group", "ci", "--group", "prod", "--expires", "1d"], now: 1_577_836_800)
        try ExposureTests.walk(history, steps: steps, random: &random)
        try Self.grant(history, "prod-later", ["--group", "prod"])
        try ExposureTests.walk(history, steps: steps / 2, from: steps, random: &random)
        let oracle = try history.oracle()
        let live = try history.liveValues()
        let ledger = try Self.listed(history)
        #expect(
            Set(ledger.keys) == Set(history.credentials.keys),
            "grant --list shows \(ledger.keys.sorted()), granted \(history.credentials.keys.sorted())")
        for (id, path) in history.credentials.sorted(by: { $0.key < $1.key }) {
            let values = oracle[id] ?? []
            let listed = try ExposureTests.exposure(history, id, principal: ["--grant", id])
            #expect(
                listed == ExposureTests.expected(values, live: live),
                "seed \(seed) (VAULT_TEST_SEED=\(seed) replays it): credential \(id): vault exposure lists \(listed), the oracle opens \(ExposureTests.expected(values, live: live))"
            )
            // vault checks the expiry first: a credential both revoked and expired says it expired.
            let state = ledger[id]?["state"] as? String ?? "nothing", byUse = try Self.stateByUse(history, path)
            #expect(
                state == byUse || state == "revoked" && byUse == "expired",
                "seed \(seed): grant --list says \(state) of \(id), its file is \(byUse)")
        }
        // The spelling: --credential with a grant id is the grant, not a credential file to unlock with.
        let someID = try #require(history.credentials.keys.sorted().first)
        #expect(
            try ExposureTests.exposure(history, someID, principal: ["--credential", someID])
                == ExposureTests.exposure(history, someID, principal: ["--grant", someID]), "--credential ID is not --grant ID")
        let read = try #require(history.credentials.first { (ledger[$0.key]?["groups"] as? [String]) == ["ci"] })
        #expect(
            oracle[read.key]?.contains("deploy:ci:secret:1") == true,
            "the oracle's ci credential opens no value of ci from before it was granted")
    }

    /// `exposure check`: a live credential is no loss; a revoke of another group stays green; a revoke
    /// of its group is red until each value is rotated; an expired credential is red until its group
    /// is re-keyed and the values rotated (rotating under the key it holds does not count), or accepted.
    @Test func checkGoesRedForARevokedOrExpiredCredential() throws {
        let history = try History()
        let s = history.s
        func check() throws -> RunResult { try s.vault(["exposure", "check"]) }
        try history.set("ci", "deploy", "ci", adding: true)
        try history.set("ci", "api", "bot", adding: true)
        try history.set("prod", "db", "admin", adding: true)
        try history.commit("items")
        let ci = try Self.grant(history, "ci", ["--group", "ci", "--read-only"])
        #expect(try check().status == 0, "a live credential made the check red")
        try history.vault(["revoke", "--group", "prod"])
        try history.commit("prod re-keyed, with no credential of it")
        #expect(try check().status == 0, "a re-key with nobody losing access made the check red")
        try history.vault(["revoke", "--group", "ci"])
        try history.commit("ci revoked")
        let afterRevoke = try Self.listed(history)
        #expect(afterRevoke[ci]?["state"] as? String == "revoked", "grant --list after the revoke: \(afterRevoke)")
        var red = try check()
        #expect(
            red.status == 1 && red.stdoutText.split(separator: "\n").count == 2 && red.stdoutText.contains("credential \(ci)\tci\tdeploy"),
            "after the revoke: \(red.status) \(red.stdoutText) \(red.stderr)")
        try history.set("ci", "deploy", "ci", adding: false)
        try history.set("ci", "api", "bot", adding: false)
        try history.commit("ci rotated")
        #expect(try check().status == 0, "red after rotating every value of the revoked credential")
        // Expired, never revoked: its keys open what prod holds now, and what prod gets next.
        let prod = try Self.grant(history, "prod", ["--group", "prod", "--expires", "1d"], now: 1_577_836_800)
        #expect(try Self.listed(history)[prod]?["state"] as? String == "expired")
        red = try check()
        #expect(
            red.status == 1 && red.stdoutText.contains("credential \(prod)\tprod\tdb\tadmin"),
            "an expired credential: \(red.status) \(red.stdoutText)")
        try history.set("prod", "db", "admin", adding: false)
        try history.commit("db rotated under the key the expired credential holds")
        #expect(try check().status == 1, "a value rotated under the key an expired credential holds counted as rotated")
        try history.vault(["exposure", "accept", "prod/db/admin", "--reason", "rotated by the vendor tonight"])
        #expect(try check().status == 0, "an accepted value is still red")
        try history.vault(["revoke", "--group", "prod"])
        try history.set("prod", "db", "admin", adding: false)
        try history.commit("prod revoked, db rotated")
        let green = try check()
        #expect(
            green.status == 0 && green.stderr.contains("credential \(prod)"),
            "after the revoke and rotation: \(green.status) \(green.stderr)")
    }

    /// Both sides of a merge granted; one side revoked: the merge keeps every record, the revocation wins.
    @Test func aMergeKeepsBothSidesGrantsAndTheirRevocations() throws {
        let history = try History()
        try history.set("ci", "deploy", "ci", adding: true)
        try history.set("prod", "db", "admin", adding: true)
        try history.commit("items")
        let shared = try Self.grant(history, "shared", ["--group", "ci"])
        try history.git(["checkout", "-q", "-b", "side"])
        history.state = ["XDG_STATE_HOME": history.s.path("state-side")]
        let side = try Self.grant(history, "side", ["--group", "prod"])
        try history.vault(["revoke", "--group", "ci"])
        try history.commit("side revoked ci")
        history.state = [:]
        try history.git(["checkout", "-q", "-"])
        let main = try Self.grant(history, "main", ["--group", "prod", "--read-only"])
        try history.git(["merge", "-q", "--no-edit", "side"])
        let ledger = try Self.listed(history)
        #expect(
            Set(ledger.keys) == [shared, side, main],
            "after the merge grant --list shows \(ledger.keys.sorted()), not \([shared, side, main].sorted())")
        #expect(ledger[shared]?["state"] as? String == "revoked", "the side's revocation was lost in the merge: \(ledger[shared] ?? [:])")
        #expect(ledger[side]?["state"] as? String == "live" && ledger[main]?["state"] as? String == "live")
    }

    /// Bad inputs: the documented exit, one line and a hint, and no change to the vault.
    @Test func badInputsAreRefusedWithTheirExitCode() throws {
        let history = try History()
        let s = history.s
        try history.set("ci", "deploy", "ci", adding: true)
        try history.commit("items")
        let none = try s.vault(["grant", "--list"])
        #expect(
            none.status == 0 && none.stdout.isEmpty && none.stderr.contains("records no credential"),
            "grant --list with no ledger: \(none.status) \(none.stderr)")
        #expect(try s.vault(["grant", "--list", "--json"]).stdoutText == "[]\n")
        let id = try Self.grant(history, "ci", ["--group", "ci"])
        let before = s.read(history.repo + "/team.vault")
        func refused(_ arguments: [String], _ status: Int32, _ words: String) throws {
            let result = try s.vault(arguments)
            let lines = result.stderr.split(separator: "\n")
            #expect(
                result.status == status && lines.count == 2 && lines[0].contains(words) && lines[1].hasPrefix("vault: hint:"),
                "vault \(arguments): \(result.status) \(result.stderr)")
        }
        try refused(["exposure", "--grant", "0123456789abcdef"], 44, "records no credential \"0123456789abcdef\"")
        try refused(["exposure", "--credential", "0123456789abcdef"], 44, "records no credential")
        try refused(["exposure", "--grant", id, "--credential", id], 2, "both name a credential")
        try refused(["exposure", "--grant", id, "--member", "alice"], 2, "name one principal")
        try refused(["exposure", "check", "--grant", id], 2, "takes no --member, --group or --grant")
        try refused(["grant", "--list", "--group", "ci"], 2, "takes no other option")
        #expect(s.read(history.repo + "/team.vault") == before, "a refused command changed the vault")
        // A prefix of an id names it.
        #expect(try s.vault(["exposure", "--grant", String(id.prefix(6))]).status == 0)
    }
}
