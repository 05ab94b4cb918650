#!/bin/sh
# `vault exposure` over COMMITS commits of an ITEMS-item vault (defaults 1 000 and 1 000; issue
# 50): one item updated per commit, the group revoked (every record sealed again under a new
# key generation) every 250 commits. Prints one markdown table row (| benchmark | time | peak RSS |
# records decrypted | goal |): each sealed record is decrypted once, so the records decrypted are
# about ITEMS per key generation plus one per update, not ITEMS per commit.
# Builds nothing: pass the release binary, e.g.
#   bench/exposure.sh "$(swift build -c release --show-bin-path)/vault" [COMMITS] [ITEMS]
# (vault-bench-fill is taken from beside it).
set -eu

vault="${1:?usage: bench/exposure.sh PATH/TO/RELEASE/vault [COMMITS] [ITEMS]}"
commits="${2:-1000}"
items="${3:-1000}"
case "$vault" in /*) ;; *) vault="$PWD/$vault" ;; esac
fill="$(dirname "$vault")/vault-bench-fill"
[ -x "$vault" ] && [ -x "$fill" ] || { echo "exposure.sh: error: $vault or $fill is not an executable" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work" XDG_RUNTIME_DIR="$work/run" VAULT_PATH="$work/repo/bench.vault" VAULT_KEY_FILE="$work/key"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.invalid
unset VAULT_SESSION VAULT_PASSPHRASE_FILE VAULT_GROUP
mkdir -m 700 "$work/run"
git init -q "$work/repo"
"$vault" init --key-file "$VAULT_KEY_FILE" >/dev/null 2>&1
"$fill" "$VAULT_PATH" "$VAULT_KEY_FILE" "$items"
git -C "$work/repo" add bench.vault && git -C "$work/repo" commit -q -m "filled"
i=1
while [ "$i" -lt "$commits" ]; do
    if [ $((i % 250)) -eq 0 ]; then
        "$vault" revoke --group default >/dev/null 2>&1
    else
        number=$((i % items))
        head -c 24 /dev/urandom | base64 | "$vault" update -s "$(printf 'bench-%06d' "$number")" -a bench >/dev/null 2>&1
    fi
    git -C "$work/repo" commit -q -a -m "commit $i"
    i=$((i + 1))
done

start="$(date +%s.%N)"
summary="$("$vault" exposure --group default --json 2>&1 >/dev/null)"
end="$(date +%s.%N)"
/usr/bin/time -v -o "$work/time.txt" "$vault" exposure --group default >/dev/null 2>&1
rss="$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$work/time.txt")"
decrypted="$(printf '%s\n' "$summary" | sed -n 's/.* \([0-9][0-9]*\) records\{0,1\} decrypted.*/\1/p')"
seconds="$(python3 -c "print('%.2f s' % ($end - $start))")"
printf '| vault exposure --group, %s commits of a %s-item vault | %s | %s MiB | %s (%s items x %s key generations + %s updates) | each record once per key generation |\n' \
    "$commits" "$items" "$seconds" "$(( ${rss:-0} / 1024 ))" "${decrypted:-?}" "$items" "$(( commits / 250 + 1 ))" "$(( commits - 1 - commits / 250 ))"
