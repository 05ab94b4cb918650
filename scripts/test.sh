#!/bin/sh
# Builds vault and runs every test (Swift Testing and XCTest) against the
# built debug binary. Run by `make test`, which installs the packages first.
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
scripts/with-keyring.sh swift test </dev/null >"$log" 2>&1 || status=$?
cat "$log"

# Secret Service tests skip (with their reason) only where no keyring daemon
# starts; in CI (CI=true) they fail instead.
skipped="$(grep -c 'skipped: "Secret Service' "$log" || true)"
reason="$(grep -m 1 -o 'skipped: "Secret Service: [^"]*' "$log" | sed 's/.*Secret Service: //' || true)"
echo "test: $skipped Secret Service test(s) skipped${reason:+ ($reason)}"

# The libsecret types vault loads with dlopen, against libsecret's headers;
# then the Debian package, built, linted, installed and run.
if [ "$status" = 0 ]; then
    scripts/check-libsecret-types.sh || status=$?
fi
if [ "$status" = 0 ]; then
    scripts/test-deb.sh || status=$?
fi

# A short fuzzing pass: replays the committed crash inputs, then fuzzes each
# harness briefly. TEST_FUZZ_SECONDS=0 skips it.
if [ "$status" = 0 ] && [ "${TEST_FUZZ_SECONDS:-5}" != 0 ]; then
    scripts/fuzz.sh "${TEST_FUZZ_SECONDS:-5}" || status=$?
fi

# A separate package that depends on VaultCore through a git URL and a
# version tag runs the example of docs/VAULTCORE.md (it builds HEAD).
if [ "$status" = 0 ]; then
    scripts/test-consumer-package.sh || status=$?
fi
exit "$status"
