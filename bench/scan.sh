#!/bin/sh
# `vault scan --git-history` against `git grep -F -f SECRETS $(git rev-list --all)`
# on a repository of 10 000 commits built here: prints one markdown table row
# (| benchmark | vault scan | git grep | ratio | goal |). vault reads each
# unique blob once; git grep reads every file of every commit.
# Builds nothing: pass the release binary, e.g.
#   bench/scan.sh "$(swift build -c release --show-bin-path)/vault" [COMMITS]
# Uses hyperfine when installed (scripts/install-deps.sh installs it).
set -eu

vault="${1:?usage: bench/scan.sh PATH/TO/RELEASE/vault [COMMITS]}"
commits="${2:-10000}"
case "$vault" in /*) ;; *) vault="$PWD/$vault" ;; esac
[ -x "$vault" ] || { echo "scan.sh: error: $vault is not an executable" >&2; exit 2; }
command -v git >/dev/null 2>&1 || { echo "scan.sh: error: git is not installed" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work" XDG_RUNTIME_DIR="$work/run" VAULT_PATH="$work/bench.vault" VAULT_KEY_FILE="$work/key"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset VAULT_SESSION VAULT_PASSPHRASE_FILE VAULT_GROUP

# Five secrets in the vault; the same five, one per line, for git grep.
"$vault" init --key-file "$VAULT_KEY_FILE" >/dev/null 2>&1
: > "$work/secrets.txt"
i=1
while [ "$i" -le 5 ]; do
    secret="$(head -c 24 /dev/urandom | base64 | tr -d '\n/+=')"
    printf '%s' "$secret" | "$vault" add -s "bench$i" -a ci >/dev/null 2>&1
    printf '%s\n' "$secret" >> "$work/secrets.txt"
    i=$((i + 1))
done

# The repository: 50 files of about 1 KiB, one of them rewritten per commit;
# the first secret committed in an old commit and gone when that file is next rewritten.
git init -q "$work/repo"
python3 - "$commits" "$(head -n 1 "$work/secrets.txt")" <<'PY' | git -C "$work/repo" fast-import --quiet
import sys
commits, secret = int(sys.argv[1]), sys.argv[2]
out = sys.stdout
files = 50
for number in range(1, commits + 1):
    path = "src/module%02d.txt" % (number % files)
    lines = ["line %d of commit %d: the quick brown fox jumps over the lazy dog" % (line, number) for line in range(14)]
    if number == commits // 4:
        lines.append("token = " + secret)
    body = ("\n".join(lines) + "\n").encode()
    message = b"commit %d\n" % number
    out.write("commit refs/heads/main\n")
    out.write("committer bench <bench@example.invalid> %d +0000\n" % (1700000000 + number))
    out.write("data %d\n" % len(message)); out.flush()
    sys.stdout.buffer.write(message)
    out.write("M 100644 inline %s\ndata %d\n" % (path, len(body))); out.flush()
    sys.stdout.buffer.write(body + b"\n")
PY
git -C "$work/repo" gc -q --aggressive >/dev/null 2>&1 || true

# Both must find the planted secret, or the times compare nothing.
found="$("$vault" scan --git-history "$work/repo" 2>/dev/null || true)"
case "$found" in *"vault://default/bench1/ci (raw)"*) ;; *) echo "scan.sh: error: vault scan missed the planted secret" >&2; exit 1 ;; esac
# shellcheck disable=SC2046 # one argument per commit
git -C "$work/repo" grep -q -F -f "$work/secrets.txt" $(git -C "$work/repo" rev-list --all) \
    || { echo "scan.sh: error: git grep missed the planted secret" >&2; exit 1; }

scan="\"$vault\" scan --git-history --exit-code 0 \"$work/repo\" > /dev/null 2>&1"
grep_all="cd \"$work/repo\" && git grep -F -f \"$work/secrets.txt\" \$(git rev-list --all) > /dev/null; true"
. "$(dirname "$0")/timing.sh"
scan_time="$(best_time 3 "$scan")"
grep_time="$(best_time 3 "$grep_all")"

python3 - "$commits" "$scan_time" "$grep_time" <<'PY'
import sys
commits, scan, grep = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
met = "met" if scan < grep else "MISSED"
print(f"| vault scan --git-history ({commits:,} commits, 5 secrets, 6 encodings) | {scan:.2f} s | {grep:.2f} s (git grep -F -f, every commit) | {grep / scan:.1f}x faster | faster: {met} |")
PY
