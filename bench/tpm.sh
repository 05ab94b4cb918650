#!/bin/sh
# `vault get` of a this-device-only item with and without the TPM (issue 38):
# the device key a 0600 file; sealed by a software TPM (Debian's swtpm, on
# loopback) with a session, which holds the unsealed key so no get reaches the
# TPM; and sealed with a key file and no session, where every get unseals
# (ECC primary, policy session, unseal). Prints markdown table rows
# (| how the device key is kept | unlock | vault get | × file |).
# Builds nothing: pass the release binary, e.g.
#   bench/tpm.sh "$(swift build -c release --show-bin-path)/vault"
# Needs hyperfine and swtpm (scripts/install-deps.sh installs both).
set -eu

vault="${1:?usage: bench/tpm.sh PATH/TO/RELEASE/vault}"
runs="${BENCH_RUNS:-20}"
warmup="${BENCH_WARMUP:-3}"
case "$vault" in /*) ;; *) vault="$PWD/$vault" ;; esac
[ -x "$vault" ] || { echo "tpm.sh: error: $vault is not an executable" >&2; exit 2; }
command -v swtpm >/dev/null 2>&1 || { echo "tpm.sh: error: swtpm is not installed; run 'make deps'" >&2; exit 2; }

work="$(mktemp -d)"
pid_file="$work/swtpm.pid"
cleanup() {
    if [ -f "$pid_file" ]; then kill -9 "$(cat "$pid_file")" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
unset VAULT_SESSION VAULT_PASSPHRASE_FILE VAULT_KEY_FILE VAULT_GROUP VAULT_PATH
mkdir -p -m 700 "$HOME" "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$work/state"

# A port whose next one is free too: the swtpm TCTI reaches the control channel there.
port="$(python3 -c 'import socket
for _ in range(50):
    a = socket.socket(); a.bind(("127.0.0.1", 0)); port = a.getsockname()[1]
    b = socket.socket()
    try:
        b.bind(("127.0.0.1", port + 1)); print(port); break
    except OSError: pass
    finally: a.close(); b.close()')"
swtpm socket --tpm2 --server "type=tcp,port=$port,bindaddr=127.0.0.1" --ctrl "type=tcp,port=$((port + 1)),bindaddr=127.0.0.1" \
    --tpmstate "dir=$work/state" --flags startup-clear --daemon --pid "file=$pid_file" </dev/null >"$work/swtpm.log" 2>&1

# measure NAME COMMAND: hyperfine median in seconds (no shell: the commands are plain words).
measure() {
    hyperfine -N --warmup "$warmup" --min-runs "$runs" --style none --export-json "$work/$1.json" "$2" >/dev/null
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/$1.json"
}

# vault_with TPM NAME: a vault NAME with one this-device-only item, its device key kept as TPM says.
vault_with() {
    VAULT_TPM="$1" "$vault" --vault "$work/$2.vault" init --key-file "$work/$2.key" >/dev/null 2>&1
    printf 'bench-secret' | VAULT_TPM="$1" "$vault" --vault "$work/$2.vault" add -s bench -a bench \
        --class when-unlocked-this-device-only --key-file "$work/$2.key" >/dev/null 2>&1
}
vault_with off file
vault_with "swtpm:host=127.0.0.1,port=$port" tpm
export VAULT_TPM="swtpm:host=127.0.0.1,port=$port"
file_session="$(VAULT_KEY_FILE="$work/file.key" "$vault" --vault "$work/file.vault" unlock --raw --timeout 1h)"
tpm_session="$(VAULT_KEY_FILE="$work/tpm.key" "$vault" --vault "$work/tpm.vault" unlock --raw --timeout 1h)"

file="$(VAULT_SESSION="$file_session" measure file "$vault --vault $work/file.vault get -s bench -a bench")"
sealed_session="$(VAULT_SESSION="$tpm_session" measure tpm-session "$vault --vault $work/tpm.vault get -s bench -a bench")"
sealed_key_file="$(measure tpm-key-file "$vault --vault $work/tpm.vault get -s bench -a bench --key-file $work/tpm.key")"
file_key_file="$(measure file-key-file "$vault --vault $work/file.vault get -s bench -a bench --key-file $work/file.key")"

python3 - "$file" "$sealed_session" "$file_key_file" "$sealed_key_file" <<'PY'
import sys
file, sealed_session, file_key_file, sealed_key_file = (float(value) for value in sys.argv[1:])
rows = [("a 0600 file", "session", file, file), ("sealed by the TPM (swtpm)", "session", sealed_session, file),
        ("a 0600 file", "key file", file_key_file, file_key_file), ("sealed by the TPM (swtpm)", "key file", sealed_key_file, file_key_file)]
print("| device key | unlock | vault get | × the file's |")
print("|---|---|---:|---:|")
for kept, unlock, value, base in rows:
    print(f"| {kept} | {unlock} | {value * 1000:.2f} ms | {value / base:.2f}× |")
PY
