import Foundation
import Testing

/// docs/FORMAT.md means what vault writes, for every kind of key: a format v3 vault built through
/// the CLI (three groups and four classes, revisions, a trashed item and its tombstone, the two
/// kinds of conflict a merge keeps, notes and a one-time code from an import, a full and a scoped
/// member, a read-write and a read-only credential) is read by Tests/FormatReader/vault_v3.py,
/// written from that page alone, with each principal's keys; the reader opens exactly what `vault`
/// lists and gets for that principal, and with a wrong key it opens nothing (AES-GCM refuses).
@Suite struct IndependentReaderTests {
    static let reader = Sandbox.packageRoot + "/Tests/FormatReader/vault_v3.py"

    /// Whose keys a comparison uses: how `vault` is given them, and how the reader is.
    struct Principal {
        let name: String
        let vault: [String: String]
        let reader: [String]
    }

    @Test func theReaderOpensWhatVaultOpensForEachKey() throws {
        let s = try Sandbox()
        let principals = try Self.buildRichVault(s)
        var fileRecords: Int?
        for principal in principals {
            let vaultSees = try Self.vaultView(s, principal.vault)
            let read = try Self.runReader(s, principal.reader)
            #expect(read.status == 0, "\(principal.name): \(read.stderr)")
            let readerSees = try Self.readerView(read.object)
            #expect(readerSees.items == vaultSees.items, "\(principal.name): the reader's items differ from vault's")
            #expect(readerSees.trash == vaultSees.trash, "\(principal.name): the reader's trash differs from vault's")
            #expect(!vaultSees.items.isEmpty, "\(principal.name) opens nothing")
            // Every record is either opened or named among what did not open.
            let records = try #require((read.object["vault"] as? [String: Any])?["records"] as? Int)
            fileRecords = fileRecords ?? records
            let unopened = (read.object["unopened"] as? [[String: Any]] ?? []).filter { $0["where"] as? String == "record" }
            #expect(readerSees.items.count + unopened.count == records, "\(principal.name): \(unopened)")
        }
        // The owner's keys open the whole file: every record, the trashed secret and its tombstone.
        let owner = try Self.runReader(s, principals[0].reader)
        let trash = try #require(owner.object["trash"] as? [[String: Any]])
        #expect(trash.count == 1 && Self.hex(of: trash.first?["secret"]) == Self.hex(Array("old".utf8)), "\(trash)")
        let tombstones = try #require(owner.object["tombstones"] as? [[String: Any]])
        #expect(tombstones.contains { $0["item_id"] as? String == trash.first?["item_id"] as? String })
        #expect((try Self.vaultView(s, principals[0].vault)).items.count == fileRecords)

        try Self.expectWrongKeysOpenNothing(s, principals: principals)
    }

    /// A conflict's other version that a merge sealed as another group's record (an item moved to
    /// prod on one side and changed in ci on the other) still opens after prod is revoked, for vault
    /// and for the independent reader, and a re-key after it goes through: the revoke sealed that
    /// version again under prod's new key.
    @Test func aRevokeKeepsTheConflictVersionsSealedUnderTheGroupOpen() throws {
        let s = try Sandbox()
        try s.write("pass", Array("correct horse battery staple".utf8))
        let owner = ["VAULT_PASSPHRASE_FILE": s.path("pass")]
        func vault(_ arguments: [String], stdin: String = "", _ environment: [String: String] = [:]) throws -> RunResult {
            try s.vault(arguments, stdin: Array(stdin.utf8), environment: owner.merging(environment) { $1 })
        }
        #expect(try vault(["init", "--passphrase-file", s.path("pass"), "--kdf-cost", "testing"]).status == 0)
        for group in ["ci", "prod"] { #expect(try vault(["group", "create", group]).status == 0) }
        #expect(try vault(["add", "-s", "npm", "-a", "publish", "--group", "ci"], stdin: "one").status == 0)
        for copy in ["base.vault", "theirs.vault"] { try s.write(copy, s.read(s.vaultPath)!) }
        #expect(
            try vault(
                ["--vault", s.path("theirs.vault"), "rename", "ci/npm/publish", "--to-group", "prod"],
                ["XDG_STATE_HOME": s.path("state-theirs")]
            ).status == 0)
        #expect(try vault(["update", "ci/npm/publish"], stdin: "two").status == 0)
        #expect(try vault(["merge-driver", s.path("base.vault"), s.vaultPath, s.path("theirs.vault"), "default.vault"]).status == 0)
        #expect(try vault(["get", "ci/npm/publish", "--conflict", "1"]).stdoutText == "one")
        #expect(try vault(["revoke", "--group", "prod"]).status == 0)

        // The revoke sealed that version again under prod's new key: vault and the reader open it.
        let other = try vault(["get", "ci/npm/publish", "--conflict", "1"])
        #expect(other.status == 0 && other.stdoutText == "one", "\(other.stderr)")
        let unopened = try Self.runReader(s, ["--passphrase-file", s.path("pass")]).object["unopened"] as? [[String: Any]] ?? []
        #expect(unopened.isEmpty, "\(unopened)")
        #expect(try vault(["rekey", "--yes"]).status == 0)
    }

    /// A wrong passphrase, an identity that is no member, a credential whose group was revoked and
    /// a member removed since: vault refuses each (51), and the reader opens nothing with it.
    static func expectWrongKeysOpenNothing(_ s: Sandbox, principals: [Principal]) throws {
        let owner = principals[0].vault
        try s.write("wrong", Array("correct horse battery stapler".utf8))
        _ = try s.vault(["identity", "new", "--out", s.path("stranger.id")])
        let trust = principals.first { $0.name == "runner" }!.vault["VAULT_TRUST"]!
        #expect(try s.vault(["revoke", "--group", "ci"], environment: owner).status == 0)
        #expect(try s.vault(["member", "remove", "runner"], environment: owner).status == 0)
        let wrong = [
            Principal(
                name: "wrong passphrase", vault: ["VAULT_PASSPHRASE_FILE": s.path("wrong")],
                reader: ["--passphrase-file", s.path("wrong")]),
            Principal(
                name: "stranger", vault: ["VAULT_IDENTITY": s.path("stranger.id"), "VAULT_TRUST": trust],
                reader: ["--identity", s.path("stranger.id"), "--trust", trust]),
            Principal(
                name: "revoked credential", vault: ["VAULT_CREDENTIAL": s.path("ci.cred")],
                reader: ["--credential", s.path("ci.cred")]),
            Principal(
                name: "removed member", vault: ["VAULT_IDENTITY": s.path("runner.id"), "VAULT_TRUST": trust],
                reader: ["--identity", s.path("runner.id"), "--trust", trust])
        ]
        for principal in wrong {
            let refused = try s.vault(["list", "--json"], environment: principal.vault)
            #expect(refused.status == 51, "\(principal.name): vault exits \(refused.status): \(refused.stderr)")
            let read = try runReader(s, principal.reader)
            #expect(read.status == 3, "\(principal.name): the reader exits \(read.status): \(read.stderr)")
            #expect(
                (read.object["items"] as? [Any])?.isEmpty == true && (read.object["trash"] as? [Any])?.isEmpty == true,
                "\(principal.name) opened something")
        }
        // The revoked credential's keys are tried on its group's records, and AES-GCM refuses each.
        let revoked = try runReader(s, ["--credential", s.path("ci.cred")])
        let unopened = (revoked.object["unopened"] as? [[String: Any]] ?? []).filter { $0["group"] as? String == "ci" }
        // The grant ledger is sealed under the group key, which no credential holds: not tried.
        let ledger = unopened.filter { $0["where"] as? String == "grant ledger block" }
        let tried = unopened.filter { $0["where"] as? String != "grant ledger block" }
        #expect(!tried.isEmpty && tried.allSatisfy { ($0["why"] as? String)?.contains("AES-GCM") == true }, "\(tried)")
        #expect(!ledger.isEmpty && ledger.allSatisfy { $0["why"] as? String == "no group key of its group" }, "\(ledger)")
    }

    // MARK: the vault

    /// Builds the vault in `s` and returns its principals, the owner's passphrase first.
    static func buildRichVault(_ s: Sandbox) throws -> [Principal] {
        try s.write("pass", Array("correct horse battery staple".utf8))
        let owner = ["VAULT_PASSPHRASE_FILE": s.path("pass")]
        func must(_ arguments: [String], stdin: String = "", environment: [String: String] = owner) throws {
            let result = try s.vault(arguments, stdin: Array(stdin.utf8), environment: environment)
            guard result.status == 0 else { throw SandboxError.setupFailed("vault \(arguments): \(result.stderr)") }
        }
        try must(["init", "--passphrase-file", s.path("pass"), "--kdf-cost", "testing"], environment: [:])
        try must(["passwd", "--add-key-file", s.path("key")])
        try must(["group", "create", "ci"])
        try must(["group", "create", "prod"])
        try must(["add", "-s", "github", "-a", "alice"], stdin: "gh-1")
        try must(["update", "-s", "github", "-a", "alice"], stdin: "gh-2")
        try must(["update", "-s", "github", "-a", "alice"], stdin: "gh-3")
        try must(["add", "-s", "device", "-a", "bound", "--class", "when-unlocked-this-device-only"], stdin: "bound")
        try must(["add", "-s", "printer", "-a", "pin", "--class", "always"], stdin: "pin")
        try must(["add", "-s", "npm", "-a", "publish", "--group", "ci", "--class", "after-first-unlock"], stdin: "npm-token")
        try must(["add", "-s", "db", "-a", "admin", "--group", "ci", "--class", "always"], stdin: "db-pass")
        try must(["add", "-s", "old", "-a", "token", "--group", "ci"], stdin: "old")
        try must(["delete", "-s", "old", "-a", "token", "--group", "ci"])
        try must(["add", "-s", "aws", "-a", "root", "--group", "prod"], stdin: "aws-root")
        try must(["add", "-s", "cron", "-a", "job", "--group", "prod", "--class", "after-first-unlock"], stdin: "cron")
        try must([
            "import", "--from", "bitwarden-json", Sandbox.packageRoot + "/Tests/VaultCLITests/Fixtures/Import/bitwarden.json",
            "--folders-as-groups"
        ])
        // Two sides of a merge: aws/root changed on both (its other version in the same pair), and
        // npm/publish moved to prod by theirs and changed by ours (its other version sealed as prod's).
        for copy in ["base.vault", "theirs.vault"] { try s.write(copy, s.read(s.vaultPath)!) }
        let theirs = owner.merging(["XDG_STATE_HOME": s.path("state-theirs")]) { $1 }
        try must(
            ["--vault", s.path("theirs.vault"), "update", "-s", "aws", "-a", "root", "--group", "prod"],
            stdin: "aws-theirs", environment: theirs)
        try must(
            ["--vault", s.path("theirs.vault"), "rename", "-s", "npm", "-a", "publish", "--group", "ci", "--to-group", "prod"],
            environment: theirs)
        try must(["update", "-s", "aws", "-a", "root", "--group", "prod"], stdin: "aws-ours")
        try must(["update", "-s", "npm", "-a", "publish", "--group", "ci"], stdin: "npm-ours")
        try must(["merge-driver", s.path("base.vault"), s.vaultPath, s.path("theirs.vault"), "default.vault"])

        for member in ["alice", "runner"] { try must(["identity", "new", "--out", s.path(member + ".id")], environment: [:]) }
        func recipient(_ member: String) throws -> String {
            String(decoding: try s.vault(["identity", "show", "--identity", s.path(member + ".id")]).stdout, as: UTF8.self)
                .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        try must(["member", "add", "alice", try recipient("alice")])
        try must(["member", "add", "runner", try recipient("runner"), "--group", "ci", "--read-only"])
        try must(["grant", "--group", "ci", "--out", s.path("ci.cred")])
        try must(["grant", "--group", "prod", "--read-only", "--out", s.path("prod.cred")])
        // A kind 8 entry, its names in clear (docs/FORMAT.md, "Team log").
        try must(["group", "allow-env", "ci", "APP_*,DEPLOY_TOKEN"])
        let trust = String(decoding: try s.vault(["trust"], environment: owner).stdout, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)

        // Every principal reads on this machine, where vault takes the device key from the data directory.
        let keys = s.home + "/.local/share/vault/device-keys"
        let deviceKey = try #require(try FileManager.default.contentsOfDirectory(atPath: keys).first { $0.hasSuffix(".key") })
        let device = ["--device-key", keys + "/" + deviceKey]
        func member(_ name: String) -> Principal {
            Principal(
                name: name, vault: ["VAULT_IDENTITY": s.path(name + ".id"), "VAULT_TRUST": trust],
                reader: ["--identity", s.path(name + ".id"), "--trust", trust] + device)
        }
        return [
            Principal(name: "passphrase", vault: owner, reader: ["--passphrase-file", s.path("pass")] + device),
            Principal(name: "key file", vault: ["VAULT_KEY_FILE": s.path("key")], reader: ["--key-file", s.path("key")] + device),
            member("alice"),
            member("runner"),
            Principal(
                name: "ci credential", vault: ["VAULT_CREDENTIAL": s.path("ci.cred")],
                reader: ["--credential", s.path("ci.cred")] + device),
            Principal(
                name: "prod credential", vault: ["VAULT_CREDENTIAL": s.path("prod.cred")],
                reader: ["--credential", s.path("prod.cred")] + device)
        ]
    }

    // MARK: what each side sees, as comparable lines

    /// What `vault` lists and gets with these keys: per item, group | class | service | account |
    /// secret | notes | otp | revisions | the newest conflict's other version; and the trash.
    static func vaultView(_ s: Sandbox, _ keys: [String: String]) throws -> (items: [String], trash: [String]) {
        func json(_ arguments: [String]) throws -> Any {
            let result = try s.vault(arguments, environment: keys)
            guard result.status == 0 else { throw SandboxError.setupFailed("vault \(arguments): \(result.stderr)") }
            return try JSONSerialization.jsonObject(with: Data(result.stdout))
        }
        let conflicted = Set((try json(["conflicts", "--json"]) as? [[String: Any]] ?? []).map(reference))
        var items: [String] = []
        for listed in try json(["list", "--json"]) as? [[String: Any]] ?? [] {
            let item = reference(listed)
            let got = try json(["get", item, "--json", "--show-secret"]) as? [String: Any] ?? [:]
            let text = { (key: String) in (got[key] as? String).map { hex(Array($0.utf8)) } ?? "-" }
            let revisions = try (json(["history", item, "--json"]) as? [Any] ?? []).indices.map {
                hex(try s.vault(["get", item, "--revision", String($0 + 1)], environment: keys).stdout)
            }
            var conflict = "-"
            if conflicted.contains(item) {
                let other = try s.vault(["get", item, "--conflict", "1"], environment: keys)
                conflict = other.status == 0 ? hex(other.stdout) : "not opened"
            }
            items.append(itemLine(listed, text("secret"), text("notes"), text("otp"), revisions, conflict))
        }
        let trash = (try json(["trash", "--json"]) as? [[String: Any]] ?? []).map { line($0) }
        return (items.sorted(), trash.sorted())
    }

    /// The same lines from the reader's JSON.
    static func readerView(_ object: [String: Any]) throws -> (items: [String], trash: [String]) {
        let items = (object["items"] as? [[String: Any]] ?? []).map { item -> String in
            let revisions = (item["revisions"] as? [[String: Any]] ?? []).map { hex(of: $0["secret"]) }
            var conflict = "-"
            if let newest = (item["conflicts"] as? [[String: Any]])?.first {
                conflict = (newest["version"] as? [String: Any]).map { hex(of: $0["secret"]) } ?? "not opened"
            }
            return itemLine(
                item, hex(of: item["secret"]), item["notes"].map(hex(of:)) ?? "-", item["otp"].map(hex(of:)) ?? "-",
                revisions, conflict)
        }
        let trash = (object["trash"] as? [[String: Any]] ?? []).map { line($0) }
        return (items.sorted(), trash.sorted())
    }

    static func line(_ item: [String: Any], _ values: String...) -> String {
        (["group", "class", "service", "account"].map { item[$0] as? String ?? "?" } + values).joined(separator: " | ")
    }

    static func itemLine(
        _ item: [String: Any], _ secret: String, _ notes: String, _ otp: String, _ revisions: [String],
        _ conflict: String
    ) -> String {
        line(item, secret, notes, otp, "revisions " + revisions.joined(separator: ","), "conflict " + conflict)
    }

    /// GROUP/SERVICE/ACCOUNT as `vault get` reads it, each part percent-encoded.
    static func reference(_ item: [String: Any]) -> String {
        ["group", "service", "account"].map { key in
            (item[key] as? String ?? "").utf8.map { byte -> String in
                let c = Character(Unicode.Scalar(byte))
                return byte < 0x80 && !"/%?# ".contains(c) && byte > 0x20 ? String(c) : String(format: "%%%02X", byte)
            }.joined()
        }.joined(separator: "/")
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The hex of one of the reader's sealed values ({"sha256", "hex"}).
    static func hex(of value: Any?) -> String { (value as? [String: Any])?["hex"] as? String ?? "?" }

    static func runReader(_ s: Sandbox, _ arguments: [String]) throws -> (status: Int32, object: [String: Any], stderr: String) {
        let result = try s.run("/usr/bin/python3", [reader, s.vaultPath, "--show-secrets"] + arguments)
        let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [String: Any] ?? [:]
        return (result.status, object, result.stderr)
    }
}
