#!/bin/sh
# Prints the `swift build` flags of the installed binary, for make release,
# make install, make deb and make bench alike: a release build with the Swift
# runtime linked in and no RUNPATH (the loader probes no toolchain
# directories), and, where GCC's static libraries are installed, the C++
# runtime and its unwinder linked in too (as g++ -static-libstdc++
# -static-libgcc would), so the binary needs only glibc and libcrypto. That
# spares every start the loading of two libraries and about 1 700 symbol
# lookups (bench/README.md).
#
# The Swift driver names -lstdc++ and -lgcc_s itself; a search directory
# holding nothing but the archives under those names (libgcc_s.a being GCC's
# libgcc_eh.a), ahead of GCC's own directory, is what makes the linker take
# them. That step is best effort: without the archives, or in a checkout whose
# path has a space (the flags are split into words), the binary links the
# shared libraries (scripts/deb.sh then names them in the package's
# dependencies). The first line is printed whatever happens.
set -u
cd "$(dirname "$0")/.." || exit 1

flags="-c release --static-swift-stdlib --disable-local-rpath -Xswiftc -no-toolchain-stdlib-rpath"
cxx="$(${CC:-cc} -print-file-name=libstdc++.a 2>/dev/null)"
unwinder="$(${CC:-cc} -print-file-name=libgcc_eh.a 2>/dev/null)"
directory="$PWD/.build/static-runtime"
case "$cxx$unwinder$directory" in
    *" "*) ;;
    /*/libstdc++.a/*/libgcc_eh.a/*)
        if mkdir -p "$directory" 2>/dev/null && ln -sf "$cxx" "$directory/libstdc++.a" 2>/dev/null \
            && ln -sf "$unwinder" "$directory/libgcc_s.a" 2>/dev/null; then
            flags="$flags -Xswiftc -L$directory"
        fi
        ;;
esac
echo "$flags"
