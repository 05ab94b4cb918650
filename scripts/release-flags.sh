#!/bin/sh
# Prints the `swift build` flags of the installed binary, for make release,
# make install, make deb and make bench alike: a release build with the Swift
# runtime linked in and no RUNPATH (the loader probes no toolchain
# directories), and, where GCC's static libstdc++ is installed, the C++
# runtime linked in too, so the binary needs only glibc and libcrypto. That
# saves the loader about 1 700 symbol lookups on every start (bench/README.md).
#
# The Swift driver names -lstdc++ itself; a search directory holding nothing
# but the archive, ahead of GCC's (which holds the shared library), is what
# makes the linker take the archive.
set -eu
cd "$(dirname "$0")/.."

flags="-c release --static-swift-stdlib --disable-local-rpath -Xswiftc -no-toolchain-stdlib-rpath"
archive="$(${CC:-cc} -print-file-name=libstdc++.a 2>/dev/null || true)"
case "$archive" in
    /*)
        directory="$PWD/.build/static-libstdc++"
        mkdir -p "$directory"
        ln -sf "$archive" "$directory/libstdc++.a"
        flags="$flags -Xswiftc -L$directory"
        ;;
esac
echo "$flags"
