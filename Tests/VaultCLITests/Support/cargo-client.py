"""cargo (1.74 or later) logs in, fetches and logs out of a registry on loopback whose credential
provider is vault. Run by CargoHelperTests with the sandbox's HOME and PATH and VAULT_KEY_FILE:

    cargo-client.py CARGO

The stub serves a sparse index that requires authentication (config.json says auth-required)
and records the Authorization header of every request. Prints "ok" when cargo sent vault's
token; a failed check exits non-zero with what was seen.
"""
import http.server, json, os, subprocess, sys, threading

cargo = sys.argv[1]
home = os.environ["HOME"]
seen = []


class Stub(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        auth = self.headers.get("Authorization")
        seen.append((self.path, auth))
        if self.path == "/index/config.json":
            port = self.server.server_address[1]
            body, status = {"dl": f"http://127.0.0.1:{port}/dl", "api": f"http://127.0.0.1:{port}", "auth-required": True}, 200
        elif auth is None:
            body, status = {"errors": [{"detail": "token required"}]}, 401
        else:
            body, status = {"errors": [{"detail": "no such crate"}]}, 404
        data = json.dumps(body).encode()
        self.send_response(status)
        if status == 401:
            self.send_header("WWW-Authenticate", "Cargo")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
threading.Thread(target=server.serve_forever, daemon=True).start()
index = f"sparse+http://127.0.0.1:{server.server_address[1]}/index/"
cargo_home = f"{home}/cargo-home"
os.makedirs(cargo_home, exist_ok=True)
with open(f"{cargo_home}/config.toml", "w") as config:
    config.write(f'[registries.local]\nindex = "{index}"\ncredential-provider = ["vault", "cargo-credential"]\n'
                 '[net]\nretry = 0\n')
project = f"{home}/project"
os.makedirs(f"{project}/src", exist_ok=True)
with open(f"{project}/Cargo.toml", "w") as manifest:
    manifest.write('[package]\nname = "probe"\nversion = "0.1.0"\nedition = "2021"\n\n'
                   '[dependencies]\nwanted = { version = "0.1", registry = "local" }\n')
open(f"{project}/src/lib.rs", "w").close()
environment = dict(os.environ, CARGO_HOME=cargo_home)


def run(*args):
    return subprocess.run([cargo, *args], cwd=project, env=environment, capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def vault_get():
    return subprocess.run(["vault", "get", "-s", "cargo:" + index, "-a", "local"], capture_output=True)


login = run("login", "--registry", "local", "cargo-tok-1")
assert login.returncode == 0, login.stderr
assert vault_get().stdout == b"cargo-tok-1", vault_get()

fetch = run("generate-lockfile")
report = f"seen {seen}, stderr {fetch.stderr.decode()!r}"
assert ("/index/wa/nt/wanted", "cargo-tok-1") in seen, report
assert b"cargo-tok-1" not in fetch.stderr, report

logout = run("logout", "--registry", "local")
assert logout.returncode == 0, logout.stderr
assert vault_get().returncode == 44, vault_get()
again = run("logout", "--registry", "local")
# vault's not-found: cargo says so, and it is no failure.
assert again.returncode == 0 and b"not currently logged in" in again.stderr, again.stderr
print("ok")
