#!/bin/sh
# vault as the desktop's keyring (issue 53): `secret-tool lookup` against vault's provider, started
# by D-Bus activation in a private bus, warm (one provider answers every lookup) and on the first
# call after an idle exit (each lookup starts a new provider); the same lookup against
# gnome-keyring-daemon in a bus of its own; and the provider's peak RSS. Prints markdown table rows.
# Builds nothing: pass the release binary, e.g.
#   bench/secret-service.sh "$(swift build -c release --show-bin-path)/vault"
# Needs hyperfine, dbus-run-session, secret-tool, gdbus and gnome-keyring (scripts/install-deps.sh).
set -eu

vault="${1:?usage: bench/secret-service.sh PATH/TO/RELEASE/vault}"
case "$vault" in /*) ;; *) vault="$PWD/$vault" ;; esac
[ -x "$vault" ] || { echo "secret-service.sh: error: $vault is not an executable" >&2; exit 2; }
runs="${BENCH_RUNS:-20}"
warmup="${BENCH_WARMUP:-3}"
script="$(cd "$(dirname "$0")" && pwd)/secret-service.sh"

# Each phase runs in a private bus of its own (the provider and gnome-keyring cannot share the name).
if [ -z "${SECRET_SERVICE_BENCH_PHASE:-}" ]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" VAULT_NO_KEYRING=1
    unset VAULT_SESSION VAULT_PASSPHRASE_FILE VAULT_GROUP VAULT_PATH DBUS_SESSION_BUS_ADDRESS
    mkdir -p -m 700 "$HOME" "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/vault" "$XDG_DATA_HOME"
    head -c 32 /dev/urandom >"$work/key"
    chmod 600 "$work/key"
    export VAULT_KEY_FILE="$work/key"
    "$vault" init --key-file "$work/key" >/dev/null 2>&1
    printf 'bench-secret' | "$vault" add -s bench -a bench --group desktop >/dev/null 2>&1
    "$vault" secret-service enable >/dev/null 2>&1
    echo "secret-service-idle = 600" >"$XDG_CONFIG_HOME/vault/config"
    warm="$(SECRET_SERVICE_BENCH_PHASE=warm WORK="$work" dbus-run-session -- sh "$script" "$vault" 2>/dev/null)"
    echo "secret-service-idle = 0" >"$XDG_CONFIG_HOME/vault/config"
    cold="$(SECRET_SERVICE_BENCH_PHASE=cold WORK="$work" dbus-run-session -- sh "$script" "$vault" 2>"$work/cold.log" || cat "$work/cold.log" >&2)"
    "$vault" secret-service disable >/dev/null 2>&1
    keyring="$(SECRET_SERVICE_BENCH_PHASE=gnome-keyring WORK="$work" dbus-run-session -- sh "$script" "$vault" 2>/dev/null)"
    python3 - $warm $cold $keyring <<'PY'
import sys
warm, rss, cold, keyring = float(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
print("| secret-tool lookup against | median | × gnome-keyring's |")
print("|---|---:|---:|")
for what, value in [("vault's provider, warm", warm), ("vault's provider, first call after idle exit (activation)", cold),
                    ("gnome-keyring-daemon, warm", keyring)]:
    print(f"| {what} | {value * 1000:.2f} ms | {value / keyring:.2f}× |")
print(f"| peak RSS of vault's provider after the warm runs | {rss / 1024:.1f} MiB | |")
PY
    exit 0
fi

work="$WORK"
# measure NAME COMMAND [PREPARE]: hyperfine median in seconds.
measure() {
    if [ -n "${3:-}" ]; then
        hyperfine -N --warmup "$warmup" --min-runs "$runs" --style none --prepare "$3" --export-json "$work/$1.json" "$2" >/dev/null
    else
        hyperfine -N --warmup "$warmup" --min-runs "$runs" --style none --export-json "$work/$1.json" "$2" >/dev/null
    fi
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/$1.json"
}
owner_pid() {
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.secrets | sed 's/.*uint32 \([0-9]*\).*/\1/'
}
lookup="secret-tool lookup service bench username bench"
case "$SECRET_SERVICE_BENCH_PHASE" in
warm)
    $lookup >/dev/null
    printf '%s ' "$(measure warm "$lookup")"
    awk '/^VmHWM:/ { print $2 }' "/proc/$(owner_pid)/status"
    ;;
cold)
    # Before each run: wait until the provider that served the last one has let go of the name.
    wait_idle="sh -c 'while gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.NameHasOwner org.freedesktop.secrets | grep -q true; do sleep 0.01; done'"
    measure cold "$lookup" "$wait_idle"
    ;;
gnome-keyring)
    printf 'bench' | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
    daemon=$!
    gdbus wait --session --timeout 20 org.freedesktop.secrets
    printf 'bench-secret' | secret-tool store --label=bench service bench username bench
    measure keyring "$lookup"
    kill "$daemon"
    ;;
esac
