import Foundation
import Testing

/// `vault exposure` at scale (issue 50, "Measured"): a history of many commits of a many-item
/// vault, built by `vault-bench-fill history` (the same Vault calls as the commands, in one process;
/// bench/exposure.sh times the same history at 1 000 commits of 1 000 items): items filled in two
/// groups, a scoped read-only member and a full one added, three items updated per commit, a
/// revoke a quarter of the way, the full member removed half-way (a re-key), another revoke at
/// three quarters. Checked against ExposureTests' oracle (every key set each member held, tried on
/// every version by the independent reader): `exposure --member NAME --json` lists exactly what
/// each could open; and against the sealed records the versions hold, counted by the reader: the
/// records decrypted are exactly the distinct ones, each once however many commits carry it (not
/// once per commit). `make test` walks 40 commits of 24 items (10–20 s of a debug build, loaded);
/// `make reliability` (VAULT_RELIABILITY=full) 1 000 commits of 1 000 items (4–12 min, debug, loaded).
@Suite struct ExposureScaleTests {
    @Test func exposureOverManyCommitsMatchesTheOracleAndOpensEachRecordOnce() throws {
        let commits = ReliabilityScale.pick(short: 40, full: 1000)
        let items = ReliabilityScale.pick(short: 24, full: 1000)
        let history = try ExposureTests.History()
        let s = history.s
        var recipients: [String] = []
        for name in ["runner", "alice"] {
            let identity = s.path(name + ".id")
            try history.vault(["identity", "new", "--out", identity])
            recipients.append(String(try history.vault(["identity", "show", "--identity", identity]).stdoutText.split(separator: "\n")[0]))
            history.members[name] = identity
        }
        let fill = URL(fileURLWithPath: Sandbox.vaultBinary).deletingLastPathComponent().appendingPathComponent("vault-bench-fill").path
        let ref = try s.run("/usr/bin/git", ["-C", history.repo, "symbolic-ref", "HEAD"]).stdoutText.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let head = try s.run("/usr/bin/git", ["-C", history.repo, "rev-parse", "HEAD"]).stdoutText.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let built = try s.run(
            "/bin/sh",
            [
                "-c",
                "\"$0\" history \"$1\" \"$2\" \"$3\" \"$4\" --ref \"$5\" --parent \"$6\" --path team.vault "
                    + "--runner \"$7\" --alice \"$8\" | /usr/bin/git -C \"$9\" fast-import --quiet",
                fill, history.repo + "/team.vault", s.path("key"), String(commits), String(items), ref, head,
                recipients[0], recipients[1], history.repo
            ])
        #expect(built.status == 0, "vault-bench-fill history: \(built.stderr)")
        try history.git(["reset", "-q"])

        let oracle = try history.oracle()
        let live = try history.liveValues()
        #expect(oracle.keys.sorted() == ["alice", "runner"], "the oracle read no member: \(oracle.keys)")
        for (name, values) in oracle.sorted(by: { $0.key < $1.key }) {
            #expect(values.count > items / 4, "the oracle's \(name) opens only \(values.count) values")
            let listed = try ExposureTests.exposure(history, name)
            #expect(
                listed == ExposureTests.expected(values, live: live),
                "\(commits) commits of \(items) items: member \(name): vault exposure lists \(listed.count) (item, state) pairs, the oracle opens \(ExposureTests.expected(values, live: live).count)"
            )
        }

        let versions = try FileManager.default.contentsOfDirectory(atPath: s.home).filter { $0.hasPrefix("version-") }.map(s.path)
        let counted = try s.run(
            "/usr/bin/python3",
            [
                Sandbox.packageRoot + "/Tests/VaultCLITests/Support/sealed-records.py",
                history.repo + "/team.vault"
            ] + versions)
        let records = try JSONSerialization.jsonObject(with: Data(counted.stdout)) as? [String: Int] ?? [:]
        let summary = try history.vault(["exposure", "--member", "alice", "--json"]).stderr
        let decrypted = summary.firstMatch(of: /(\d+) records? decrypted/).flatMap { Int($0.1) }
        #expect(
            (records["entries"] ?? 0) > 2 * (records["distinct"] ?? 0),
            "the history carries too few records to tell once per record from once per commit: \(records)")
        #expect(
            records["distinct"] != nil && decrypted == records["distinct"],
            "\(commits) commits of \(items) items: exposure decrypted \(decrypted.map(String.init) ?? "?") records; the versions hold \(records["distinct"].map(String.init) ?? "?") distinct sealed records (\(records["entries"].map(String.init) ?? "?") index entries in all): \(summary)"
        )
    }
}
