#!/bin/sh
# Runs a command inside a private D-Bus session with its own GNOME Keyring
# daemon (secrets component, a throwaway login keyring unlocked with a fixed
# password, in a temporary HOME), so Secret Service tests never touch the
# user's keyring. Works with no terminal, with CI=true and as root.
#
#   scripts/with-keyring.sh COMMAND [ARGS…]
#
# COMMAND sees VAULT_TEST_SECRET_SERVICE=1 when the daemon answers, or
# VAULT_TEST_SECRET_SERVICE_SKIP=<reason> when it could not be started.
set -eu

if [ "${VAULT_IN_KEYRING_SESSION:-}" != 1 ]; then
    if ! command -v dbus-run-session >/dev/null 2>&1; then
        VAULT_TEST_SECRET_SERVICE_SKIP="dbus-run-session is not installed (Debian package dbus-daemon)"
        export VAULT_TEST_SECRET_SERVICE_SKIP
        exec "$@"
    fi
    VAULT_IN_KEYRING_SESSION=1 exec dbus-run-session -- "$0" "$@"
fi

# The daemon makes its login collection a moment after it starts: try for up to 10 s.
probe_keyring() {
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        if printf probe | secret-tool store --label="vault test probe" vault-test-probe 1 2>"$keyring_home/probe.log" \
                && secret-tool clear vault-test-probe 1 2>>"$keyring_home/probe.log"; then
            return 0
        fi
        sleep 0.5
    done
    return 1
}

keyring_home="$(mktemp -d)"
trap 'rm -rf "$keyring_home"' EXIT
mkdir -m 700 "$keyring_home/run"
# D-Bus starts a second gnome-keyring-daemon when a client asks for the
# Secret Service before ours owns the name; with the session's own HOME that
# one serves an empty, locked keyring in the real ~/.local/share/keyrings,
# shared by every other test run. Give activation the same directories, so
# an activated daemon joins ours (`--start` finds its control socket), and
# wait for ours to own the name before the first request.
keyring_environment="HOME=$keyring_home XDG_DATA_HOME=$keyring_home/data XDG_RUNTIME_DIR=$keyring_home/run"
skip=""
if ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
    skip="gnome-keyring-daemon is not installed (Debian package gnome-keyring)"
elif ! dbus-update-activation-environment $keyring_environment 2>"$keyring_home/daemon.log"; then
    skip="dbus-update-activation-environment failed: $(head -n 1 "$keyring_home/daemon.log")"
elif ! printf '%s' "vault-test-keyring" | env $keyring_environment \
        gnome-keyring-daemon --daemonize --unlock --components=secrets >/dev/null 2>"$keyring_home/daemon.log"; then
    skip="gnome-keyring-daemon did not start: $(head -n 1 "$keyring_home/daemon.log")"
elif ! gdbus wait --session --timeout 20 org.freedesktop.secrets 2>"$keyring_home/daemon.log"; then
    skip="gnome-keyring-daemon did not take the name org.freedesktop.secrets: $(head -n 1 "$keyring_home/daemon.log")"
elif ! probe_keyring; then
    skip="the keyring daemon does not answer: $(head -n 1 "$keyring_home/probe.log")"
fi

if [ -n "$skip" ]; then
    VAULT_TEST_SECRET_SERVICE_SKIP="$skip"
    export VAULT_TEST_SECRET_SERVICE_SKIP
    echo "with-keyring: $skip" >&2
else
    VAULT_TEST_SECRET_SERVICE=1
    export VAULT_TEST_SECRET_SERVICE
fi
"$@"
