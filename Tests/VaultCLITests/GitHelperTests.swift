import Foundation
import Testing

/// vault as git's credential helper, driven by Debian's real git through a
/// `git-credential-vault` link on PATH, as `credential.helper = vault` runs it.
@Suite struct GitHelperTests {
    private let git = "git -c credential.helper=vault"

    @Test func approveFillAndRejectRoundTrip() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.linkHelpers()

        let approve = try sandbox.shell(
            "\(git) credential approve",
            stdin: "protocol=https\nhost=example.com\nusername=alice\npassword=tok-1\n\n")
        #expect(approve.status == 0, "\(approve.stderr)")
        #expect(try sandbox.vault(["get", "-s", "git:https://example.com", "-a", "alice"]).stdoutText == "tok-1")

        let fill = try sandbox.shell("\(git) credential fill", stdin: "protocol=https\nhost=example.com\n\n")
        #expect(fill.status == 0, "\(fill.stderr)")
        #expect(fill.stdoutText == "protocol=https\nhost=example.com\nusername=alice\npassword=tok-1\n")

        // Another user, host or protocol misses: git falls back to its prompt, which is off here.
        for request in [
            "protocol=https\nhost=example.com\nusername=bob\n\n", "protocol=https\nhost=example.org\n\n",
            "protocol=http\nhost=example.com\n\n"
        ] {
            let miss = try sandbox.shell("\(git) credential fill", stdin: request)
            #expect(miss.status != 0)
            #expect(miss.stdout.isEmpty)
            #expect(miss.stderr.contains("terminal prompts disabled"), "\(miss.stderr)")
        }

        // With credential.useHttpPath git sends the path, and vault keeps a credential per repository.
        let pathGit = "\(git) -c credential.useHttpPath=true"
        let approvePath = try sandbox.shell(
            "\(pathGit) credential approve",
            stdin: "url=https://carol@example.com/org/repo.git\npassword=tok-repo\n\n")
        #expect(approvePath.status == 0, "\(approvePath.stderr)")
        #expect(try sandbox.vault(["get", "-s", "git:https://example.com/org/repo.git", "-a", "carol"]).stdoutText == "tok-repo")
        let fillPath = try sandbox.shell("\(pathGit) credential fill", stdin: "url=https://example.com/org/repo.git\n\n")
        #expect(fillPath.stdoutText.contains("username=carol\npassword=tok-repo\n"), "\(fillPath.stderr)")

        let reject = try sandbox.shell("\(git) credential reject", stdin: "protocol=https\nhost=example.com\nusername=alice\n\n")
        #expect(reject.status == 0, "\(reject.stderr)")
        #expect(try sandbox.vault(["get", "-s", "git:https://example.com", "-a", "alice"]).status == 44)
        #expect(try sandbox.vault(["get", "-s", "git:https://example.com/org/repo.git", "-a", "carol"]).status == 0)
    }

    @Test func helperOptionsInTheConfigChooseTheGroup() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.linkHelpers()
        let groupGit = #"git -c credential.helper="vault --group ci""#
        let approve = try sandbox.shell(
            "\(groupGit) credential approve",
            stdin: "protocol=https\nhost=ci.example\nusername=bot\npassword=ci-tok\n\n")
        #expect(approve.status == 0, "\(approve.stderr)")
        #expect(try sandbox.vault(["get", "--group", "ci", "-s", "git:https://ci.example", "-a", "bot"]).stdoutText == "ci-tok")
        #expect(try sandbox.shell("\(git) credential fill", stdin: "protocol=https\nhost=ci.example\n\n").stdout.isEmpty)
        #expect(
            try sandbox.shell("\(groupGit) credential fill", stdin: "protocol=https\nhost=ci.example\n\n").stdoutText.contains(
                "password=ci-tok"))
    }

    /// The helper takes vault's unlock options from git's config, or the environment git passes on.
    @Test func passphraseFileAndKeyFileUnlockTheHelper() throws {
        let sandbox = try Sandbox()
        try sandbox.write("pass", Array("correct horse".utf8))
        #expect(try sandbox.vault(["init", "--passphrase-file", sandbox.path("pass"), "--kdf-cost", "testing"]).status == 0)
        #expect(try sandbox.vault(["passwd", "--passphrase-file", sandbox.path("pass"), "--add-key-file", sandbox.path("key")]).status == 0)
        try sandbox.linkHelpers()
        let withPassphrase = #"git -c credential.helper="vault --passphrase-file $HOME/pass""#
        let approve = try sandbox.shell(
            "\(withPassphrase) credential approve",
            stdin: "protocol=https\nhost=example.com\nusername=alice\npassword=tok-1\n\n")
        #expect(approve.status == 0, "\(approve.stderr)")
        #expect(try sandbox.shell("\(git) credential fill", stdin: "protocol=https\nhost=example.com\n\n").stdout.isEmpty)
        for unlock in [
            #"git -c credential.helper="vault --key-file $HOME/key""#, "VAULT_KEY_FILE=$HOME/key \(git)",
            "VAULT_PASSPHRASE_FILE=$HOME/pass \(git)"
        ] {
            let fill = try sandbox.shell("\(unlock) credential fill", stdin: "protocol=https\nhost=example.com\n\n")
            #expect(fill.stdoutText.hasSuffix("username=alice\npassword=tok-1\n"), "\(unlock): \(fill.stderr)")
        }
    }

    /// The CI hand-off of docs/INTEGRATIONS.md: a read-only credential for
    /// group ci in VAULT_CREDENTIAL gives git and docker that group's logins,
    /// git's store of an unchanged login succeeds, and other groups exit 30.
    @Test func scopedCredentialGivesTheHelpersExactlyItsGroup() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.linkHelpers()
        let setUp = #"""
            set -e
            printf 'protocol=https\nhost=ci.example\nusername=bot\npassword=ci-tok\n\n' | vault git-credential --group ci store
            printf '{"ServerURL":"registry.example","Username":"robot","Secret":"reg-tok"}' | vault docker-credential --group ci store
            printf 'protocol=https\nhost=desk.example\nusername=me\npassword=desk-tok\n\n' | vault git-credential store
            vault grant --group ci --read-only --out ci.cred 2>/dev/null
            """#
        let prepared = try sandbox.shell(setUp)
        #expect(prepared.status == 0, "\(prepared.stderr)")
        sandbox.environment["VAULT_KEY_FILE"] = nil
        sandbox.environment["VAULT_CREDENTIAL"] = sandbox.path("ci.cred")
        sandbox.environment["VAULT_GROUP"] = "ci"

        let fill = try sandbox.shell("\(git) credential fill", stdin: "protocol=https\nhost=ci.example\n\n")
        #expect(fill.stdoutText.hasSuffix("username=bot\npassword=ci-tok\n"), "\(fill.stderr)")
        let approve = try sandbox.shell(
            "git-credential-vault store", stdin: "protocol=https\nhost=ci.example\nusername=bot\npassword=ci-tok\n\n")
        #expect(approve.status == 0, "\(approve.stderr)")
        let docker = try sandbox.shell("docker-credential-vault get", stdin: "registry.example")
        #expect(docker.stdoutText == #"{"ServerURL":"registry.example","Username":"robot","Secret":"reg-tok"}"# + "\n", "\(docker.stderr)")

        let otherGroup = try sandbox.shell("git-credential-vault --group default get", stdin: "protocol=https\nhost=desk.example\n\n")
        #expect(otherGroup.status == 30)
        #expect(otherGroup.stdout.isEmpty)
        #expect(!otherGroup.stderr.contains("desk-tok"))
        let change = try sandbox.shell(
            "git-credential-vault store", stdin: "protocol=https\nhost=ci.example\nusername=bot\npassword=new-tok\n\n")
        #expect(change.status == 30, "\(change.stderr)")
        #expect(change.stderr.split(separator: "\n").count == 1)
    }

    /// A real fetch over HTTP from `git http-backend` behind a CGI server on
    /// 127.0.0.1 that wants basic auth: it works with the token in vault, git
    /// erases a token the server refuses, and it fails once the item is gone.
    @Test func fetchOverHTTPWithBasicAuth() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.linkHelpers()
        try sandbox.write("server.py", Array(GitHTTPServer.script.utf8))
        let script = #"""
            set -u
            export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
            git init -q -b main work && echo hello > work/README && git -C work add README && git -C work commit -qm first
            git clone -q --bare work repos/project.git
            /usr/bin/python3 server.py "$PWD/repos" robot right-token port 2>server.log &
            server=$!
            trap 'kill $server 2>/dev/null' EXIT
            for _ in $(seq 1 100); do [ -s port ] && break; sleep 0.1; done
            port=$(cat port)
            url="http://127.0.0.1:$port/project.git"
            git="timeout 60 git -c credential.helper=vault"

            printf %s wrong-token | vault add -s "git:http://127.0.0.1:$port" -a robot
            $git clone -q "$url" refused 2>/dev/null; echo "clone-with-wrong-token $?"
            vault get -s "git:http://127.0.0.1:$port" -a robot >/dev/null 2>&1; echo "wrong-token-after-reject $?"

            printf %s right-token | vault add -s "git:http://127.0.0.1:$port" -a robot
            $git clone -q "$url" clone 2>clone.err; echo "clone-with-token $?"
            cat clone/README
            $git -C clone fetch -q 2>fetch.err; echo "fetch-with-token $?"

            vault delete -s "git:http://127.0.0.1:$port" -a robot 2>/dev/null
            $git -C clone fetch -q 2>fetch-after.err; echo "fetch-after-delete $?"
            grep -c 'terminal prompts disabled' fetch-after.err
            cat clone.err fetch.err server.log >&2
            """#
        let result = try sandbox.shell(script)
        #expect(result.status == 0, "\(result.stderr)")
        // git rejects the token the server refused, which erases it from vault (exit 44 afterwards).
        #expect(
            result.stdoutText == """
                clone-with-wrong-token 128
                wrong-token-after-reject 44
                clone-with-token 0
                hello
                fetch-with-token 0
                fetch-after-delete 128
                1

                """, "\(result.stderr)")
    }

    /// Locked, no terminal: the helper answers at once with nothing on stdout
    /// and one line on stderr saying how to unlock, even while git keeps its
    /// end of the pipe open; git then goes on to its (disabled) prompt.
    @Test func lockedVaultAnswersAtOnceAndLeaksNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.initWithKeyFile()
        try sandbox.linkHelpers()
        let store = try sandbox.shell(
            "git-credential-vault store",
            stdin: "protocol=https\nhost=example.com\nusername=alice\npassword=very-secret-token\n\n")
        #expect(store.status == 0, "\(store.stderr)")
        sandbox.environment["VAULT_KEY_FILE"] = nil

        // The writer holds the pipe open until the helper has answered (60 s at
        // most, so a helper that waits for end of input fails instead of hanging).
        let script = #"""
            ( printf 'protocol=https\nhost=example.com\n\n'
              n=0; until [ -e answered ] || [ "$n" -ge 1200 ]; do n=$((n + 1)); sleep 0.05; done
              [ -e answered ] || echo "the helper waited for the end of its input" >&2 ) | {
                timeout 120 git-credential-vault get >out 2>err
                echo "status $?"
                touch answered
            }
            """#
        let result = try sandbox.shell(script)
        #expect(result.stdoutText == "status 36\n", "\(result.stdoutText) \(result.stderr)")
        #expect(!result.stderr.contains("waited for the end of its input"), "\(result.stderr)")
        #expect(sandbox.read("out") == [])
        let err = String(decoding: sandbox.read("err") ?? [], as: UTF8.self)
        #expect(err.split(separator: "\n").count == 1, "\(err)")
        #expect(err.contains("vault unlock"))
        #expect(!err.contains("very-secret-token"))

        let fill = try sandbox.shell("timeout 10 \(git) credential fill", stdin: "protocol=https\nhost=example.com\n\n")
        #expect(fill.status == 128, "\(fill.stderr)")
        #expect(fill.stdout.isEmpty)
        #expect(fill.stderr.contains("the vault is locked"))
        #expect(fill.stderr.contains("terminal prompts disabled"))
        #expect(!fill.stderr.contains("very-secret-token"))
    }
}

/// A small HTTP server for `git http-backend` with basic auth, for Debian's
/// /usr/bin/python3: `server.py ROOT USER PASSWORD PORTFILE` serves the bare
/// repositories under ROOT on 127.0.0.1 and writes its port to PORTFILE.
enum GitHTTPServer {
    static let script = #"""
        import base64, http.server, os, subprocess, sys

        root, user, password, port_file = sys.argv[1:5]
        expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.serve()

            def do_POST(self):
                self.serve()

            def serve(self):
                if self.headers.get("Authorization") != expected:
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="git"')
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                path, _, query = self.path.partition("?")
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                env = dict(os.environ, GIT_PROJECT_ROOT=root, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path,
                           QUERY_STRING=query, REQUEST_METHOD=self.command, REMOTE_USER=user, REMOTE_ADDR="127.0.0.1",
                           CONTENT_TYPE=self.headers.get("Content-Type", ""), CONTENT_LENGTH=str(len(body)),
                           GIT_PROTOCOL=self.headers.get("Git-Protocol", ""))
                output = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True).stdout
                head, _, content = output.partition(b"\r\n\r\n")
                status = 200
                headers = []
                for line in head.decode().split("\r\n"):
                    name, _, value = line.partition(":")
                    if name.lower() == "status":
                        status = int(value.split()[0])
                    elif name:
                        headers.append((name, value.strip()))
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, *args):
                pass

        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(server.server_port))
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """#
}
