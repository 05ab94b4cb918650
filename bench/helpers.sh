#!/bin/sh
# One call of each credential helper of issue 52 against `vault get` of the same kind of item,
# in the same run: kube-credential, aws-credential, terraform-credential get, and a cargo get
# (a request on stdin, so it runs under sh -c and is compared with get under sh -c too); then
# `kubectl get --raw /api` against a loopback TLS stub with vault as the exec plugin, against
# the same with the token written in the kubeconfig. Prints markdown table rows
# (| call | median | × the row it is compared with |). Builds nothing: pass the release binary, e.g.
#   bench/helpers.sh "$(swift build -c release --show-bin-path)/vault"
# Needs hyperfine and openssl; the kubectl rows need .venv-tests/bin/kubectl (make deps).
set -eu

vault="${1:?usage: bench/helpers.sh PATH/TO/RELEASE/vault}"
runs="${BENCH_RUNS:-20}"
warmup="${BENCH_WARMUP:-3}"
case "$vault" in /*) ;; *) vault="$PWD/$vault" ;; esac
[ -x "$vault" ] || { echo "helpers.sh: error: $vault is not an executable" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
kubectl="$root/.venv-tests/bin/kubectl"

work="$(mktemp -d)"
stub_pid=""
cleanup() {
    if [ -n "$stub_pid" ]; then kill "$stub_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
unset VAULT_SESSION VAULT_PASSPHRASE_FILE VAULT_GROUP VAULT_PATH
mkdir -p -m 700 "$HOME" "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"
"$vault" init --key-file "$work/key" >/dev/null 2>&1
export VAULT_KEY_FILE="$work/key"

# median COMMAND: hyperfine's median in seconds; COMMAND is one string of words, split by
# hyperfine without a shell (-N).
median() {
    hyperfine -N --warmup "$warmup" --min-runs "$runs" --style none --export-json "$work/run.json" "$1" >/dev/null
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/run.json"
}
row() { # NAME MEDIAN BASE BASE_NAME
    python3 -c 'import sys; n,m,b,bn=sys.argv[1:]; print(f"| {n} | {float(m)*1000:.2f} ms | {float(m)/float(b):.2f}× {bn} |")' "$@"
}

server="https://127.0.0.1:6443"
printf 'tok-bench' | "$vault" add -s "kube:$server" -a bench >/dev/null 2>&1
printf 'tok-bench' | "$vault" add -s plain -a bench >/dev/null 2>&1
printf '{"AccessKeyId":"AKIDBENCH","SecretAccessKey":"bench-secret"}' | "$vault" add -s aws:bench -a bench >/dev/null 2>&1
printf 'tok-bench' | "$vault" add -s terraform:app.terraform.io -a "" >/dev/null 2>&1
printf 'tok-bench' | "$vault" add -s cargo:sparse+https://r.example/index/ -a bench >/dev/null 2>&1
printf '%s\n' '{"v":1,"registry":{"index-url":"sparse+https://r.example/index/"},"kind":"get","operation":"read","args":[]}' >"$work/request"
export KUBERNETES_EXEC_INFO='{"apiVersion":"client.authentication.k8s.io/v1","spec":{"cluster":{"server":"'"$server"'"},"interactive":false}}'

get="$(median "$vault get -s plain -a bench")"
row "vault get (the base)" "$get" "$get" "get"
row "vault kube-credential" "$(median "$vault kube-credential")" "$get" "get"
row "vault aws-credential PROFILE" "$(median "$vault aws-credential bench")" "$get" "get"
row "vault terraform-credential get HOST" "$(median "$vault terraform-credential get app.terraform.io")" "$get" "get"
shell_get="$(median "sh -c \"'$vault' get -s plain -a bench\"")"
row "vault --cargo-plugin, one get (under sh -c)" "$(median "sh -c \"'$vault' --cargo-plugin < '$work/request'\"")" "$shell_get" "get under sh -c"

[ -x "$kubectl" ] || { echo "helpers.sh: note: no $kubectl (make deps): no kubectl rows" >&2; exit 0; }
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -days 2 -keyout "$work/tls.key" -out "$work/tls.pem" 2>/dev/null
python3 - "$work/tls.pem" "$work/tls.key" "$work/port" <<'PY' &
import http.server, ssl, sys
class Stub(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.headers.get("Authorization") == "Bearer tok-bench"
        body = b'{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]}' if ok else b'{}'
        self.send_response(200 if ok else 401)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
server.socket = context.wrap_socket(server.socket, server_side=True)
open(sys.argv[3], "w").write(str(server.server_address[1]))
server.serve_forever()
PY
stub_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port="$(cat "$work/port")"
printf 'tok-bench' | "$vault" add -s "kube:https://127.0.0.1:$port" -a bench >/dev/null 2>&1
ca="$(base64 -w0 "$work/tls.pem")"
kubeconfig() { # USER-YAML
    printf 'apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:%s\n    certificate-authority-data: %s\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\nusers:\n- name: u\n  user:\n%s\n' "$port" "$ca" "$1"
}
kubeconfig "    token: tok-bench" >"$work/static.yaml"
kubeconfig "    exec: {apiVersion: client.authentication.k8s.io/v1, command: $vault, args: [kube-credential], interactiveMode: Never, provideClusterInfo: true}" >"$work/vault.yaml"
unset KUBERNETES_EXEC_INFO
static="$(median "$kubectl --kubeconfig $work/static.yaml get --raw /api")"
row "kubectl get --raw /api, token in the kubeconfig (the base)" "$static" "$static" "static"
row "kubectl get --raw /api, vault kube-credential" "$(median "$kubectl --kubeconfig $work/vault.yaml get --raw /api")" "$static" "static"
