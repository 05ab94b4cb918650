#!/bin/sh
# A scripted tour of vault against a throwaway vault in a temporary HOME,
# using the built debug binary. Run by `make demo`, which builds first.
# Each step prints why, then `$ COMMAND` (bold on a terminal), then what it
# printed; a step that exits other than expected stops the demo with exit 1.
set -eu
cd "$(dirname "$0")/.."

bin="$(swift build --show-bin-path)"
if [ ! -x "$bin/vault" ]; then
    echo "demo: error: no built binary at $bin/vault" >&2
    echo "demo: hint: build it with 'make build'" >&2
    exit 1
fi
PATH="$bin:$PATH"

# Nothing from the caller's own vault may leak in: a fresh HOME, and no VAULT_*.
unset VAULT_PATH VAULT_KEY_FILE VAULT_PASSPHRASE_FILE VAULT_SESSION VAULT_GROUP
demo_home="$(mktemp -d "${TMPDIR:-/tmp}/vault-demo.XXXXXX")"
trap 'rm -rf "$demo_home"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
HOME="$demo_home"
XDG_DATA_HOME="$demo_home/.local/share"
XDG_CONFIG_HOME="$demo_home/.config"
XDG_RUNTIME_DIR="$demo_home/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
export PATH HOME XDG_DATA_HOME XDG_CONFIG_HOME XDG_RUNTIME_DIR
cd "$demo_home"

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
    bold="$(printf '\033[1m')" plain="$(printf '\033[0m')"
else
    bold="" plain=""
fi
output="$demo_home/.step-output"

# step WHY EXPECTED_STATUS COMMAND: shows and runs COMMAND in this shell (so an
# export sticks), stdin from /dev/null so nothing can wait on a prompt.
step() {
    why="$1" expected="$2" command="$3"
    printf '\n%s\n%s$ %s%s\n' "$why" "$bold" "$command" "$plain"
    status=0
    eval "$command" </dev/null >"$output" 2>&1 || status=$?
    cat "$output"
    # get adds no newline when stdout is not a terminal; end the line here.
    if [ -s "$output" ] && [ -n "$(tail -c 1 "$output")" ]; then echo; fi
    if [ "$expected" -ne 0 ]; then echo "exit status: $status"; fi
    if [ "$status" -ne "$expected" ]; then
        echo "demo: error: '$command' exited $status, expected $expected" >&2
        exit 1
    fi
}

step "A key file unlocks the vault with no passphrase prompt, which suits scripts and CI jobs." \
    0 'vault init --key-file key'
step "With VAULT_KEY_FILE set, every later command finds the key without --key-file." \
    0 'export VAULT_KEY_FILE="$PWD/key"'
step "Piping a token in keeps it out of the command line, where ps would show it to every user." \
    0 'printf %s '\''ghp_example'\'' | vault add -s github -a ci-bot -l "GitHub CI token"'
step "A generated password is random and stored at once, so no one has to invent or type one." \
    0 'vault add -s postgres -a admin --generate --length 24'
step "Reading a secret back prints it exactly as stored, ready for \$(…) in a script." \
    0 'vault get -s github -a ci-bot'
step "Asking for JSON shows the item's attributes to a script, and leaves the secret out unless --show-secret is given." \
    0 'vault get -s github -a ci-bot --json'
step "Rotating a token replaces its secret in place; update reads the new one from stdin too." \
    0 'printf %s '\''ghp_rotated'\'' | vault update -s github -a ci-bot'
step "The next get returns the rotated token." \
    0 'vault get -s github -a ci-bot'
step "Listing shows what the vault holds, and never a secret." \
    0 'vault list'
step "Adding an item that already exists fails with exit 45 (errSecDuplicateItem), so a script cannot overwrite a secret by accident." \
    45 'printf %s '\''ghp_other'\'' | vault add -s github -a ci-bot'
step "Asking for an item that does not exist fails with exit 44 (errSecItemNotFound), which a script can test for." \
    44 'vault get -s github -a nobody'
step "Deleting removes an item that is no longer needed." \
    0 'vault delete -s postgres -a admin'
step "The final list shows only the GitHub token." \
    0 'vault list'
step "A CI job gets a credential for one group only: here the group ci, read-only, for a day." \
    0 'printf %s '\''s3cret-deploy'\'' | vault add --group ci -s deploy -a bot && vault grant --group ci --read-only --expires 1d --out ci.cred'
step "With that credential (VAULT_CREDENTIAL holds its text, as a CI secret variable would) and CI set, vault run gives the job its secret and masks it in the log." \
    0 'CI=true VAULT_KEY_FILE= VAULT_CREDENTIAL="$(cat ci.cred)" DEPLOY_TOKEN=vault://ci/deploy/bot vault run -- sh -c '\''echo "deploying with $DEPLOY_TOKEN"'\'''
step "The same credential cannot open another group: exit 30 (errSecMissingEntitlement)." \
    30 'VAULT_KEY_FILE= VAULT_CREDENTIAL=ci.cred vault get --group default -s github -a ci-bot'
step "A CI runner can be a member instead: its own age identity (a CI secret), its public recipient added to group ci, read-only; no credential file exists anywhere." \
    0 'vault identity new --out - > runner.identity 2> runner.err && chmod 600 runner.identity && vault member add ci-runner "$(sed -n "s/^vault: recipient: //p" runner.err)" --group ci --read-only'
step "A member reads only a vault signed by the key it pinned: vault trust prints the fingerprint, which the job gets as VAULT_TRUST (anyone who can push the file could otherwise seal a vault of their own to the runner)." \
    0 'vault trust > trust.fp && VAULT_KEY_FILE= VAULT_IDENTITY="$(cat runner.identity)" VAULT_TRUST="$(cat trust.fp)" vault get --group ci -s deploy -a bot'
step "Without the pin, the member's identity reads nothing: exit 51." \
    51 'VAULT_KEY_FILE= VAULT_IDENTITY="$(cat runner.identity)" vault get --group ci -s deploy -a bot'
step "Revoking the group ends every credential granted for it, and keeps its items." \
    0 'vault revoke --group ci && vault get --group ci -s deploy -a bot'
step "Verify checks every record and prints the format and its counters: revoke raised the key epoch, so a copy from before it is refused (exit 49)." \
    0 'vault verify'
step "Rekey replaces every key (master, class, group and this machine's device key) and re-seals every item: an old copy of the file with an old key file, session or credential opens nothing written afterwards." \
    0 'vault rekey --yes && vault get -s github -a ci-bot'
step "An unlock session lets later commands read without any credential until it has been idle for its timeout." \
    0 'eval "$(vault unlock --export --timeout 5m)" && unset VAULT_KEY_FILE'
step "Status shows, without unlocking, whether the vault is locked and what it holds." \
    0 'vault status'
step "Locking ends the session; a when-unlocked item then needs an unlock again, and with no terminal vault says so at once (exit 36)." \
    36 'vault lock && vault get -s github -a ci-bot'
echo
echo "demo: done; the throwaway vault in $demo_home is removed now"
