import Foundation
import Testing

/// vault as docker's credential store, driven by Debian's python3-docker
/// (`docker.credentials.Store("vault")`) through a `docker-credential-vault`
/// link on PATH, as `"credsStore": "vault"` runs it.
@Suite struct DockerHelperTests {
    /// Runs a Python program with Debian's interpreter (the one python3-docker is installed for).
    private func python(_ sandbox: Sandbox, _ program: String) throws -> RunResult {
        try sandbox.write("client.py", Array(program.utf8))
        return try sandbox.run("/usr/bin/python3", [sandbox.path("client.py")])
    }

    @Test func storeGetListEraseThroughDockersClient() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.linkHelpers()
        let result = try python(
            sandbox,
            #"""
            import docker.credentials as credentials

            store = credentials.Store("vault")
            store.store("https://registry.example:5000", "robot", "tok-1")
            store.store("https://index.docker.io/v1/", "hub", "hub-\"tok\u00e9")
            assert store.get("https://registry.example:5000") == {
                "ServerURL": "https://registry.example:5000", "Username": "robot", "Secret": "tok-1"}, "get"
            assert store.get("https://index.docker.io/v1/")["Secret"] == "hub-\"tok\u00e9", "escapes"
            assert store.list() == {"https://registry.example:5000": "robot", "https://index.docker.io/v1/": "hub"}, "list"
            store.store("https://registry.example:5000", "robot", "tok-2")
            assert store.get("https://registry.example:5000")["Secret"] == "tok-2", "replace"
            store.erase("https://registry.example:5000")
            assert store.list() == {"https://index.docker.io/v1/": "hub"}, "list after erase"
            for server in ["https://registry.example:5000", "https://never.example"]:
                try:
                    store.get(server)
                    raise SystemExit("no error for " + server)
                except credentials.errors.CredentialsNotFound:
                    pass
            print("ok")
            """#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "ok\n", "\(result.stderr)")
        // The logins are ordinary items that vault reads.
        #expect(try sandbox.vault(["get", "-s", "docker:https://index.docker.io/v1/", "-a", "hub"]).stdoutText == "hub-\"toké")
    }

    /// Locked, no terminal: every operation answers at once with an error
    /// docker's client raises, one line on stderr, and no secret anywhere.
    @Test func lockedVaultAnswersAtOnceAndLeaksNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.linkHelpers()
        let store = try sandbox.shell(
            "docker-credential-vault store",
            stdin: #"{"ServerURL":"https://r.example","Username":"robot","Secret":"very-secret-token"}"#)
        #expect(store.status == 0, "\(store.stderr)")
        sandbox.environment["VAULT_KEY_FILE"] = nil
        let result = try python(
            sandbox,
            #"""
            import subprocess, time
            import docker.credentials as credentials

            store = credentials.Store("vault")
            for name, call in [("get", lambda: store.get("https://r.example")), ("list", store.list),
                               ("store", lambda: store.store("https://r.example", "robot", "new-secret-token")),
                               ("erase", lambda: store.erase("https://r.example"))]:
                start = time.monotonic()
                try:
                    call()
                    print(name, "no error")
                except credentials.errors.CredentialsNotFound:
                    print(name, "not found")
                except credentials.errors.StoreError as error:
                    message = str(error)
                    assert "secret-token" not in message, message
                    print(name, "locked" if "the vault is locked" in message else message)
                # Only a hang fails this (waiting for a prompt, say): no timing of a slow machine.
                assert time.monotonic() - start < 60, name + " hung"
            run = subprocess.run(["timeout", "10", "docker-credential-vault", "get"], input=b"https://r.example",
                                 capture_output=True)
            print("exit", run.returncode, "stderr lines", len(run.stderr.splitlines()))
            assert b"secret-token" not in run.stdout + run.stderr
            assert b"vault unlock" in run.stderr
            """#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdoutText == """
                get locked
                list locked
                store locked
                erase locked
                exit 36 stderr lines 1

                """, "\(result.stderr)")
        #expect(!result.stderr.contains("secret-token"))
    }
}
