#!/bin/sh
# Builds vault and runs every test (Swift Testing and XCTest) against the
# built debug binary. Run by `make test`, which installs the packages first.
set -eu
cd "$(dirname "$0")/.."

swift build
VAULT_BINARY="$(swift build --show-bin-path)/vault"
export VAULT_BINARY
echo "test: VAULT_BINARY=$VAULT_BINARY"

# stdin is not a terminal in CI; give the same to every run, so a test that
# forgets to pass stdin cannot hang on a prompt. The reliability tests run in
# their short form here (make reliability runs them long).
swift test </dev/null

# A short fuzzing pass: replays the committed crash inputs, then fuzzes each
# harness briefly. TEST_FUZZ_SECONDS=0 skips it.
if [ "${TEST_FUZZ_SECONDS:-5}" != 0 ]; then
    scripts/fuzz.sh "${TEST_FUZZ_SECONDS:-5}"
fi
