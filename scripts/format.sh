#!/bin/sh
# The Swift sources in vault's layout (.swift-format at the root: 4 spaces, 140 columns, no rule
# beyond layout). `scripts/format.sh` rewrites them in place (`make format`); `scripts/format.sh
# --lint` changes nothing and fails on any file the formatter would change (`make check-fast`).
# Only the package's own sources are named, so .build/ and the checkouts in it are never read.
set -eu
cd "$(dirname "$0")/.."
paths="Package.swift Sources Tests Fuzz"
if ! swift format --version >/dev/null 2>&1; then
    echo "format: 'swift format' is not in this toolchain; install Swift 6 or later" >&2
    exit 1
fi
case "${1:-}" in
    "") exec swift format format --in-place --recursive --parallel $paths ;;
    --lint) exec swift format lint --strict --recursive --parallel $paths ;;
    *) echo "usage: scripts/format.sh [--lint]" >&2; exit 2 ;;
esac
