import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// openbao:// references against a real OpenBao dev server (Support/OpenBaoServer.swift): run, inject
/// and get, versions, a policy-limited token counted in the audit log, AppRole with a wrapped
/// secret id, TLS with the dev CA, and the failures each with its line and exit code.
@Suite(.serialized) struct OpenBaoTests {
    /// A sandbox (no vault in it: openbao:// references need none) pointed at `server` as root.
    private func sandbox(_ server: OpenBaoServer) throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.environment.merge(server.environment) { $1 }
        return sandbox
    }

    @Test func runGivesTheChildTheValuesAndMasksThem() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        try server.put("secret/ci/db", ["password": "hunter2-db-pass", "user": "deploy"])
        let sandbox = try sandbox(server)
        let result = try sandbox.vault([
            "run", "--env", "P=openbao://secret/ci/db#password", "--env", "U=openbao://secret/ci/db#user", "--",
            "sh", "-c", "printf %s \"$P\" > child-saw; echo \"P=$P U=$U token=${BAO_TOKEN:-withheld}\""
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.read("child-saw") == Array("hunter2-db-pass".utf8))
        #expect(!result.stdoutText.contains("hunter2-db-pass") && !result.stdoutText.contains("deploy"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("P=<concealed by vault>"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("token=withheld"), "BAO_TOKEN is kept from the child: \(result.stdoutText)")
        try sandbox.write("ci.env", Array("DB_PASSWORD=openbao://secret/ci/db#password\n".utf8))
        let fromFile = try sandbox.vault([
            "run", "--env-file", sandbox.path("ci.env"), "--", "sh", "-c", "test \"$DB_PASSWORD\" = hunter2-db-pass"
        ])
        #expect(fromFile.status == 0, "an env file's reference: \(fromFile.stderr)")
    }

    @Test func injectAndGetReadFieldsAndVersions() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        try server.put("secret/app/api", ["key": "first-key"])
        try server.put("secret/app/api", ["key": "second-key"])
        let sandbox = try sandbox(server)
        let latest = try sandbox.vault(["get", "openbao://secret/app/api#key"])
        #expect(latest.status == 0 && latest.stdoutText == "second-key", "\(latest.stderr)")
        let first = try sandbox.vault(["get", "openbao://secret/app/api#key?version=1"])
        #expect(first.status == 0 && first.stdoutText == "first-key", "\(first.stderr)")
        let oneSegment = try sandbox.vault(["get", "openbao://app%2Fapi#key"])
        #expect(oneSegment.status == 2, "a '/' inside a segment is refused: \(oneSegment.stderr)")
        let injected = try sandbox.vault(
            ["inject"], stdin: Array("a={{ openbao://secret/app/api#key }} b={{openbao://secret/app/api#key?version=1}}\n".utf8))
        #expect(injected.status == 0 && injected.stdoutText == "a=second-key b=first-key\n", "\(injected.stdoutText)\(injected.stderr)")
        let missingVersion = try sandbox.vault(["get", "openbao://secret/app/api#key?version=9"])
        #expect(
            missingVersion.status == 44 && missingVersion.stderr.contains("no secret at \"secret/app/api\" in version 9"),
            "\(missingVersion.stderr)")
        let missingField = try sandbox.vault(["get", "openbao://secret/app/api#nope"])
        #expect(
            missingField.status == 44 && missingField.stderr.contains("has no field \"nope\"; it has \"key\""), "\(missingField.stderr)")
        let missingPath = try sandbox.vault(["run", "--env", "X=openbao://secret/app/none#key", "--", "true"])
        #expect(
            missingPath.status == 44 && missingPath.stderr.contains("--env X: openbao://secret/app/none#key: OpenBao has no secret"),
            "\(missingPath.stderr)")
        let malformed = try sandbox.vault(["run", "--env", "X=openbao://secret/app/api", "--", "true"])
        #expect(malformed.status == 2 && malformed.stderr.contains("it names no field"), "\(malformed.stderr)")
    }

    /// A KV v1 mount (`bao secrets enable -path=kv1 kv`) is read when BAO_KV1_MOUNTS names it: `GET
    /// /v1/kv1/PATH`, no probe; unnamed, it is taken for KV v2 and answers "no secret at".
    @Test func kvVersion1MountIsReadWhenConfigured() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer(audit: true)
        _ = try server.bao(["secrets", "enable", "-path=kv1", "-version=1", "kv"])
        _ = try server.bao(["write", "kv1/app/db", "password=v1-db-pass", "user=v1-user"])
        let sandbox = try sandbox(server)
        let unconfigured = try sandbox.vault(["get", "openbao://kv1/app/db#password"])
        #expect(unconfigured.status == 44 && unconfigured.stderr.contains("no secret at"), "\(unconfigured.stderr)")
        sandbox.environment["BAO_KV1_MOUNTS"] = "legacy, kv1"
        let before = server.requestedPaths().count
        let got = try sandbox.vault(["get", "openbao://kv1/app/db#password"])
        #expect(got.status == 0 && got.stdoutText == "v1-db-pass", "\(got.stdoutText)\(got.stderr)")
        let run = try sandbox.vault([
            "run", "--env", "P=openbao://kv1/app/db#password", "--env", "U=openbao://kv1/app/db#user",
            "--", "sh", "-c", "test \"$P/$U\" = v1-db-pass/v1-user && echo \"$P\""
        ])
        #expect(run.status == 0 && run.stdoutText == "<concealed by vault>\n", "\(run.stdoutText)\(run.stderr)")
        #expect(Array(server.requestedPaths().dropFirst(before)) == ["kv1/app/db", "kv1/app/db"], "one GET per command, no probe")
        let versioned = try sandbox.vault(["get", "openbao://kv1/app/db#password?version=1"])
        #expect(versioned.status == 2 && versioned.stdoutText.isEmpty, "\(versioned.stderr)")
        #expect(versioned.stderr.contains("BAO_KV1_MOUNTS names \"kv1\" a KV v1 mount, which keeps no versions"), "\(versioned.stderr)")
        try server.put("secret/app/api", ["key": "v2-key"])
        let mixed = try sandbox.vault(["get", "openbao://secret/app/api#key"])
        #expect(mixed.status == 0 && mixed.stdoutText == "v2-key", "other mounts stay KV v2: \(mixed.stderr)")
    }

    /// A token with one policy and no default policy reads its paths, one request per path however
    /// many fields name it, and nothing else (no lookup-self, no capabilities or mount probe).
    @Test func policyLimitedTokenReadsEachPathOnceAndIsRefusedElsewhere() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer(audit: true)
        try server.put("secret/app/db", ["password": "db-secret-1", "user": "app"])
        try server.put("secret/app/api", ["key": "api-secret-2"])
        try server.put("secret/other/x", ["y": "other-secret"])
        try server.bao(["policy", "write", "app-read", "-"], stdin: "path \"secret/data/app/*\" { capabilities = [\"read\"] }\n")
        let token = try server.bao(["token", "create", "-policy=app-read", "-no-default-policy", "-field=token"])
        let sandbox = try sandbox(server)
        sandbox.environment["BAO_TOKEN"] = token
        let before = server.requestedPaths().count
        let result = try sandbox.vault([
            "run", "--env", "A=openbao://secret/app/db#password", "--env", "B=openbao://secret/app/db#user",
            "--env", "C=openbao://secret/app/api#key", "--env", "D=openbao://secret/app/db#password",
            "--", "sh", "-c", "test \"$A/$B/$C/$D\" = db-secret-1/app/api-secret-2/db-secret-1"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let paths = Array(server.requestedPaths().dropFirst(before))
        #expect(paths.sorted() == ["secret/data/app/api", "secret/data/app/db"], "requests: \(paths)")
        let refused = try sandbox.vault(["get", "openbao://secret/other/x#y"])
        #expect(refused.status == 30, "\(refused.stderr)")
        #expect(
            refused.stderr == "vault: error: the OpenBao token may not read \"secret/data/other/x\" (permission denied by its policies)\n"
                + "vault: hint: ask for a policy that grants read on the path, or fix the reference\n", "\(refused.stderr)")
        let wrongToken = try sandbox.vault(["get", "openbao://secret/app/db#user"], environment: ["BAO_TOKEN": "s.not-a-token"])
        #expect(wrongToken.status == 51 && wrongToken.stderr.contains("does not accept the token"), "\(wrongToken.stderr)")
        #expect(!wrongToken.stderr.contains("s.not-a-token") && !refused.stderr.contains(token), "a token is never printed")
    }

    /// CI's AppRole login with a response-wrapped secret id: unwrapped once, logged in, read; the same
    /// wrapped id a second time is refused (it is single-use), with no token in any message.
    @Test func appRoleWithWrappedSecretID() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        try server.put("secret/ci/deploy", ["token": "deploy-token-3"])
        try server.bao(["policy", "write", "ci", "-"], stdin: "path \"secret/data/ci/*\" { capabilities = [\"read\"] }\n")
        try server.bao(["auth", "enable", "approle"])
        try server.bao(["write", "auth/approle/role/ci", "token_policies=ci", "token_no_default_policy=true"])
        let roleID = try server.bao(["read", "-field=role_id", "auth/approle/role/ci/role-id"])
        let wrapped = try server.bao(["write", "-f", "-wrap-ttl=120s", "-field=wrapping_token", "auth/approle/role/ci/secret-id"])
        let sandbox = try Sandbox()
        sandbox.environment["BAO_ADDR"] = server.address
        try sandbox.write("secret-id", Array(wrapped.utf8))
        let login = [
            "BAO_APPROLE_ROLE_ID": roleID, "BAO_APPROLE_SECRET_ID_FILE": sandbox.path("secret-id"), "BAO_APPROLE_SECRET_ID_WRAPPED": "1"
        ]
        let first = try sandbox.vault(["get", "openbao://secret/ci/deploy#token"], environment: login)
        #expect(first.status == 0 && first.stdoutText == "deploy-token-3", "\(first.stderr)")
        let again = try sandbox.vault(["get", "openbao://secret/ci/deploy#token"], environment: login)
        #expect(again.status != 0 && again.stdout.isEmpty, "a wrapped secret id is single-use: \(again.stderr)")
        #expect(!again.stderr.contains(wrapped) && !again.stderr.contains(roleID), "\(again.stderr)")
    }

    /// -dev-tls: trusted with its CA in BAO_CACERT, refused without it (the system's CAs do not sign it).
    @Test func tlsVerifiesTheServerWithItsCA() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer(tls: true)
        try server.put("secret/tls/x", ["v": "over-tls-4"])
        let sandbox = try sandbox(server)
        let trusted = try sandbox.vault(["get", "openbao://secret/tls/x#v"])
        #expect(trusted.status == 0 && trusted.stdoutText == "over-tls-4", "\(trusted.stderr)")
        sandbox.environment["BAO_CACERT"] = nil
        let refused = try sandbox.vault(["get", "openbao://secret/tls/x#v"])
        #expect(refused.status == 32 && refused.stdout.isEmpty, "\(refused.stderr)")
        #expect(
            refused.stderr.hasPrefix(
                "vault: error: the certificate of the OpenBao server at https://127.0.0.1:\(server.port) is not trusted"),
            "\(refused.stderr)")
        let plain = try sandbox.vault(["get", "openbao://secret/tls/x#v"], environment: ["BAO_ADDR": "http://127.0.0.1:\(server.port)"])
        #expect(plain.status != 0 && plain.stdout.isEmpty, "plain HTTP to a TLS listener: \(plain.stderr)")
    }

    /// A sealed server is its own error (exit 36).
    @Test func sealedServerIsRefusedWithItsOwnLine() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        try server.put("secret/s/x", ["v": "sealed-5"])
        try server.bao(["operator", "seal"])
        let result = try sandbox(server).vault(["run", "--env", "V=openbao://secret/s/x#v", "--", "true"])
        #expect(result.status == 36 && result.stderr.contains("is sealed"), "\(result.stderr)")
    }

    /// No server on the port, and a server that accepts and never answers: each an error within the time set.
    @Test func unreachableAndSilentServersFailInBoundedTime() throws {
        let sandbox = try Sandbox()
        let port = try OpenBaoServer.freePortPair()
        var start = Date()
        let refused = try sandbox.vault(
            ["get", "openbao://secret/a#b"], environment: ["BAO_ADDR": "http://127.0.0.1:\(port)", "BAO_TOKEN": "t"])
        #expect(refused.status == 53 && refused.stderr.contains("cannot be reached: Connection refused"), "\(refused.stderr)")
        #expect(Date().timeIntervalSince(start) < 5)
        let (listener, silentPort) = try OpenBaoServer.bound(0)
        defer { close(listener) }
        listen(listener, 8)
        for scheme in ["http", "https"] {
            start = Date()
            let silent = try sandbox.vault(
                ["get", "openbao://secret/a#b"],
                environment: ["BAO_ADDR": "\(scheme)://127.0.0.1:\(silentPort)", "BAO_TOKEN": "t", "BAO_CLIENT_TIMEOUT": "2"])
            let elapsed = Date().timeIntervalSince(start)
            #expect(silent.status == 53 && silent.stderr.contains("did not answer within 2 s"), "\(scheme): \(silent.stderr)")
            #expect(elapsed >= 1.5 && elapsed < 6, "\(scheme): took \(elapsed) s")
        }
        let noAddress = try sandbox.vault(["get", "openbao://secret/a#b"])
        #expect(noAddress.status == 2 && noAddress.stderr.contains("BAO_ADDR is not set"), "\(noAddress.stderr)")
        let badAddress = try sandbox.vault(["get", "openbao://secret/a#b"], environment: ["BAO_ADDR": "ftp://x", "BAO_TOKEN": "t"])
        #expect(badAddress.status == 2 && badAddress.stderr.contains("is not an address vault can use"), "\(badAddress.stderr)")
        let smuggled = try sandbox.vault(
            ["get", "openbao://secret/a#b"],
            environment: ["BAO_ADDR": "http://127.0.0.1:\(port)", "BAO_TOKEN": "t\r\nX-Vault-Namespace: other"])
        #expect(smuggled.status == 2 && smuggled.stderr.contains("BAO_TOKEN holds a space or control character"), "\(smuggled.stderr)")
        #expect(!smuggled.stderr.contains("X-Vault-Namespace"), "the token is not shown")
    }

    /// libssl is mapped only by a command that reaches an https:// server: a local `get` never maps it.
    @Test func onlyTLSCommandsLoadLibssl() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer(tls: true)
        try server.put("secret/l/x", ["v": "tls-6"])
        let sandbox = try sandbox(server)
        try sandbox.initWithKeyFile()
        _ = try sandbox.vault(["add", "-s", "local", "-a", "me"], stdin: Array("local-7".utf8))
        let local = try sandbox.vault(["get", "local/me"], environment: ["LD_DEBUG": "libs"])
        #expect(local.status == 0 && local.stdoutText == "local-7", "\(local.stderr.suffix(400))")
        #expect(!local.stderr.contains("libssl"), "a local get mapped libssl")
        let remote = try sandbox.vault(["get", "openbao://secret/l/x#v"], environment: ["LD_DEBUG": "libs"])
        #expect(remote.status == 0 && remote.stdoutText == "tls-6")
        #expect(remote.stderr.contains("libssl.so.3"), "the probe sees libssl when it is loaded")
    }
}

/// What sits between vault and the server: a local Agent or Proxy on a Unix socket (`unix://`),
/// and an https_proxy that tunnels TLS (no_proxy skips it).
@Suite(.serialized) struct OpenBaoTransportTests {
    /// Starts Support/openbao-relay.py with `arguments` and waits for it to listen; kill the pid after.
    private func relay(_ arguments: [String], in sandbox: Sandbox) throws -> pid_t {
        let ready = sandbox.path("relay-ready-" + UUID().uuidString)
        FileManager.default.createFile(atPath: ready, contents: nil)
        let pid = try Sandbox.launch(
            "/usr/bin/python3", [Sandbox.packageRoot + "/Tests/VaultCLITests/Support/openbao-relay.py"] + arguments,
            environment: ["PATH": "/usr/bin:/bin"], directory: sandbox.home, stdin: "/dev/null",
            stdout: ready, stderr: ready)
        for _ in 0..<200 where (sandbox.read(ready) ?? []).isEmpty { usleep(25_000) }
        return pid
    }

    private func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        _ = Sandbox.waitForExit(pid)
    }

    @Test func unixSocketAddressReachesTheServer() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer()
        try server.put("secret/u/x", ["v": "over-unix-8"])
        let sandbox = try Sandbox()
        sandbox.environment.merge(server.environment) { $1 }
        let socket = sandbox.path("agent.sock")
        let pid = try relay(["unix", socket, "127.0.0.1", "\(server.port)"], in: sandbox)
        defer { stop(pid) }
        let result = try sandbox.vault(["get", "openbao://secret/u/x#v"], environment: ["BAO_ADDR": "unix://" + socket])
        #expect(result.status == 0 && result.stdoutText == "over-unix-8", "\(result.stderr)")
        let missing = try sandbox.vault(["get", "openbao://secret/u/x#v"], environment: ["BAO_ADDR": "unix://" + sandbox.path("none.sock")])
        #expect(missing.status == 53 && missing.stderr.contains("cannot be reached"), "\(missing.stderr)")
    }

    @Test func httpsProxyTunnelsTLSUnlessNoProxyNamesTheHost() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer(tls: true)
        try server.put("secret/p/x", ["v": "through-proxy-9"])
        let sandbox = try Sandbox()
        sandbox.environment.merge(server.environment) { $1 }
        let pid = try relay(["proxy", sandbox.path("proxy-port"), sandbox.path("proxy.log")], in: sandbox)
        defer { stop(pid) }
        let port = String(decoding: sandbox.read("proxy-port") ?? [], as: UTF8.self)
        sandbox.environment["https_proxy"] = "http://127.0.0.1:\(port)"
        let proxied = try sandbox.vault(["get", "openbao://secret/p/x#v"])
        #expect(proxied.status == 0 && proxied.stdoutText == "through-proxy-9", "\(proxied.stderr)")
        #expect(String(decoding: sandbox.read("proxy.log") ?? [], as: UTF8.self) == "CONNECT 127.0.0.1:\(server.port)\n")
        let direct = try sandbox.vault(["get", "openbao://secret/p/x#v"], environment: ["no_proxy": "127.0.0.1"])
        #expect(direct.status == 0 && direct.stdoutText == "through-proxy-9", "\(direct.stderr)")
        #expect(
            String(decoding: sandbox.read("proxy.log") ?? [], as: UTF8.self) == "CONNECT 127.0.0.1:\(server.port)\n", "no_proxy: no tunnel")
    }

    /// The server's certificate is checked against the name in BAO_ADDR: the dev server reached
    /// under another name (a proxy sends every tunnel to it) is refused, its CA trusted or not.
    @Test func certificateForAnotherNameIsRefused() throws {
        guard OpenBaoServer.available() else { return }
        let server = try OpenBaoServer(tls: true)
        try server.put("secret/n/x", ["v": "named-10"])
        let sandbox = try Sandbox()
        sandbox.environment.merge(server.environment) { $1 }
        let pid = try relay(["proxy", sandbox.path("proxy-port"), sandbox.path("proxy.log"), "127.0.0.1:\(server.port)"], in: sandbox)
        defer { stop(pid) }
        let port = String(decoding: sandbox.read("proxy-port") ?? [], as: UTF8.self)
        let impostor = try sandbox.vault(
            ["get", "openbao://secret/n/x#v"],
            environment: ["https_proxy": "http://127.0.0.1:\(port)", "BAO_ADDR": "https://bao.not-this-server.example:\(server.port)"])
        #expect(impostor.status == 32 && impostor.stdout.isEmpty, "\(impostor.stderr)")
        #expect(impostor.stderr.contains("is not trusted: hostname mismatch"), "\(impostor.stderr)")
        let named = try sandbox.vault(["get", "openbao://secret/n/x#v"], environment: ["https_proxy": "http://127.0.0.1:\(port)"])
        #expect(named.status == 0 && named.stdoutText == "named-10", "the same tunnel under the certificate's name: \(named.stderr)")
    }
}
