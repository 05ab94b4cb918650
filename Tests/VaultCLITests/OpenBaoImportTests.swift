import Foundation
import Testing

/// `vault import --from openbao MOUNT/PREFIX` against a real OpenBao dev server: every KV v2 secret
/// under the prefix, one item per field, with --dry-run, --group, --on-conflict and every bad input.
@Suite(.serialized) struct OpenBaoImportTests {
    @Test func importsEverySecretUnderThePrefix() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        try server.put("secret/ci/db", ["password": "import-db-1", "user": "ci-user"])
        try server.put("secret/ci/deep/api", ["key": "import-api-2"])
        try server.put("secret/elsewhere", ["x": "not-taken"])
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        sandbox.environment.merge(server.environment) { $1 }

        let dryRun = try sandbox.vault(["import", "--from", "openbao", "secret/ci", "--group", "ci", "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(
            dryRun.stdoutText == "vault://ci/ci%2Fdb/password\nvault://ci/ci%2Fdb/user\nvault://ci/ci%2Fdeep%2Fapi/key\n",
            "\(dryRun.stdoutText)")
        #expect(try sandbox.vault(["list"]).stdoutText.isEmpty, "--dry-run changes nothing")

        let imported = try sandbox.vault(["import", "--from", "openbao", "secret/ci", "--group", "ci"])
        #expect(imported.status == 0 && imported.stderr.contains("imported 3 entries"), "\(imported.stderr)")
        let secret = try sandbox.vault(["get", "--group", "ci", "-s", "ci/deep/api", "-a", "key"])
        #expect(secret.stdoutText == "import-api-2", "\(secret.stderr)")
        let listed = try sandbox.vault(["list"]).stdoutText
        #expect(!listed.contains("elsewhere"), "only the prefix is taken: \(listed)")

        try server.put("secret/ci/db", ["password": "import-db-changed", "user": "ci-user"])
        let conflict = try sandbox.vault(["import", "--from", "openbao", "secret/ci", "--group", "ci"])
        #expect(conflict.status == 45 && conflict.stderr.contains("which exists here; nothing was imported"), "\(conflict.stderr)")
        let skipped = try sandbox.vault(["import", "--from", "openbao", "secret/ci", "--group", "ci", "--on-conflict", "skip"])
        #expect(skipped.status == 0 && skipped.stderr.contains("0 added, 0 replaced, 3 skipped"), "\(skipped.stderr)")
        let replaced = try sandbox.vault(["import", "--from", "openbao", "secret/ci", "--group", "ci", "--on-conflict", "replace"])
        #expect(replaced.status == 0 && replaced.stderr.contains("3 replaced"), "\(replaced.stderr)")
        #expect(try sandbox.vault(["get", "--group", "ci", "-s", "ci/db", "-a", "password"]).stdoutText == "import-db-changed")
    }

    /// A KV v1 mount named in BAO_KV1_MOUNTS is listed and read without `metadata/` and `data/`.
    @Test func importsFromAKVVersion1Mount() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        _ = try server.bao(["secrets", "enable", "-path=kv1", "-version=1", "kv"])
        _ = try server.bao(["write", "kv1/ci/db", "password=v1-import-pass"])
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        sandbox.environment.merge(server.environment) { $1 }
        sandbox.environment["BAO_KV1_MOUNTS"] = "kv1"
        let imported = try sandbox.vault(["import", "--from", "openbao", "kv1/ci", "--group", "ci"])
        #expect(imported.status == 0 && imported.stderr.contains("imported 1 entr"), "\(imported.stderr)")
        #expect(try sandbox.vault(["get", "--group", "ci", "-s", "ci/db", "-a", "password"]).stdoutText == "v1-import-pass")
    }

    @Test func everyBadInputIsRefusedAndChangesNothing() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        try server.put("secret/ci/db", ["password": "bad-input-1"])
        try server.bao(["kv", "put", "secret/nested/x", "-"], stdin: "{\"obj\": {\"a\": 1}}")
        try server.bao(["policy", "write", "ci-only", "-"], stdin: "path \"secret/data/ci/*\" { capabilities = [\"read\"] }\n")
        let token = try server.bao(["token", "create", "-policy=ci-only", "-no-default-policy", "-field=token"])
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        sandbox.environment.merge(server.environment) { $1 }
        let before = sandbox.read(sandbox.vaultPath)

        let cases: [(arguments: [String], environment: [String: String], status: Int32, message: String)] = [
            (["openbao"], [:], 2, "vault: error: no mount named\n"),
            (["openbao", "secret//ci"], [:], 2, "is not MOUNT/PREFIX"),
            (["openbao", "secret/../x"], [:], 2, "is not MOUNT/PREFIX"),
            (["openbao", "secret/nothing"], [:], 44, "OpenBao has no secret at \"secret/nothing\""),
            (["openbao", "secret/nested"], [:], 2, "nothing was imported"),
            (["openbao", "secret/ci"], ["BAO_TOKEN": token], 30, "may not read \"secret/metadata/ci/\""),
            (["openbao", "secret/ci"], ["BAO_TOKEN": "wrong"], 51, "does not accept the token"),
            (["openbao", "secret/ci"], ["BAO_ADDR": ""], 2, "BAO_ADDR is not set"),
            (["openbao", "secret", "--max-entries", "1"], [:], 2, "the source holds 2 entries, more than the 1 one import takes")
        ]
        for (arguments, environment, status, message) in cases {
            let result = try sandbox.vault(["import", "--from"] + arguments, environment: environment)
            #expect(result.status == status && result.stderr.contains(message), "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").first?.hasPrefix("vault: error: ") == true, "\(result.stderr)")
            #expect(sandbox.read(sandbox.vaultPath) == before, "\(arguments) changed the vault")
        }
    }
}
