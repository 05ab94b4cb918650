#!/bin/sh
# `vault exposure` over COMMITS commits of an ITEMS-item vault (defaults 1 000 and 1 000; issue 50).
# The history comes from `vault-bench-fill history` (the same Vault calls as the commands, one
# process, a git fast-import stream): the fill (one item in four in group ci), a scoped read-only
# member `runner` of ci and a full member `alice` added, then each commit updates 3 items, but
# ci is revoked a quarter of the way, alice removed half-way (a re-key of the whole vault) and
# default revoked at three quarters: every record sealed under 3 key generations, plus one per update.
# Times `exposure --member alice --json`, `--member runner --json` and `exposure check` (red:
# alice lost access), best of BENCH_EXPOSURE_RUNS (default 3) with /usr/bin/time -v, the peak RSS of
# that run, and the records each decrypted (its summary on stderr), against the floor: `git
# cat-file --batch` of every version of the file (what any reader of the history reads) plus
# bench/floor.c opening a file of the vault's size once per key generation (every record decrypted
# once per generation). No peer answers the question (issue 50), so there is no peer row.
# Prints markdown table rows (| command | time | × floor | peak RSS | records decrypted | goal |; the
# peak RSS is /usr/bin/time's, the largest process of the run, then vault's and its git child's own),
# and the history and floor on stderr. Builds nothing: pass the release binary, e.g.
#   bench/exposure.sh "$(swift build -c release --show-bin-path)/vault" [COMMITS] [ITEMS]
# (vault-bench-fill is taken from beside it).
set -eu

vault="${1:?usage: bench/exposure.sh PATH/TO/RELEASE/vault [COMMITS] [ITEMS]}"
commits="${2:-1000}"
items="${3:-1000}"
runs="${BENCH_EXPOSURE_RUNS:-3}"
case "$vault" in /*) ;; *) vault="$PWD/$vault" ;; esac
fill="$(dirname "$vault")/vault-bench-fill"
root="$(cd "$(dirname "$0")/.." && pwd)"
[ -x "$vault" ] && [ -x "$fill" ] || { echo "exposure.sh: error: $vault or $fill is not an executable" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "exposure.sh: error: /usr/bin/time (GNU time) is not installed" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work" XDG_RUNTIME_DIR="$work/run" VAULT_PATH="$work/repo/bench.vault" VAULT_KEY_FILE="$work/key"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset VAULT_SESSION VAULT_PASSPHRASE_FILE VAULT_GROUP
mkdir -m 700 "$work/run"
git init -q "$work/repo"
"$vault" init --key-file "$VAULT_KEY_FILE" >/dev/null 2>&1
for name in runner alice; do
    "$vault" identity new --out "$work/$name.id" >/dev/null 2>&1
    "$vault" identity show --identity "$work/$name.id" 2>/dev/null | head -n 1 >"$work/$name.recipient"
done
ref="$(git -C "$work/repo" symbolic-ref HEAD)"
start="$(date +%s.%N)"
"$fill" history "$VAULT_PATH" "$VAULT_KEY_FILE" "$commits" "$items" --ref "$ref" --path bench.vault \
    --runner "$(cat "$work/runner.recipient")" --alice "$(cat "$work/alice.recipient")" | git -C "$work/repo" fast-import --quiet
git -C "$work/repo" reset -q
built="$(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$(date +%s.%N)")"
size="$(wc -c <"$VAULT_PATH")"
echo "exposure.sh: history of $(git -C "$work/repo" rev-list --count HEAD) commits of $items items built in $built s; the vault file is $((size / 1024)) KiB, the repository $(du -sk "$work/repo/.git" | cut -f1) KiB" >&2

# measure NAME COMMAND…: best of $runs runs' wall time (s) and that run's peak RSS (KiB), and the
# records decrypted as the command's stderr says, into $seconds, $rss, $decrypted.
measure() {
    seconds="" rss="" decrypted=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        /usr/bin/time -v -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt" || true
        wall="$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt" \
            | awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')"
        peak="$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$work/time.txt")"
        if [ -z "$seconds" ] || [ "$(python3 -c "import sys; print(float(sys.argv[1]) < float(sys.argv[2]))" "$wall" "$seconds")" = True ]; then
            seconds="$wall" rss="$peak"
        fi
        i=$((i + 1))
    done
    decrypted="$(sed -n 's/.* \([0-9][0-9]*\) records\{0,1\} decrypted.*/\1/p' "$work/stderr.txt")"
}

# own_peak COMMAND…: the peak RSS (VmHWM, KiB) of the command's own process and of the largest of
# its children (vault's git cat-file), polled every 0.1 s, into $own and $child.
own_peak() {
    "$@" >/dev/null 2>&1 &
    pid=$! own=0 child=0
    while kill -0 "$pid" 2>/dev/null; do
        value="$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status" 2>/dev/null || true)"
        [ -n "$value" ] && [ "$value" -gt "$own" ] && own="$value"
        for process in $(pgrep -P "$pid" || true); do
            value="$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$process/status" 2>/dev/null || true)"
            [ -n "$value" ] && [ "$value" -gt "$child" ] && child="$value"
        done
        sleep 0.1
    done
    wait "$pid" || true
}

# The floor: every version read from git, then each key generation's records decrypted once.
cc -O2 "$root/bench/floor.c" -o "$work/floor" -lcrypto
"$work/floor" seal "$work/sealed" "$size"
git -C "$work/repo" log --all --format= --raw --no-abbrev -- bench.vault | awk '{ print $4 }' | sort -u >"$work/blobs"
versions="$(wc -l <"$work/blobs")"
measure sh -c "git -C '$work/repo' cat-file --batch <'$work/blobs' >/dev/null"
read_floor="$seconds"
measure "$work/floor" "$work/sealed"
open_floor="$seconds"
generations=3
floor="$(python3 -c "import sys; print('%.3f' % (float(sys.argv[1]) + int(sys.argv[3]) * float(sys.argv[2])))" "$read_floor" "$open_floor" "$generations")"
echo "exposure.sh: floor $floor s = git cat-file --batch of $versions versions ($read_floor s) + $generations x floor.c on $((size / 1024)) KiB ($open_floor s)" >&2

updates="$(git -C "$work/repo" log --format=%s | grep -c '^step [0-9]*: update')"
row() { # ROW-NAME COMMAND…: after measure COMMAND…
    name="$1"
    shift
    own_peak "$@"
    python3 - "$name" "$seconds" "$floor" "$rss" "${decrypted:-}" "$updates" "$commits" "$items" "$own" "$child" <<'PY'
import sys
name, seconds, floor, rss, decrypted, updates, commits, items, own, child = sys.argv[1:]
expected = int(items) * 3 + 3 * int(updates)
counted = (f"{decrypted} ({items} items × 3 generations + 3 × {updates} updates = {expected}; "
           f"{int(items) * int(commits)} if opened once per commit)") if decrypted else "— (not printed)"
print(f"| {name} | {float(seconds):.2f} s | {float(seconds) / float(floor):.1f}× | {int(rss) / 1024:.0f} MiB "
      f"(vault {int(own) / 1024:.0f} MiB, git cat-file {int(child) / 1024:.0f} MiB) | {counted} | each record once per key generation |")
PY
}
measure "$vault" exposure --member alice --json
row "vault exposure --member alice --json, $commits commits of $items items" "$vault" exposure --member alice --json
measure "$vault" exposure --member runner --json
row "vault exposure --member runner --json, the same history" "$vault" exposure --member runner --json
measure "$vault" exposure check
row "vault exposure check (red: alice removed), the same history" "$vault" exposure check
