#!/bin/sh
# Builds a separate Swift package that depends on VaultCore as an app would:
# through a git URL (file:// to a clone of this repository's committed HEAD)
# and a version tag (from: "0.1.0"), so SwiftPM's rules for versioned
# dependencies apply (no unsafe flags). Its main.swift is the example of
# docs/VAULTCORE.md, taken from between the doc's markers, and what it prints
# in a temporary HOME must be the doc's output block. It builds HEAD, not the
# working tree: commit first. Run by scripts/check.sh; compiles VaultCore again
# (a minute or two).
set -eu
cd "$(dirname "$0")/.."

log() { echo "consumer-package: $*"; }
fail() {
    log "FAILED: $*"
    exit 1
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
head="$(git rev-parse HEAD)"
tag=0.1.0
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    log "note: uncommitted changes are not in the test; it builds HEAD $(git rev-parse --short HEAD)"
fi

# The dependency: a clone of HEAD with no tags of its own, tagged $tag.
clone="$work/vault"
git clone --quiet --no-tags --no-checkout . "$clone"
git -C "$clone" -c advice.detachedHead=false checkout --quiet "$head"
git -C "$clone" tag "$tag" "$head"

# The example and its output, from the doc as committed.
example() {
    awk -v marker="<!-- consumer-example: $1 -->" '
        $0 == marker { found = 1; next }
        found == 1 && /^```/ { found = 2; next }
        found == 2 && /^```/ { exit }
        found == 2 { print }
    ' "$clone/docs/VAULTCORE.md"
}
app="$work/example-app"
mkdir -p "$app/Sources/example-app"
example main.swift >"$app/Sources/example-app/main.swift"
example output >"$work/expected"
[ -s "$app/Sources/example-app/main.swift" ] || fail "no '<!-- consumer-example: main.swift -->' code block in docs/VAULTCORE.md"
[ -s "$work/expected" ] || fail "no '<!-- consumer-example: output -->' block in docs/VAULTCORE.md"
cat >"$app/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "example-app",
    dependencies: [
        .package(url: "file://$clone", from: "$tag"),
    ],
    targets: [
        .executableTarget(name: "example-app", dependencies: [
            .product(name: "VaultCore", package: "vault"),
        ]),
    ]
)
EOF

# SwiftPM's caches and the example's files go to temporary homes, so runs
# leave nothing behind and see nothing of the user's vault.
log "building a package that depends on VaultCore at file://$clone from: \"$tag\" ($(git rev-parse --short HEAD))"
mkdir -p "$work/build-home"
HOME="$work/build-home" swift build --package-path "$app" >"$work/build.log" 2>&1 || {
    cat "$work/build.log"
    fail "swift build of the consumer package failed"
}
mkdir -p "$work/home" "$work/run"
chmod 700 "$work/run"
status=0
env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u VAULT_PATH HOME="$work/home" XDG_RUNTIME_DIR="$work/run" \
    "$app/.build/debug/example-app" >"$work/output" 2>&1 || status=$?
if [ "$status" != 0 ]; then
    cat "$work/output"
    fail "the example of docs/VAULTCORE.md exited with status $status"
fi
diff -u "$work/expected" "$work/output" >"$work/diff" || {
    cat "$work/diff"
    fail "the example's output differs from the output block in docs/VAULTCORE.md (- doc, + run)"
}
log "ok: the example of docs/VAULTCORE.md built against tag $tag and printed what the doc says"
