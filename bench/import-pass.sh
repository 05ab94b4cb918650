#!/bin/sh
# The 23-entry pass store of issue 36, moved by `vault import --from pass` and by the shell loop
# `pass show "$n" | vault add -s "${n%/*}" -a "${n##*/}" --trim-newline`; needs `make release`, pass, gpg.
set -eu
V=${V:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/vault}
BASE=$(mktemp -d)
export HOME="$BASE" GNUPGHOME="$BASE/.gnupg" PASSWORD_STORE_DIR="$BASE/store"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --passphrase '' --quick-gen-key 'Bench <bench@example.com>' default default never 2>/dev/null
pass init bench@example.com >/dev/null
for i in $(seq 1 23); do printf 'pw-%s-secret\nuser: u%s\n' "$i" "$i" | pass insert -m "svc$i/user$i" >/dev/null; done
gpgconf --launch gpg-agent
"$V" init --key-file "$BASE/key" --vault "$BASE/a.vault" >/dev/null 2>&1
"$V" init --key-file "$BASE/key" --vault "$BASE/b.vault" >/dev/null 2>&1
export VAULT_KEY_FILE="$BASE/key"
t0=$(date +%s.%N)
VAULT_PATH="$BASE/a.vault" "$V" import --from pass 2>/dev/null
t1=$(date +%s.%N)
cd "$PASSWORD_STORE_DIR"
for n in $(find . -name '*.gpg' | sed 's|^\./||; s|\.gpg$||' | sort); do
  pass show "$n" | VAULT_PATH="$BASE/b.vault" "$V" add -s "${n%/*}" -a "${n##*/}" --trim-newline 2>/dev/null
done
t2=$(date +%s.%N)
echo "import --from pass: $(awk "BEGIN { print $t1 - $t0 }") s"
echo "loop (pass show | vault add): $(awk "BEGIN { print $t2 - $t1 }") s"
echo "items: $(VAULT_PATH="$BASE/a.vault" "$V" list | wc -l) vs $(VAULT_PATH="$BASE/b.vault" "$V" list | wc -l)"
gpgconf --kill gpg-agent
rm -rf "$BASE"
