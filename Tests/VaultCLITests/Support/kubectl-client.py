"""kubectl against a loopback TLS stub of the Kubernetes API, with vault kube-credential as the
kubeconfig user's exec plugin. Run by KubectlHelperTests with the sandbox's HOME and PATH:

    kubectl-client.py KUBECTL CASE

CASE: token, client-cert, unauthorized-reruns, locked; and on a terminal (a pty), with a vault
that opens with a passphrase: prompt (interactiveMode IfAvailable: vault asks on the terminal)
and never-on-terminal (Never: vault does not ask, though a terminal is there). Prints "ok" when the case holds; any
failed check exits non-zero with what was seen. The stub answers /api, and records the
Authorization header (or the client certificate's subject) of every request.
"""
import base64, http.server, json, os, pty, select, ssl, subprocess, sys, threading, time

kubectl, case = sys.argv[1], sys.argv[2]
home = os.environ["HOME"]


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_ca_and_cert(name, ip=None):
    """A CA and a certificate it signed, both EC P-256: returns the paths (ca, cert, key)."""
    ca_key, ca, key, csr, cert = (f"{home}/{name}-{part}" for part in ("ca.key", "ca.pem", "key.pem", "csr.pem", "cert.pem"))
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-subj", f"/CN={name}-ca", "-days", "2", "-keyout", ca_key, "-out", ca)
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-subj", f"/CN={name}/O=system:masters", "-keyout", key, "-out", csr)
    extensions = f"{home}/{name}.ext"
    with open(extensions, "w") as file:
        file.write(f"subjectAltName=IP:{ip}\n" if ip else "extendedKeyUsage=clientAuth\n")
    openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-days", "2",
            "-extfile", extensions, "-out", cert)
    return ca, cert, key


server_ca, server_cert, server_key = make_ca_and_cert("server", ip="127.0.0.1")
client_ca, client_cert, client_key = make_ca_and_cert("client")
seen = []
accepted_token = "Bearer tok-never" if case == "unauthorized-reruns" else "Bearer tok-1"


class Stub(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        peer = self.connection.getpeercert()
        subject = dict(part[0] for part in peer["subject"]).get("commonName") if peer else None
        auth = self.headers.get("Authorization")
        seen.append((self.path, auth, subject))
        if auth == accepted_token or (case == "client-cert" and subject == "client"):
            body, status = {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []}, 200
        else:
            body = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Unauthorized", "code": 401}
            status = 401
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(server_cert, server_key)
context.load_verify_locations(client_ca)
context.verify_mode = ssl.CERT_OPTIONAL
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
server.socket = context.wrap_socket(server.socket, server_side=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"https://127.0.0.1:{server.server_address[1]}"


def vault(*args, stdin=b""):
    run = subprocess.run(["vault", *args], input=stdin, capture_output=True)
    assert run.returncode == 0, (args, run.stderr)


on_terminal = case in ("prompt", "never-on-terminal")
if on_terminal:
    # A vault that opens with a passphrase only: the plugin has nothing to open it with but a prompt.
    with open(os.open(f"{home}/pass", os.O_WRONLY | os.O_CREAT, 0o600), "w") as file:
        file.write("pass-phrase-1\n")
    os.environ["VAULT_PATH"] = f"{home}/pp.vault"
    os.environ.pop("VAULT_KEY_FILE")
    vault("init", "--passphrase-file", f"{home}/pass", "--kdf-cost", "testing")
    vault("--passphrase-file", f"{home}/pass", "add", "-s", "kube:" + url, "-a", "admin", stdin=b"tok-1")
elif case == "client-cert":
    with open(client_cert, "rb") as cert, open(client_key, "rb") as key:
        vault("add", "-s", "kube:" + url, "-a", "admin", stdin=cert.read() + key.read())
else:
    vault("add", "-s", "kube:" + url, "-a", "admin", stdin=b"tok-1")

runs = f"{home}/plugin-runs"
with open(server_ca, "rb") as file:
    ca_data = base64.b64encode(file.read()).decode()
interactive_mode = {"prompt": "IfAvailable", "never-on-terminal": "Never"}.get(case, os.environ.get("INTERACTIVE_MODE", "Never"))
# kubectl reads JSON as YAML; the plugin is vault through sh, which counts its runs.
kubeconfig = {
    "apiVersion": "v1", "kind": "Config", "current-context": "stub",
    "clusters": [{"name": "stub", "cluster": {"server": url, "certificate-authority-data": ca_data}}],
    "contexts": [{"name": "stub", "context": {"cluster": "stub", "user": "vault"}}],
    "users": [{"name": "vault", "user": {"exec": {
        "apiVersion": "client.authentication.k8s.io/v1", "command": "/bin/sh",
        "args": ["-c", f"echo run >> '{runs}'; exec vault kube-credential"],
        "interactiveMode": interactive_mode, "provideClusterInfo": True}}}],
}
config = f"{home}/kubeconfig"
with open(config, "w") as file:
    json.dump(kubeconfig, file)
if case == "locked":
    os.environ.pop("VAULT_KEY_FILE")


def on_a_terminal(argv):
    """Runs argv on a new pty, typing the passphrase when asked; returns (exit status, what the terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    shown, typed, deadline = b"", False, time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
        if not typed and b"Passphrase for" in shown:
            os.write(fd, b"pass-phrase-1\n")
            typed = True
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), shown.decode(errors="replace")


command = [kubectl, "--kubeconfig", config, "get", "--raw", "/api"]
if on_terminal:
    class Finished:
        pass
    run = Finished()
    run.returncode, out = on_a_terminal(command)
    err = out
else:
    run = subprocess.run(command, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    out, err = run.stdout.decode(), run.stderr.decode()
count = open(runs).read().count("run") if os.path.exists(runs) else 0
report = f"exit {run.returncode}, plugin runs {count}, seen {seen}, stdout {out!r}, stderr {err!r}"

if case == "token":
    assert run.returncode == 0 and json.loads(out)["kind"] == "APIVersions", report
    assert seen[-1][1] == "Bearer tok-1", report
elif case == "client-cert":
    assert run.returncode == 0 and json.loads(out)["kind"] == "APIVersions", report
    assert seen[-1][2] == "client" and seen[-1][1] is None, report
elif case == "unauthorized-reruns":
    # client-go runs the plugin again when the server answers 401 to the credential it gave.
    assert run.returncode != 0 and count >= 2, report
    assert all(auth == "Bearer tok-1" for _, auth, _ in seen), report
elif case == "prompt":
    assert run.returncode == 0 and "Passphrase for" in out and '"APIVersions"' in out, report
    assert seen[-1][1] == "Bearer tok-1", report
elif case == "never-on-terminal":
    assert run.returncode != 0 and "Passphrase for" not in out and not seen, report
    assert "vault: error: the vault is locked" in out and "exit code 36" in out, report
elif case == "locked":
    assert run.returncode != 0 and not seen, report
    assert "vault: error: the vault is locked" in err and "tok-1" not in err + out, report
print("ok")
