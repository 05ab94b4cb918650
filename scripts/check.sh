#!/bin/sh
# `make check`: builds vault and runs every test (Swift Testing and XCTest)
# against the built debug binary, then the checks that are scripts: the
# libsecret types, the Debian package, and a package that depends on
# VaultCore. `make test` runs it after `make deps` and before `make fuzz-smoke`.
# The tests run inside a private D-Bus session with a GNOME Keyring daemon
# (scripts/with-keyring.sh), so the Secret Service tests use a real keyring.
set -eu
cd "$(dirname "$0")/.."

swift build
VAULT_BINARY="$(swift build --show-bin-path)/vault"
export VAULT_BINARY
echo "test: VAULT_BINARY=$VAULT_BINARY"

# stdin is not a terminal in CI; give the same to every run, so a test that
# forgets to pass stdin cannot hang on a prompt.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
# The 200 000-entry import runs in `make reliability` alone (tens of minutes): filtered out here, not skipped.
scripts/with-keyring.sh swift test --skip '^VaultCLITests.ImportBoundsReliabilityTests' </dev/null >"$log" 2>&1 || status=$?
cat "$log"

# A skipped test is a test that did not run: the run fails on any skip not
# named here with the reason it may skip for. As root (CI) none may skip: the
# Secret Service tests run against the daemon with-keyring.sh starts, and
# root can mount the disks of the full- and read-only-disk tests. A run as
# another user cannot mount, so the full-disk tests (a full vault directory,
# a full state directory) skip, for that reason.
if [ "$(id -u)" -ne 0 ]; then
    expected_skips='skipped: "mounting a tmpfs needs root'
else
    expected_skips=""
fi
# Swift Testing prints `Test NAME skipped: "REASON"`; XCTest `Test Case '…' skipped`.
skips="$(grep -E "Test .* skipped|Test Case '.*' skipped" "$log" | sed 's/^[^T]*//' | sort -u || true)"
unexpected="$(printf '%s\n' "$skips" | grep -v -F -e "${expected_skips:-no expected skips}" | grep . || true)"
echo "test: $(printf '%s' "$skips" | grep -c . || true) test(s) skipped${expected_skips:+ (expected here: $expected_skips…)}"
if [ -n "$unexpected" ]; then
    printf 'test: error: unexpected skip: %s\n' "$unexpected" >&2
    echo "test: hint: make the test run here (install-deps.sh, run as root), or name the skip and its reason in scripts/check.sh" >&2
    [ "$status" != 0 ] || status=1
fi

# The libsecret types vault loads with dlopen, against libsecret's headers;
# then the Debian package, built, linted, installed and run.
if [ "$status" = 0 ]; then
    scripts/check-libsecret-types.sh || status=$?
    scripts/check-dbus-types.sh || status=$?
fi
if [ "$status" = 0 ]; then
    scripts/test-deb.sh || status=$?
fi

# A separate package that depends on VaultCore through a git URL and a
# version tag runs the example of docs/VAULTCORE.md (it builds HEAD).
if [ "$status" = 0 ]; then
    scripts/test-consumer-package.sh || status=$?
fi
exit "$status"
