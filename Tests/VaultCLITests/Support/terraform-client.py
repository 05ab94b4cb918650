"""Terraform finds terraform-credentials-vault in ~/.terraform.d/plugins, sends the token vault
gives it to a registry on loopback (TLS), and forgets it at `terraform logout`. Run by
TerraformHelperTests with the sandbox's HOME and PATH and VAULT_KEY_FILE:

    terraform-client.py TERRAFORM

The CLI config's host block points the registry host's module service at the stub, which
records the Authorization header of every request.
Prints "ok" when Terraform sent vault's token and logout removed the item.
"""
import http.server, json, os, ssl, subprocess, sys, threading

terraform = sys.argv[1]
home = os.environ["HOME"]
seen = []


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True)


openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=127.0.0.1",
        "-addext", "subjectAltName=IP:127.0.0.1", "-days", "2", "-keyout", f"{home}/tls.key", "-out", f"{home}/tls.pem")


class Stub(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        seen.append((self.path, self.headers.get("Authorization")))
        body, status = {"errors": ["not found"]}, 404
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(f"{home}/tls.pem", f"{home}/tls.key")
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
server.socket = context.wrap_socket(server.socket, server_side=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
host = "registry.vault.test"
modules = f"https://127.0.0.1:{server.server_address[1]}/v1/modules/"

plugins = f"{home}/.terraform.d/plugins"
os.makedirs(plugins, exist_ok=True)
vault = subprocess.run(["sh", "-c", "command -v vault"], capture_output=True, text=True).stdout.strip()
os.symlink(vault, f"{plugins}/terraform-credentials-vault")
with open(f"{home}/terraformrc", "w") as config:
    config.write('credentials_helper "vault" {\n  args = []\n}\n'
                 f'host "{host}" {{\n  services = {{\n    "modules.v1" = "{modules}"\n  }}\n}}\n')
work = f"{home}/work"
os.makedirs(work, exist_ok=True)
with open(f"{work}/main.tf", "w") as main:
    main.write(f'module "probe" {{\n  source  = "{host}/team/probe/null"\n  version = "1.0.0"\n}}\n')
environment = dict(os.environ, TF_CLI_CONFIG_FILE=f"{home}/terraformrc", SSL_CERT_FILE=f"{home}/tls.pem",
                   CHECKPOINT_DISABLE="1", TF_IN_AUTOMATION="1")


def run(*args):
    return subprocess.run([terraform, *args], cwd=work, env=environment, capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL)


stored = subprocess.run([f"{plugins}/terraform-credentials-vault", "store", host], input=b'{"token":"tf-tok-1"}',
                        capture_output=True)
assert stored.returncode == 0, stored.stderr
init = run("init", "-input=false", "-backend=false")
report = f"seen {seen}, stderr {init.stderr.decode()!r}"
assert ("/v1/modules/team/probe/null/versions", "Bearer tf-tok-1") in seen, report
assert b"tf-tok-1" not in init.stdout + init.stderr, report

logout = run("logout", host)
assert logout.returncode == 0, logout.stdout + logout.stderr
get = subprocess.run([f"{plugins}/terraform-credentials-vault", "get", host], capture_output=True)
assert get.stdout == b"{}\n", get
print("ok")
