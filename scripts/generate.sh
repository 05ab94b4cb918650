#!/bin/sh
# Writes the files rendered from Sources/VaultCLI/Table/CommandTable.swift: the man
# page and the shell completions. Run by `make generate`; DriftTests fails
# when a committed file differs from what the table renders.
set -eu
cd "$(dirname "$0")/.."

scratch="${SCRATCH_PATH:-.build}"
swift build --scratch-path "$scratch" --product vault >&2
vault="$(swift build --scratch-path "$scratch" --show-bin-path)/vault"

generate() {
    "$vault" __generate "$1" > "$2.tmp"
    mv "$2.tmp" "$2"
    echo "wrote $2" >&2
}

generate man man/vault.1
generate bash completions/vault.bash
generate zsh completions/_vault
generate fish completions/vault.fish
