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
# forgets to pass stdin cannot hang on a prompt.
swift test </dev/null
