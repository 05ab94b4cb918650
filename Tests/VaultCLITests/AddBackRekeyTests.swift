import Foundation
import Testing

/// A member added back after a removal gets keys that open nothing written while it was out
/// (docs/TEAMS.md, "Adding a member back"): the add re-keys what its new slot opens — the whole
/// vault for a full member, its groups for a scoped one — before sealing that slot. Checked with
/// the member's identity through the CLI (a fresh state directory) and through the independent
/// reader Tests/FormatReader/vault_v3.py, which tries the keys of the new slot on every copy of the
/// file written while the member was out (what git history keeps).
@Suite struct AddBackRekeyTests {
    typealias Person = TeamSyncTests.Person
    static let reader = Sandbox.packageRoot + "/Tests/FormatReader/vault_v3.py"

    /// The copies of alice's file: before bob's removal, written while he was out, and after he is back.
    struct History {
        let alice: Person
        let bob: Person
        let trust: String
        let whileOut: [String]
        let back: String
        let addBack: RunResult
    }

    /// alice (the owner) adds bob (full, or scoped to prod), removes him, writes a secret in prod and
    /// rotates it with `--keep 0` while he is out (a copy of the file after each write, as git keeps
    /// them), then adds him back with `extra` arguments.
    static func makeHistory(scoped: Bool, extra: [String] = []) throws -> History {
        let alice = try Person("alice", vault: "team.vault")
        try alice.sandbox.write("pass", Array("alice's passphrase".utf8))
        alice.env["VAULT_PASSPHRASE_FILE"] = alice.sandbox.path("pass")
        try alice.mustVault(["init", "--kdf-cost", "testing"])
        try alice.mustVault(["add", "-s", "db", "-a", "admin", "--group", "prod", "-w", "before-removal"])
        try alice.mustVault(["add", "-s", "github", "-a", "alice", "-w", "gh-before"])
        let bob = try Person("bob", vault: "team.vault")
        let recipient = try bob.makeIdentity()
        let scope = scoped ? ["--group", "prod"] : []
        try alice.mustVault(["member", "add", "bob", recipient] + scope)
        let trust = try alice.mustVault(["trust"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try alice.mustVault(["member", "remove", "bob", "--yes", "--kdf-cost", "testing"])

        var whileOut: [String] = []
        func keep(_ name: String) throws -> String {
            let copy = alice.sandbox.path(name)
            try FileManager.default.copyItem(atPath: alice.vaultFile, toPath: copy)
            return copy
        }
        try alice.mustVault(["add", "-s", "api", "-a", "deploy", "--group", "prod", "-w", "written-while-out"])
        try alice.mustVault(["add", "-s", "gitlab", "-a", "alice", "-w", "default-while-out"])
        whileOut.append(try keep("while-out-1.vault"))
        try alice.mustVault(["update", "-s", "api", "-a", "deploy", "--group", "prod", "-w", "rotated-while-out", "--keep", "0"])
        whileOut.append(try keep("while-out-2.vault"))

        let addBack = try alice.vault(["member", "add", "bob", recipient] + scope + extra)
        try #require(addBack.status == 0, "alice: vault member add bob (back): \(addBack.stderr)")
        let back = try keep("back.vault")
        bob.env["VAULT_TRUST"] = trust
        return History(alice: alice, bob: bob, trust: trust, whileOut: whileOut, back: back, addBack: addBack)
    }

    /// The hex of every value the reader opens in `file` with bob's identity, the keys tried being
    /// those of his slot in `slotsFrom` (nil: his slot in `file` itself).
    static func valuesOpened(in file: String, slotsFrom: String?, by person: Person) throws -> Set<String> {
        let identity = try #require(person.env["VAULT_IDENTITY"])
        let result = try person.sandbox.run(
            "/usr/bin/python3",
            [reader, file, "--identity", identity, "--values", "--show-secrets"]
                + (slotsFrom.map { ["--slot-keys-from", $0] } ?? []))
        try #require(result.status == 0 || result.status == 3, "vault_v3.py \(file): \(result.stderr)")
        let values = try #require(
            (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [[String: Any]], "\(result.stdoutText)")
        return Set(values.compactMap { $0["hex"] as? String })
    }

    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }

    /// The attack of finding 5: bob's new slot's keys tried on the copies written while he was out
    /// (the secret written and the one it was rotated to with `--keep 0`) open nothing; his new slot
    /// opens the current file (the control: the probe can open); the CLI with a fresh state
    /// directory refuses those copies; and the owner is told the re-key ended credentials.
    @Test(arguments: [false, true]) func anAddBackOpensNothingWrittenWhileOut(scoped: Bool) throws {
        let history = try Self.makeHistory(scoped: scoped)
        let bob = history.bob

        let current = try Self.valuesOpened(in: history.back, slotsFrom: nil, by: bob)
        #expect(current.contains(Self.hex("rotated-while-out")), "control: bob's slot opens the current file: \(current)")
        for copy in history.whileOut {
            let opened = try Self.valuesOpened(in: copy, slotsFrom: history.back, by: bob)
            #expect(opened.isEmpty, "bob's new slot opens \(opened.count) values of \(copy), written while he was out")
            let get = try bob.vault(
                ["get", "-s", "api", "-a", "deploy", "--group", "prod", "--accept-rollback"], adding: ["VAULT_PATH": copy])
            #expect(get.status != 0 && get.stdout.isEmpty, "the CLI opens \(copy) with bob's identity: \(get.stdoutText)")
        }
        let get = try bob.vault(["get", "-s", "api", "-a", "deploy", "--group", "prod"], adding: ["VAULT_PATH": history.back])
        #expect(get.status == 0 && get.stdoutText == "rotated-while-out", "bob reads the current secret: \(get.status) \(get.stderr)")

        let said = history.addBack.stderr
        #expect(
            said.contains("was removed earlier")
                && said.contains(scoped ? "credential granted for group \"prod\"" : "every scoped credential"),
            "the owner is told the add-back re-keyed and what that ended: \(said)")
    }

    /// A member never removed is added as before: no re-key, the key epoch one higher (the log's entry), nothing said of credentials.
    @Test func aNewMemberIsNotReKeyed() throws {
        let alice = try Person("alice", vault: "team.vault")
        try alice.sandbox.write("pass", Array("alice's passphrase".utf8))
        alice.env["VAULT_PASSPHRASE_FILE"] = alice.sandbox.path("pass")
        try alice.mustVault(["init", "--kdf-cost", "testing"])
        try alice.mustVault(["add", "-s", "db", "-a", "admin", "--group", "prod", "-w", "s1"])
        let credential = alice.sandbox.path("ci.cred")
        try alice.mustVault(["grant", "--group", "prod", "--out", credential])
        let carol = try Person("carol", vault: "team.vault")
        let add = try alice.mustVault(["member", "add", "carol", try carol.makeIdentity(), "--group", "prod"])
        #expect(!add.stderr.contains("re-key") && !add.stderr.contains("credential"), "\(add.stderr)")
        let read = try alice.vault(
            ["get", "-s", "db", "-a", "admin", "--group", "prod"], without: ["VAULT_PASSPHRASE_FILE"],
            adding: ["VAULT_CREDENTIAL": credential])
        #expect(read.status == 0 && read.stdoutText == "s1", "the credential still opens prod: \(read.stderr)")
    }
}

/// `member add --fresh-history` and `grant --fresh-history` (docs/TEAMS.md, "Fresh history"): the
/// newcomer opens no earlier revision, no trash entry and no older copy of the file; the trash it
/// dropped does not come back when a branch from before is merged (purge records).
@Suite struct FreshHistoryTests {
    typealias Person = TeamSyncTests.Person
    enum Newcomer: String, CaseIterable { case scopedMember, fullMember, credential }

    @Test(arguments: Newcomer.allCases) func aNewcomerOpensNothingFromBefore(_ newcomer: Newcomer) throws {
        let alice = try Person("alice", vault: "team.vault")
        try alice.sandbox.write("pass", Array("alice's passphrase".utf8))
        alice.env["VAULT_PASSPHRASE_FILE"] = alice.sandbox.path("pass")
        try alice.mustVault(["init", "--kdf-cost", "testing"])
        try alice.mustVault(["add", "-s", "db", "-a", "admin", "--group", "prod", "-w", "v1"])
        try alice.mustVault(["update", "-s", "db", "-a", "admin", "--group", "prod", "-w", "v2"])
        try alice.mustVault(["add", "-s", "old", "-a", "x", "--group", "prod", "-w", "trashed"])
        try alice.mustVault(["delete", "-s", "old", "-a", "x", "--group", "prod"])
        let before = alice.sandbox.path("before.vault")
        try FileManager.default.copyItem(atPath: alice.vaultFile, toPath: before)

        let carol = try Person("carol", vault: "team.vault")
        let said: RunResult
        var keys: [String]
        switch newcomer {
        case .scopedMember, .fullMember:
            let recipient = try carol.makeIdentity()
            let scope = newcomer == .scopedMember ? ["--group", "prod"] : ["--kdf-cost", "testing", "--yes"]
            said = try alice.mustVault(["member", "add", "carol", recipient, "--fresh-history"] + scope)
            keys = ["--identity", try #require(carol.env["VAULT_IDENTITY"])]
        case .credential:
            let credential = alice.sandbox.path("carol.cred")
            said = try alice.mustVault(["grant", "--group", "prod", "--fresh-history", "--out", credential])
            keys = ["--credential", credential]
        }
        #expect(
            said.stderr.contains("ended every") && said.stderr.contains("dropped 1 earlier secret and 1 trashed item"), "\(said.stderr)")
        let after = alice.sandbox.path("after.vault")
        try FileManager.default.copyItem(atPath: alice.vaultFile, toPath: after)

        func opened(_ file: String, slotsFrom: String? = nil) throws -> Set<String> {
            let result = try alice.sandbox.run(
                "/usr/bin/python3",
                [AddBackRekeyTests.reader, file, "--values", "--show-secrets"] + keys
                    + (slotsFrom.map { ["--slot-keys-from", $0] } ?? []))
            try #require(result.status == 0 || result.status == 3, "vault_v3.py: \(result.stderr)")
            let values = try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [[String: Any]])
            return Set(values.compactMap { $0["hex"] as? String })
        }
        #expect(try opened(after) == [AddBackRekeyTests.hex("v2")], "the newcomer opens the current secret only")
        let older = try opened(before, slotsFrom: newcomer == .credential ? nil : after)
        #expect(older.isEmpty, "the newcomer's keys open \(older.count) values of the copy from before")

        // A branch from before (alice's other machine adds an item) merged in: the trash stays empty.
        let laptop = try Person("alice-laptop", vault: "theirs.vault")
        try laptop.sandbox.write("pass", Array("alice's passphrase".utf8))
        laptop.env["VAULT_PASSPHRASE_FILE"] = laptop.sandbox.path("pass")
        let theirs = laptop.vaultFile
        try FileManager.default.copyItem(atPath: before, toPath: theirs)
        try laptop.mustVault(["add", "-s", "api", "-a", "y", "-w", "elsewhere"])
        let merge = try alice.vault(["merge-driver", before, alice.vaultFile, theirs, "team.vault"])
        #expect(merge.status == 0, "merge-driver: \(merge.stderr)")
        #expect(try alice.vault(["get", "-s", "api", "-a", "y"]).stdoutText == "elsewhere", "the branch's item came in")
        let trash = try alice.vault(["trash", "--group", "prod"])
        #expect(!trash.stdoutText.contains("old"), "the dropped trash came back with a merge: \(trash.stdoutText)")
    }
}
