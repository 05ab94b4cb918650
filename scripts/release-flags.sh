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
# makes the linker take the archive. That step is best effort: without the
# archive, or in a checkout whose path has a space (the flags are split into
# words), the binary links the shared libstdc++ (scripts/deb.sh then names it
# in the package's dependencies). The first line is printed whatever happens.
set -u
cd "$(dirname "$0")/.." || exit 1

flags="-c release --static-swift-stdlib --disable-local-rpath -Xswiftc -no-toolchain-stdlib-rpath"
archive="$(${CC:-cc} -print-file-name=libstdc++.a 2>/dev/null)"
directory="$PWD/.build/static-libstdc++"
case "$archive$directory" in
    *" "*) ;;
    /*)
        if mkdir -p "$directory" 2>/dev/null && ln -sf "$archive" "$directory/libstdc++.a" 2>/dev/null; then
            flags="$flags -Xswiftc -L$directory"
        fi
        ;;
esac
echo "$flags"
