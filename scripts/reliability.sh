#!/bin/sh
# The long reliability pass (make reliability): the crash-safety, concurrency,
# merge-kill, team-convergence, group-authority, exposure-oracle, fault-injection and hostile-input tests at full scale, the whole test suite with
# the binary and tests under AddressSanitizer, and every fuzz harness for
# FUZZ_SECONDS (default 60) each. `make test` runs short forms of all three.
set -eu
cd "$(dirname "$0")/.."

swift build
VAULT_BINARY="$(swift build --show-bin-path)/vault"
export VAULT_BINARY
echo "reliability: crash safety, power loss, full filesystems, concurrency soak, bad input and a 200 000-entry import at full scale" >&2
VAULT_RELIABILITY=full swift test --filter 'CrashSafetyTests|ConcurrencySoakTests|BadInputMatrixTests|FullAndReadOnlyDiskTests|PowerLossTests|ImportBoundsReliabilityTests' </dev/null
echo "reliability: fault injection, every writing command with each call of its write path failing (every point; the counts are printed)" >&2
VAULT_RELIABILITY=full swift test --filter 'FaultInjection' </dev/null
echo "reliability: merges killed anywhere (the merge driver and vault sync), 50 runs each" >&2
VAULT_KILL_RUNS=50 swift test --filter MergeKillTests </dev/null
echo "reliability: a team converging through git, ${CONVERGENCE_SEEDS:-5} fresh seeds (each printed; VAULT_TEST_SEED repeats one) x ${CONVERGENCE_ROUNDS:-30} rounds" >&2
VAULT_RELIABILITY=full VAULT_CONVERGENCE_SEEDS="${CONVERGENCE_SEEDS:-5}" VAULT_CONVERGENCE_ROUNDS="${CONVERGENCE_ROUNDS:-30}" swift test --filter TeamConvergenceTests </dev/null
echo "reliability: group authority against a writer of one group's forgeries, ${AUTHORITY_RUNS:-20} seeds (each printed) x ${AUTHORITY_STEPS:-60} steps per attack" >&2
VAULT_AUTHORITY_RUNS="${AUTHORITY_RUNS:-20}" VAULT_AUTHORITY_STEPS="${AUTHORITY_STEPS:-60}" swift test --filter GroupAuthorityPropertyTests </dev/null
echo "reliability: vault exposure against the independent reader's oracle over a ${EXPOSURE_STEPS:-1000}-step history (seed printed)" >&2
VAULT_EXPOSURE_STEPS="${EXPOSURE_STEPS:-1000}" swift test --filter 'ExposureTests/exposureListsExactlyWhatEachMemberCouldOpen' </dev/null
echo "reliability: vault exposure over 1 000 commits of a 1 000-item vault against the same oracle, each sealed record decrypted once" >&2
VAULT_RELIABILITY=full swift test --filter ExposureScaleTests </dev/null

echo "reliability: the whole suite under AddressSanitizer" >&2
asan=".build/asan"
swift build --sanitize=address --scratch-path "$asan"
# The end-to-end tests run the ASan-built binary too. Leak checks are off: the
# Swift runtime keeps metadata caches for the life of the process. The fault-injection
# suite runs above, not here: it preloads its shim, and ASan refuses a library loaded before its runtime.
VAULT_BINARY="$(swift build --sanitize=address --scratch-path "$asan" --show-bin-path)/vault" \
ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" \
    swift test --sanitize=address --scratch-path "$asan" --skip FaultInjectionTests </dev/null

echo "reliability: fuzzing" >&2
scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
echo "reliability: all passed" >&2
