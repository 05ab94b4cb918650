#!/bin/sh
# Builds the libFuzzer harnesses in Fuzz/Harnesses and runs each: first over
# its committed crash inputs (Fuzz/Regressions/NAME), then fuzzing for a
# bounded time from its seeds (Fuzz/Corpus/NAME). Run by `make fuzz` (60 s
# each) and by `make test` / CI (a short pass).
#
#   scripts/fuzz.sh [SECONDS] [NAME...]     default: FUZZ_SECONDS or 60, every harness
#
# How it builds: `swift build --sanitize=fuzzer` compiles the package's
# modules with coverage instrumentation (and testability, so harnesses may
# `@testable import` internal parsers); each harness is one Swift file that
# defines LLVMFuzzerTestOneInput, compiled with `swiftc -sanitize=fuzzer
# -parse-as-library` against those modules and linked with their objects.
# AddressSanitizer is on in both, for the unsafe-pointer code of the parsers.
set -eu
cd "$(dirname "$0")/.."

seconds="${1:-${FUZZ_SECONDS:-60}}"
[ $# -gt 0 ] && shift
scratch=".build/fuzz"
work="$scratch/run"

# --sanitize=fuzzer alone leaves the Swift modules of a clean build without
# coverage counters (found with objdump: no __sancov_cntrs section), and a
# harness then fuzzes blind, guided only by its own few lines; hence the
# explicit -Xswiftc -sanitize=fuzzer, and the check below.
swift build --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer --scratch-path "$scratch" --target VaultCLI >&2
debug="$scratch/debug"
for module in VaultCrypto VaultCore VaultOpenBao VaultCLI; do
    if ! objdump -h "$(ls "$debug/$module.build"/*.o | head -n 1)" | grep -q __sancov_cntrs; then
        echo "fuzz: error: $module was built without coverage counters; the harnesses would fuzz blind" >&2
        echo "fuzz: hint: remove $scratch and run again" >&2
        exit 1
    fi
done
# The objects of today's sources only: an object left by a renamed or removed
# file would define its symbols twice.
objects="$(ls "$debug"/CLibSecret.build/*.o "$debug"/CTPM.build/*.o "$debug"/CTLS.build/*.o "$debug"/CDBus.build/*.o)"
for module in VaultCrypto VaultCore VaultSecretService VaultSecretProvider VaultTPM VaultOpenBao VaultCLI; do
    for source in $(find "Sources/$module" -name '*.swift'); do
        objects="$objects $debug/$module.build/$(basename "$source").o"
    done
done
openssl_flags="$(pkg-config --cflags --libs openssl)"

if [ $# -eq 0 ]; then
    set -- $(ls Fuzz/Harnesses | sed -n 's/\.swift$//p')
fi
mkdir -p "$work/bin"
failed=""
for name in "$@"; do
    harness="Fuzz/Harnesses/$name.swift"
    [ -f "$harness" ] || { echo "fuzz: error: no harness $harness" >&2; exit 2; }
    binary="$work/bin/$name"
    # shellcheck disable=SC2086 # objects and flags are lists of words
    swiftc -swift-version 6 -sanitize=fuzzer,address -parse-as-library -g -module-name "Fuzz$name" \
        -I "$debug/Modules" -I Sources/COpenSSL -I Sources/CKernelKeyring -I Sources/CTraceGuard $openssl_flags \
        -Xcc -fmodule-map-file="$debug/CLibSecret.build/module.modulemap" -I Sources/CLibSecret/include \
        -Xcc -fmodule-map-file="$debug/CTPM.build/module.modulemap" -I Sources/CTPM/include \
        -Xcc -fmodule-map-file="$debug/CTLS.build/module.modulemap" -I Sources/CTLS/include \
        -Xcc -fmodule-map-file="$debug/CDBus.build/module.modulemap" -I Sources/CDBus/include -ldl \
        "$harness" $objects -o "$binary"

    # Every harness has committed regression inputs (at least a seed): a
    # missing or empty directory would replay nothing and look like a pass.
    regressions="Fuzz/Regressions/$name"
    if [ ! -d "$regressions" ] || [ -z "$(ls "$regressions")" ]; then
        echo "fuzz: error: $name: no regression inputs in $regressions" >&2
        echo "fuzz: hint: commit at least one input there (an edge case of the parser); see Fuzz/README.md" >&2
        failed="$failed $name(no-regressions)"
        continue
    fi
    echo "fuzz: $name: replaying $(ls "$regressions" | wc -l) committed regression inputs" >&2
    "$binary" "$regressions"/* >"$work/$name.replay.log" 2>&1 || {
        cat "$work/$name.replay.log" >&2
        failed="$failed $name(regression)"
        continue
    }

    corpus="$work/corpus/$name" artifacts="$work/artifacts/$name/"
    mkdir -p "$corpus" "$artifacts"
    echo "fuzz: $name: fuzzing for $seconds s" >&2
    if ! "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts" "$corpus" "Fuzz/Corpus/$name" >"$work/$name.log" 2>&1; then
        tail -n 40 "$work/$name.log" >&2
        echo "fuzz: error: $name found a crash; the input is in $artifacts" >&2
        echo "fuzz: hint: copy it to Fuzz/Regressions/$name/, add it to the regression test, fix the parser and commit both" >&2
        failed="$failed $name"
        continue
    fi
    grep -E '^stat::number_of_executed_units|^Done' "$work/$name.log" | sed "s/^/fuzz: $name: /" >&2 || true
done

if [ -n "$failed" ]; then
    echo "fuzz: error: failed:$failed" >&2
    exit 1
fi
echo "fuzz: every harness ran clean" >&2
