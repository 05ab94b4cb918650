#!/bin/sh
# make bench: times whole `vault` processes against the floor (one fresh
# process that reads and AES-GCM-opens a file of the vault's size, from
# bench/floor.c) and against the peers (`secret-tool lookup` in a
# private D-Bus session with gnome-keyring, `pass show` with a throwaway
# GnuPG home), all in one run on this machine. Prints one table and writes it
# to bench/RESULTS.md. Run by `make bench`, which builds the release binary.
#
# Environment:
#   BENCH_SIZES      item counts (default "100 1000 10000 100000")
#   BENCH_PEER_MAX   largest size the gnome-keyring peer is filled to; every
#                    store rewrites its whole keyring file (default 1000)
#   BENCH_RUNS       hyperfine --min-runs (default 20); BENCH_WARMUP (default 3)
#   BENCH_RESULTS    where the table goes (default bench/RESULTS.md; "-" for stdout only)
#   FLOOR_SOURCE     the floor program's C source (default bench/floor.c)
#   RELEASE_FLAGS    swift build flags of the release binary (default: scripts/release-flags.sh)
set -eu
caller_dir="$PWD"
cd "$(dirname "$0")/.."
root="$PWD"

sizes="${BENCH_SIZES:-100 1000 10000 100000}"
peer_max="${BENCH_PEER_MAX:-1000}"
runs="${BENCH_RUNS:-20}"
warmup="${BENCH_WARMUP:-3}"
results="${BENCH_RESULTS:-bench/RESULTS.md}"
floor_source="${FLOOR_SOURCE:-bench/floor.c}"
case "${FLOOR_SOURCE:-}" in ''|/*) ;; *) floor_source="$caller_dir/$FLOOR_SOURCE" ;; esac
release_flags="${RELEASE_FLAGS:-$(scripts/release-flags.sh)}"

die() {
    echo "bench: error: $1" >&2
    echo "bench: hint: $2" >&2
    exit 1
}

for tool in hyperfine cc python3 /usr/bin/time; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is not installed" "run 'make deps'"
done
[ -f "$floor_source" ] || die "no floor program at $floor_source" "unset FLOOR_SOURCE to use bench/floor.c, or point it at another floor program"

# The keyring peer needs a private session bus: run the whole bench inside one,
# so hyperfine's children inherit it.
if [ -z "${BENCH_IN_PRIVATE_BUS:-}" ] && command -v dbus-run-session >/dev/null 2>&1; then
    BENCH_IN_PRIVATE_BUS=1 exec dbus-run-session -- sh "$root/bench/run.sh" "$@"
fi

# shellcheck disable=SC2086 # the flags are words
swift build $release_flags >&2
bin="$(swift build $release_flags --show-bin-path)"
fill="$bin/vault-bench-fill"

work="$root/.build/bench-run"   # on the project's disk, not a tmpfs: fsync must cost what it costs
rm -rf "$work"
mkdir -p -m 700 "$work"
# The installed build, as `make install` and the package put it: copied whole, in order. The
# linker's own output, written piece by piece, started `get` 0.5 ms slower from the page cache,
# the same bytes (bench/README.md, "Timing the installed binary").
mkdir -m 700 "$work/bin"
install -m 0755 "$bin/vault" "$work/bin/vault"
VAULT_BIN="$work/bin/vault"
keyring_pid=""
cleanup() {
    if [ -n "$keyring_pid" ]; then kill "$keyring_pid" 2>/dev/null || true; fi
    if [ -n "${GNUPGHOME:-}" ]; then gpgconf --kill gpg-agent 2>/dev/null || true; fi
    rm -rf "$work" "${runtime:-}"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

cc -O2 -o "$work/floor" "$floor_source" -lcrypto

# Nothing of the caller's own vault, keyring or GnuPG home may take part. The
# runtime directory (sessions, caches) is a tmpfs, as /run/user/UID is.
unset VAULT_PATH VAULT_PASSPHRASE_FILE VAULT_SESSION VAULT_GROUP
runtime="$work/home/run"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    runtime="$(mktemp -d /dev/shm/vault-bench.XXXXXX)"
fi
export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config" \
    XDG_RUNTIME_DIR="$runtime" GNUPGHOME="$work/home/gnupg" PASSWORD_STORE_DIR="$work/home/pass"
mkdir -p -m 700 "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR" "$GNUPGHOME"
umask 077
printf '%s' 'bench-secret-0123456789abcdefghij' > "$work/secret"
# What vault scan searches: text that holds none of the vault's secrets ($work/secret is one of them).
printf 'DEBUG=1\nLOG_LEVEL=info\n' > "$work/scan-input"

# --- peers -----------------------------------------------------------------
has_keyring=""
if [ -n "${BENCH_IN_PRIVATE_BUS:-}" ] && command -v secret-tool >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
    printf 'bench' | gnome-keyring-daemon --foreground --unlock --components=secrets >"$work/keyring.log" 2>&1 &
    keyring_pid=$!
    sleep 1
    if secret-tool store --label=probe service bench-probe account bench <"$work/secret" 2>>"$work/keyring.log"; then
        has_keyring=1
    else
        echo "bench: warning: gnome-keyring did not start; secret-tool is left out (see $work/keyring.log)" >&2
    fi
fi
keyring_filled=0
fill_keyring() {  # fill_keyring N: bench-000000 … up to N items
    while [ "$keyring_filled" -lt "$1" ]; do
        secret-tool store --label="bench item $keyring_filled" service "$(printf 'bench-%06d' "$keyring_filled")" account bench <"$work/secret"
        keyring_filled=$((keyring_filled + 1))
    done
}

has_pass=""
if command -v pass >/dev/null 2>&1 && command -v gpg >/dev/null 2>&1; then
    gpg --batch --quiet --pinentry-mode loopback --passphrase '' --quick-gen-key 'vault bench <bench@invalid>' default default never 2>/dev/null
    pass init 'vault bench <bench@invalid>' >/dev/null
    pass insert --multiline bench-template <"$work/secret" >/dev/null
    has_pass=1
fi
fill_pass() {  # fill_pass N: copies of one entry (pass show opens one file, whatever the others hold)
    python3 - "$PASSWORD_STORE_DIR" "$1" <<'EOF'
import os, shutil, sys
store, count = sys.argv[1], int(sys.argv[2])
template = os.path.join(store, "bench-template.gpg")
for number in range(count):
    target = os.path.join(store, "bench-%06d.gpg" % number)
    if not os.path.exists(target):
        shutil.copyfile(template, target)
EOF
}

# --- timing ----------------------------------------------------------------
measurements="$work/measurements.tsv"
: >"$measurements"
# measure SIZE NAME COMMAND [PREPARE]: hyperfine median, in seconds, to the TSV.
# No shell (-N): commands are plain words, and a shell's start would drown a 3 ms floor.
measure() {
    size="$1" name="$2" command="$3" prepare="${4:-}"
    set -- -N --warmup "$warmup" --min-runs "$runs" --style none --export-json "$work/run.json" --command-name "$name"
    if [ -n "$prepare" ]; then set -- "$@" --prepare "$prepare"; fi
    hyperfine "$@" "$command" >/dev/null
    median="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/run.json")"
    printf '%s\t%s\t%s\n' "$size" "$name" "$median" >>"$measurements"
    echo "bench: $size items, $name: $(python3 -c "print(round($median * 1000, 2))") ms" >&2
}

# write_references SIZE DIR: 20 references to items spread over the vault, as an env file and a template.
write_references() {
    python3 - "$1" "$2" <<'EOF'
import sys
size, directory = int(sys.argv[1]), sys.argv[2]
numbers = [size * k // 20 for k in range(20)]
with open(directory + "/references.env", "w") as env, open(directory + "/references.tpl", "w") as template:
    for k, number in enumerate(numbers):
        env.write("SECRET_%d=vault://bench-%06d/bench\n" % (k, number))
        template.write("secret_%d: {{ vault://bench-%06d/bench }}\n" % (k, number))
EOF
}

largest=""
for size in $sizes; do
    largest="$size"
    dir="$work/$size"
    mkdir -m 700 "$dir"
    vault="$VAULT_BIN --vault $dir/bench.vault"
    $vault init --key-file "$dir/key" >/dev/null 2>&1
    "$fill" "$dir/bench.vault" "$dir/key" "$size"
    VAULT_SESSION="$(VAULT_KEY_FILE="$dir/key" $vault unlock --raw --timeout 1h)"
    export VAULT_SESSION
    vault_bytes="$(stat -c %s "$dir/bench.vault")"
    "$work/floor" seal "$dir/floor.sealed" "$vault_bytes"
    middle="$(printf 'bench-%06d' $((size / 2)))"

    measure "$size" floor "$work/floor $dir/floor.sealed"
    # One fsync of a file of the vault's size: what the write targets allow beyond 3x the floor.
    measure "$size" write "dd if=$dir/floor.sealed of=$dir/fsync.tmp bs=1M status=none"
    measure "$size" write+fsync "dd if=$dir/floor.sealed of=$dir/fsync.tmp bs=1M conv=fsync status=none"
    measure "$size" get "$vault get -s $middle -a bench"
    # Each add runs after a delete of its item, each delete after an add: the vault keeps its size.
    $vault add -s bench-new -a bench --secret-file "$work/secret" 2>/dev/null
    measure "$size" add "$vault add -s bench-new -a bench --secret-file $work/secret" "$vault delete -s bench-new -a bench"
    measure "$size" update "$vault update -s $middle -a bench --secret-file $work/secret"
    measure "$size" delete "$vault delete -s bench-gone -a bench" "$vault add -s bench-gone -a bench --secret-file $work/secret"
    measure "$size" list "$vault list"
    # Bulk reads (issue 34): each opens the records it needs in one pass over the file.
    measure "$size" env "$vault env --format json"
    measure "$size" export "$vault export --out - --bundle-key-file $dir/bundle.key"
    # stdin is empty (hyperfine gives /dev/null): start-up to redact's first output byte.
    measure "$size" redact "$vault redact"
    measure "$size" scan "$vault scan $work/scan-input"
    write_references "$size" "$dir"
    measure "$size" run20 "$vault run --env-file $dir/references.env -- /bin/true"
    measure "$size" inject20 "$vault inject -i $dir/references.tpl"
    if [ -n "$has_keyring" ] && [ "$size" -le "$peer_max" ]; then
        fill_keyring "$size"
        measure "$size" secret-tool "secret-tool lookup service $middle account bench"
    fi
    if [ -n "$has_pass" ]; then
        fill_pass "$size"
        measure "$size" pass "pass show $middle"
    fi
    echo "$size $vault_bytes" >>"$work/sizes"
done

# Peak memory of get and list at the largest size, and of the floor beside them.
peak_rss() {  # peak_rss COMMAND…: kilobytes
    /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p'
}
dir="$work/$largest"
rss_get="$(peak_rss "$VAULT_BIN" --vault "$dir/bench.vault" get -s "$(printf 'bench-%06d' $((largest / 2)))" -a bench)"
rss_list="$(peak_rss "$VAULT_BIN" --vault "$dir/bench.vault" list)"
rss_floor="$(peak_rss "$work/floor" "$dir/floor.sealed")"
# vault scan's peak memory at 20 000 items (issue 34: under 100 MB), on a vault of its own.
scan_dir="$work/scan-20000"
mkdir -m 700 "$scan_dir"
"$VAULT_BIN" --vault "$scan_dir/bench.vault" init --key-file "$scan_dir/key" >/dev/null 2>&1
"$fill" "$scan_dir/bench.vault" "$scan_dir/key" 20000
rss_scan="$(peak_rss env -u VAULT_SESSION VAULT_KEY_FILE="$scan_dir/key" "$VAULT_BIN" --vault "$scan_dir/bench.vault" scan "$work/scan-input")"

masking=""
if [ -x bench/masking.sh ] || [ -f bench/masking.sh ]; then
    masking="$(sh bench/masking.sh "$VAULT_BIN")"
fi
scanning=""
if [ -f bench/scan.sh ]; then
    scanning="$(sh bench/scan.sh "$VAULT_BIN")"
fi
exposing=""
if [ -f bench/exposure.sh ]; then
    exposing="$(sh bench/exposure.sh "$VAULT_BIN")"
fi
helper_rows=""
if [ -f bench/helpers.sh ]; then
    helper_rows="$(sh bench/helpers.sh "$VAULT_BIN")"
fi
openbao_rows=""
if [ -f bench/openbao.sh ]; then
    openbao_rows="$(sh bench/openbao.sh "$VAULT_BIN")"
fi
tpm_rows=""
if [ -f bench/tpm.sh ]; then
    tpm_rows="$(sh bench/tpm.sh "$VAULT_BIN")"
fi
secret_service_rows=""
if [ -f bench/secret-service.sh ]; then
    secret_service_rows="$(sh bench/secret-service.sh "$VAULT_BIN")"
fi

table="$(python3 bench/table.py "$measurements" "$work/sizes" "$peer_max" "$largest" "$rss_get" "$rss_list" "$rss_floor" "$rss_scan")"
{
    echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
    echo
    echo "$table"
    if [ -n "$masking" ]; then
        echo
        echo "vault run masking (bench/masking.sh):"
        echo
        echo "$masking"
    fi
    if [ -n "$scanning" ]; then
        echo
        echo "vault scan against git grep (bench/scan.sh):"
        echo
        echo "$scanning"
    fi
    if [ -n "$exposing" ]; then
        echo
        echo "vault exposure over a git history (bench/exposure.sh; issue 50):"
        echo
        echo "| command | time (best of 3) | × floor | peak RSS | records decrypted | goal |"
        echo "|---|---:|---:|---:|---|---|"
        echo "$exposing"
    fi
    if [ -n "$helper_rows" ]; then
        echo
        echo "One call of each credential helper against vault get, and kubectl with vault against a static token (bench/helpers.sh; issue 52):"
        echo
        echo "| call | median | ratio |"
        echo "|---|---|---|"
        echo "$helper_rows"
    fi
    if [ -n "$openbao_rows" ]; then
        echo
        echo "vault run with OpenBao references against bao kv get and vault:// references (bench/openbao.sh; issue 55):"
        echo
        echo "| call | best of 5 | ratio to vault:// |"
        echo "|---|---|---|"
        echo "$openbao_rows"
    fi
    if [ -n "$tpm_rows" ]; then
        echo
        echo "vault get of a this-device-only item, with and without the TPM (bench/tpm.sh; issue 38):"
        echo
        echo "$tpm_rows"
    fi
    if [ -n "$secret_service_rows" ]; then
        echo
        echo "secret-tool lookup against vault's Secret Service provider and gnome-keyring (bench/secret-service.sh; issue 53):"
        echo
        echo "$secret_service_rows"
    fi
} >"$work/report.md"
cat "$work/report.md"
if [ "$results" != "-" ]; then
    if [ ! -f "$results" ]; then
        printf '# Benchmark results\n\nWritten by `make bench` (bench/run.sh); newest first. Medians of whole processes\n(hyperfine); ratios are to the floor measured in the same run.\n' >"$results"
    fi
    python3 - "$results" "$work/report.md" <<'EOF'
import sys
path, report = sys.argv[1], open(sys.argv[2]).read()
text = open(path).read()
head, sep, rest = text.partition("\n## ")
updated = head.rstrip("\n") + "\n\n" + report.rstrip("\n") + "\n" + (("\n## " + rest) if sep else "")
open(path, "w").write(updated)
EOF
    echo "bench: wrote $results" >&2
fi
