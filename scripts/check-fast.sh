#!/bin/sh
# `make check-fast`: the unit and end-to-end suites against the debug binary,
# in a few minutes. The Secret Service suite needs the keyring daemon that
# `make check` starts, so it is filtered out here (not run, not skipped);
# nothing is installed and no package is built. `make test` runs everything.
# First the layout: a file `make format` would change fails the check.
set -eu
cd "$(dirname "$0")/.."
scripts/format.sh --lint
swift build --build-tests
VAULT_BINARY="$(swift build --show-bin-path)/vault"
export VAULT_BINARY
exec swift test --skip-build --skip '^VaultCLITests.SecretServiceTests' --skip '^VaultCLITests.ImportBoundsReliabilityTests' </dev/null
