#!/bin/sh
# Checks the function types, constants and struct layouts that Sources/CDBus
# declares for dlopen against libdbus-1's real headers, found with pkg-config
# (so no machine's include paths sit in Package.swift). Run by `make test`.
set -eu
cd "$(dirname "$0")/.."
# Word splitting of pkg-config's flags is wanted.
# shellcheck disable=SC2046
${CC:-cc} -fsyntax-only -Werror $(pkg-config --cflags dbus-1) -I Sources/CDBus/include scripts/check-dbus-types.c
echo "check-dbus-types: CDBus.h matches libdbus's headers"
