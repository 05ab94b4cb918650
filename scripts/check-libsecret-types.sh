#!/bin/sh
# Checks the function types and constants that Sources/CLibSecret declares for
# dlopen against libsecret's real headers, found with pkg-config (so no
# machine's include paths sit in Package.swift). Run by `make test`.
set -eu
cd "$(dirname "$0")/.."
# Word splitting of pkg-config's flags is wanted.
# shellcheck disable=SC2046
${CC:-cc} -fsyntax-only -Werror $(pkg-config --cflags libsecret-1) -I Sources/CLibSecret/include \
    scripts/check-libsecret-types.c
echo "check-libsecret-types: CLibSecret.h matches libsecret's headers"
