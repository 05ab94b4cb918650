#!/bin/sh
# Throughput of `vault run` with masking on, and of `vault redact` (the same
# masker over stdin), against a plain pipe: prints two markdown table rows
# (| benchmark | vault | plain pipe | ratio | goal |).
# Builds nothing: pass the release binary, e.g.
#   bench/masking.sh "$(swift build -c release --show-bin-path)/vault"
# Uses hyperfine when installed (scripts/install-deps.sh installs it).
set -eu

vault="${1:?usage: bench/masking.sh PATH/TO/RELEASE/vault [SIZE_MIB]}"
size_mib="${2:-256}"
case "$vault" in /*) ;; *) vault="$PWD/$vault" ;; esac
[ -x "$vault" ] || { echo "masking.sh: error: $vault is not an executable" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work" XDG_RUNTIME_DIR="$work/run" VAULT_PATH="$work/bench.vault" VAULT_KEY_FILE="$work/key"
unset VAULT_SESSION VAULT_PASSPHRASE_FILE VAULT_GROUP

# A vault with a few secrets, all of them loaded into the masker.
"$vault" init --key-file "$VAULT_KEY_FILE" >/dev/null 2>&1
i=1
while [ "$i" -le 5 ]; do
    head -c 24 /dev/urandom | base64 | tr -d '\n/+=' | "$vault" add -s "bench$i" -a ci >/dev/null 2>&1
    i=$((i + 1))
done
export S1=vault://bench1/ci S2=vault://bench2/ci S3=vault://bench3/ci S4=vault://bench4/ci S5=vault://bench5/ci

# Text-like data (base64 lines), so the masker's first-byte filter is exercised.
head -c "$((size_mib * 3 / 4))M" /dev/urandom | base64 > "$work/big"
bytes="$(wc -c < "$work/big")"

. "$(dirname "$0")/timing.sh"
masked="$(best_time 5 "\"$vault\" run -- cat \"$work/big\" > /dev/null")"
redact="$(best_time 5 "cat \"$work/big\" | \"$vault\" redact > /dev/null")"
plain="$(best_time 5 "cat \"$work/big\" | cat > /dev/null")"

python3 - "$bytes" "$masked" "$redact" "$plain" <<'PY'
import sys
size, masked, redact, plain = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
mib = size / (1 << 20)
for name, seconds in (("vault run masking", masked), ("vault redact", redact)):
    ratio = plain / seconds
    verdict = "met" if ratio >= 0.5 else "MISSED"
    print(f"| {name} ({mib:.0f} MiB, 5 secrets) | {mib / seconds:.0f} MiB/s | {mib / plain:.0f} MiB/s (cat \\| cat) | {ratio:.2f} | >= 0.50 (aim 0.80): {verdict} |")
PY
