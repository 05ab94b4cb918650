# Generated from CommandTable.swift by `make generate`; do not edit
# bash completion for vault: source this file, or install it as vault in
# the completions directory of bash-completion.

_vault_commands="init add get otp update edit rename delete trash undelete list history run env inject scan redact group grant revoke identity member trust sync check-history exposure conflicts resolve export import unlock lock status passwd rekey device-key verify upgrade copy wipe first-run reset secret-service help"
# Commands that run another command after --.
_vault_runners="run"

# The command that $1 names: the command an alias stands for, or $1 itself.
_vault_command_name() {
    case "$1" in
        show) echo get ;;
        mv) echo rename ;;
        rm) echo delete ;;
        ls) echo list ;;
        *) printf '%s\n' "$1" ;;
    esac
}

# The options of command $1 (none: before the command), global ones included.
_vault_options() {
    case "$1" in
        init) echo "--kdf-cost --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        add) echo "-s --service -a --account -l --label -j --comment -D --kind -G --generic --env-name --expires --class --group --create-group -U --update --json --otp --notes-file --otp-file --secret-file --generate --length --charset --require --no-ambiguous --words --separator --print -w --password --trim-newline --allow-empty --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        get) echo "-s --service -a --account --group -l --label --json --show-secret --field --clip --clip-timeout --revision --theirs --conflict --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        otp) echo "-s --service -a --account --group --at --remaining --json --clip --clip-timeout --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        update) echo "-s --service -a --account --group -l --label -j --comment -D --kind -G --generic --env-name --expires --class --secret-file --generate --length --charset --require --no-ambiguous --words --separator --print -w --password --trim-newline --allow-empty --keep-secret --keep --undo --json --otp --notes-file --otp-file --clear-notes --clear-otp --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        edit) echo "-s --service -a --account --group --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        rename) echo "-s --service -a --account --group --to-service --to-account --to-group --create-group --keep-history --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        delete) echo "-s --service -a --account --group -l --label --all-matching -y --yes --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        trash) echo "-s --service -a --account --group --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        undelete) echo "-s --service -a --account --group --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        list) echo "-s --service -a --account --group --class --search --service-glob --account-glob --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        history) echo "-s --service -a --account --group --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        group) echo "--json -y --yes --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        grant) echo "--list --group --read-only --fresh-history --expires -o --out --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        identity) echo "-o --out --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        member) echo "--group --read-only --fresh-history --kdf-cost -y --yes --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        trust) echo "--pin --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        revoke) echo "--group --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        unlock) echo "--timeout --raw --export --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        lock) echo "--all --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        status) echo "--json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        passwd) echo "--new-passphrase-file --add-key-file --remove-key-file --remove-passphrase --add-keyring-slot --remove-keyring-slot --kdf-cost -y --yes --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        rekey) echo "--kdf-cost -y --yes --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        device-key) echo "--tpm --reseal --pin --no-tpm --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        sync) echo "--setup --remote --branch --kdf-cost -y --yes --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        check-history) echo "--file --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        exposure) echo "--member --group --grant --reason --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        merge-driver) echo "--vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        textconv) echo "--vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        conflicts) echo "--group --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        resolve) echo "-s --service -a --account --group --ours --theirs --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        run) echo "--env --env-file --group --env-group --only --prefix --allow-env-name --no-masking --keep-vault-env --allow-trace --mount --mount-format --mount-max-reads --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        env) echo "--group --only --prefix --allow-env-name --format --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        inject) echo "-i --in -o --out --group --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        scan) echo "--git-history --group --ref --skip-ignored --baseline --update-baseline --exit-code --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        redact) echo "--group --ref --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        wipe) echo "--group -s --service -a --account --service-glob --account-glob --expired --older-than --all --trash -n --dry-run -y --yes --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        first-run) echo "--marker --group -n --dry-run -y --yes --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        export) echo "-o --out --format --plaintext --group -s --service -a --account --class --search --service-glob --account-glob --bundle-passphrase-file --bundle-key-file --kdf-cost --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        import) echo "--from --columns --group --folders-as-groups --create-group -n --dry-run --partial --max-entries --kdbx-password-file --kdbx-key-file --bundle-passphrase-file --bundle-key-file --on-conflict --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        reset) echo "-y --yes --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        verify) echo "--quarantine -y --yes --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        upgrade) echo "--json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        copy) echo "--to --kdf-cost --json --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        git-credential) echo "--group --class --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        docker-credential) echo "--group --class --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        kube-credential) echo "--group --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        aws-credential) echo "--group --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        cargo-credential) echo "--cargo-plugin --group --class --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        terraform-credential) echo "--group --class --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        secret-service) echo "--vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        help) echo "--all --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
        *) echo "--vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-rollback --accept-log --accept-member --min-epoch --no-interaction --no-keyring -q --quiet -h --help --version" ;;
    esac
}

# How the value of option $2 of command $1 completes: "file", "directory",
# "none", "names KIND" or "words WORD...". Fails for an option that takes no value.
_vault_value_kind() {
    case "$1 $2" in
        *" --vault") echo "file" ;;
        *" --passphrase-file") echo "file" ;;
        *" --key-file") echo "file" ;;
        *" --credential") echo "file" ;;
        *" --identity") echo "file" ;;
        *" --trust") echo "none" ;;
        *" --backend") echo "words file secret-service" ;;
        *" --collection") echo "none" ;;
        *" --accept-member") echo "none" ;;
        *" --min-epoch") echo "none" ;;
        "init --kdf-cost") echo "words interactive testing" ;;
        "add -s"|"add --service") echo "names services" ;;
        "add -a"|"add --account") echo "names accounts" ;;
        "add -l"|"add --label") echo "none" ;;
        "add -j"|"add --comment") echo "none" ;;
        "add -D"|"add --kind") echo "none" ;;
        "add -G"|"add --generic") echo "none" ;;
        "add --env-name") echo "none" ;;
        "add --expires") echo "none" ;;
        "add --class") echo "words when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only" ;;
        "add --group") echo "names groups" ;;
        "add --notes-file") echo "file" ;;
        "add --otp-file") echo "file" ;;
        "add --secret-file") echo "file" ;;
        "add --length") echo "none" ;;
        "add --charset") echo "none" ;;
        "add --require") echo "none" ;;
        "add --words") echo "none" ;;
        "add --separator") echo "none" ;;
        "add -w"|"add --password") echo "none" ;;
        "get -s"|"get --service") echo "names services" ;;
        "get -a"|"get --account") echo "names accounts" ;;
        "get --group") echo "names groups" ;;
        "get -l"|"get --label") echo "none" ;;
        "get --field") echo "words service account group class label comment kind generic env_name created modified expires expired notes otp" ;;
        "get --clip-timeout") echo "none" ;;
        "get --revision") echo "none" ;;
        "get --conflict") echo "none" ;;
        "otp -s"|"otp --service") echo "names services" ;;
        "otp -a"|"otp --account") echo "names accounts" ;;
        "otp --group") echo "names groups" ;;
        "otp --at") echo "none" ;;
        "otp --clip-timeout") echo "none" ;;
        "update -s"|"update --service") echo "names services" ;;
        "update -a"|"update --account") echo "names accounts" ;;
        "update --group") echo "names groups" ;;
        "update -l"|"update --label") echo "none" ;;
        "update -j"|"update --comment") echo "none" ;;
        "update -D"|"update --kind") echo "none" ;;
        "update -G"|"update --generic") echo "none" ;;
        "update --env-name") echo "none" ;;
        "update --expires") echo "none" ;;
        "update --class") echo "words when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only" ;;
        "update --secret-file") echo "file" ;;
        "update --length") echo "none" ;;
        "update --charset") echo "none" ;;
        "update --require") echo "none" ;;
        "update --words") echo "none" ;;
        "update --separator") echo "none" ;;
        "update -w"|"update --password") echo "none" ;;
        "update --keep") echo "none" ;;
        "update --notes-file") echo "file" ;;
        "update --otp-file") echo "file" ;;
        "edit -s"|"edit --service") echo "names services" ;;
        "edit -a"|"edit --account") echo "names accounts" ;;
        "edit --group") echo "names groups" ;;
        "rename -s"|"rename --service") echo "names services" ;;
        "rename -a"|"rename --account") echo "names accounts" ;;
        "rename --group") echo "names groups" ;;
        "rename --to-service") echo "names services" ;;
        "rename --to-account") echo "names accounts" ;;
        "rename --to-group") echo "names groups" ;;
        "delete -s"|"delete --service") echo "names services" ;;
        "delete -a"|"delete --account") echo "names accounts" ;;
        "delete --group") echo "names groups" ;;
        "delete -l"|"delete --label") echo "none" ;;
        "trash -s"|"trash --service") echo "names services" ;;
        "trash -a"|"trash --account") echo "names accounts" ;;
        "trash --group") echo "names groups" ;;
        "undelete -s"|"undelete --service") echo "names services" ;;
        "undelete -a"|"undelete --account") echo "names accounts" ;;
        "undelete --group") echo "names groups" ;;
        "list -s"|"list --service") echo "names services" ;;
        "list -a"|"list --account") echo "names accounts" ;;
        "list --group") echo "names groups" ;;
        "list --class") echo "words when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only" ;;
        "list --search") echo "none" ;;
        "list --service-glob") echo "none" ;;
        "list --account-glob") echo "none" ;;
        "history -s"|"history --service") echo "names services" ;;
        "history -a"|"history --account") echo "names accounts" ;;
        "history --group") echo "names groups" ;;
        "grant --group") echo "names groups" ;;
        "grant --expires") echo "none" ;;
        "grant -o"|"grant --out") echo "file" ;;
        "identity -o"|"identity --out") echo "file" ;;
        "member --group") echo "names groups" ;;
        "member --kdf-cost") echo "words interactive testing" ;;
        "trust --pin") echo "none" ;;
        "revoke --group") echo "names groups" ;;
        "unlock --timeout") echo "none" ;;
        "passwd --new-passphrase-file") echo "file" ;;
        "passwd --add-key-file") echo "file" ;;
        "passwd --remove-key-file") echo "file" ;;
        "passwd --kdf-cost") echo "words interactive testing" ;;
        "rekey --kdf-cost") echo "words interactive testing" ;;
        "sync --remote") echo "none" ;;
        "sync --branch") echo "none" ;;
        "sync --kdf-cost") echo "words interactive testing" ;;
        "check-history --file") echo "file" ;;
        "exposure --member") echo "none" ;;
        "exposure --group") echo "names groups" ;;
        "exposure --grant") echo "none" ;;
        "exposure --reason") echo "none" ;;
        "conflicts --group") echo "names groups" ;;
        "resolve -s"|"resolve --service") echo "names services" ;;
        "resolve -a"|"resolve --account") echo "names accounts" ;;
        "resolve --group") echo "names groups" ;;
        "run --env") echo "none" ;;
        "run --env-file") echo "file" ;;
        "run --group") echo "names groups" ;;
        "run --env-group") echo "names groups" ;;
        "run --only") echo "none" ;;
        "run --prefix") echo "none" ;;
        "run --allow-env-name") echo "none" ;;
        "run --mount") echo "file" ;;
        "run --mount-format") echo "words dotenv json" ;;
        "run --mount-max-reads") echo "none" ;;
        "env --group") echo "names groups" ;;
        "env --only") echo "none" ;;
        "env --prefix") echo "none" ;;
        "env --allow-env-name") echo "none" ;;
        "env --format") echo "words dotenv shell json github" ;;
        "inject -i"|"inject --in") echo "file" ;;
        "inject -o"|"inject --out") echo "file" ;;
        "inject --group") echo "names groups" ;;
        "scan --group") echo "names groups" ;;
        "scan --ref") echo "none" ;;
        "scan --baseline") echo "file" ;;
        "scan --exit-code") echo "none" ;;
        "redact --group") echo "names groups" ;;
        "redact --ref") echo "none" ;;
        "wipe --group") echo "names groups" ;;
        "wipe -s"|"wipe --service") echo "names services" ;;
        "wipe -a"|"wipe --account") echo "names accounts" ;;
        "wipe --service-glob") echo "none" ;;
        "wipe --account-glob") echo "none" ;;
        "wipe --older-than") echo "none" ;;
        "first-run --marker") echo "file" ;;
        "first-run --group") echo "names groups" ;;
        "export -o"|"export --out") echo "file" ;;
        "export --format") echo "words bundle csv json" ;;
        "export --group") echo "names groups" ;;
        "export -s"|"export --service") echo "names services" ;;
        "export -a"|"export --account") echo "names accounts" ;;
        "export --class") echo "words when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only" ;;
        "export --search") echo "none" ;;
        "export --service-glob") echo "none" ;;
        "export --account-glob") echo "none" ;;
        "export --bundle-passphrase-file") echo "file" ;;
        "export --bundle-key-file") echo "file" ;;
        "export --kdf-cost") echo "words interactive testing" ;;
        "import --from") echo "words vault-csv vault-json pass gopass keepassxc-csv kdbx bitwarden-json 1password-csv csv openbao" ;;
        "import --columns") echo "none" ;;
        "import --group") echo "names groups" ;;
        "import --max-entries") echo "none" ;;
        "import --kdbx-password-file") echo "file" ;;
        "import --kdbx-key-file") echo "file" ;;
        "import --bundle-passphrase-file") echo "file" ;;
        "import --bundle-key-file") echo "file" ;;
        "import --on-conflict") echo "words skip replace fail" ;;
        "copy --to") echo "file" ;;
        "copy --kdf-cost") echo "words interactive testing" ;;
        "git-credential --group") echo "names groups" ;;
        "git-credential --class") echo "words when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only" ;;
        "docker-credential --group") echo "names groups" ;;
        "docker-credential --class") echo "words when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only" ;;
        "kube-credential --group") echo "names groups" ;;
        "aws-credential --group") echo "names groups" ;;
        "cargo-credential --group") echo "names groups" ;;
        "cargo-credential --class") echo "words when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only" ;;
        "terraform-credential --group") echo "names groups" ;;
        "terraform-credential --class") echo "words when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only" ;;
        *) return 1 ;;
    esac
}

# How positional argument $2 (from 0) of command $1 completes.
_vault_positional_kind() {
    case "$1 $2" in
        "add "0) echo "names items" ;;
        "get "0) echo "names items" ;;
        "otp "0) echo "names items" ;;
        "update "0) echo "names items" ;;
        "edit "0) echo "names items" ;;
        "rename "0) echo "names items" ;;
        "delete "0) echo "names items" ;;
        "undelete "0) echo "names items" ;;
        "list "0) echo "names items" ;;
        "history "0) echo "names items" ;;
        "group "0) echo "words list create delete allow-env" ;;
        "group "1) echo "names groups" ;;
        "group "2) echo "none" ;;
        "identity "0) echo "words new show" ;;
        "identity "1) echo "file" ;;
        "member "0) echo "words add list remove" ;;
        "member "1) echo "none" ;;
        "member "2) echo "none" ;;
        "check-history "*) echo "none" ;;
        "exposure "0) echo "words check accept" ;;
        "exposure "1) echo "none" ;;
        "merge-driver "0) echo "file" ;;
        "merge-driver "1) echo "file" ;;
        "merge-driver "2) echo "file" ;;
        "merge-driver "3) echo "file" ;;
        "textconv "0) echo "file" ;;
        "resolve "0) echo "names items" ;;
        "scan "*) echo "file" ;;
        "import "0) echo "file" ;;
        "git-credential "0) echo "words get store erase" ;;
        "docker-credential "0) echo "words store get erase list version" ;;
        "aws-credential "0) echo "none" ;;
        "terraform-credential "0) echo "words get store forget" ;;
        "terraform-credential "1) echo "none" ;;
        "secret-service "0) echo "words serve enable disable status" ;;
        "help "0) echo "commands" ;;
        *) echo none ;;
    esac
}

# Sets _vault_word to the word $1 as typed less its quoting (what a name
# starts with), and _vault_quote to the quote left open at its end, if any.
_vault_dequote() {
    local word="$1" c i
    _vault_word="" _vault_quote=""
    for ((i = 0; i < ${#word}; i++)); do
        c="${word:i:1}"
        if [[ "$_vault_quote" == "'" ]]; then
            if [[ "$c" == "'" ]]; then _vault_quote=""; else _vault_word+="$c"; fi
        elif [[ "$c" == '\' ]]; then
            i=$((i + 1))
            c="${word:i:1}"
            # Inside double quotes a backslash quotes only $ ` " and \.
            [[ "$_vault_quote" == '"' && "$c" != ['$`"\'] ]] && _vault_word+='\'
            _vault_word+="$c"
        elif [[ -n "$_vault_quote" && "$c" == "$_vault_quote" ]]; then
            _vault_quote=""
        elif [[ -z "$_vault_quote" && ( "$c" == "'" || "$c" == '"' ) ]]; then
            _vault_quote="$c"
        else
            _vault_word+="$c"
        fi
    done
}

# The word $1 as typed, less its quoting.
_vault_unquoted() {
    local _vault_word _vault_quote
    _vault_dequote "$1"
    printf '%s\n' "$_vault_word"
}

# Sets _vault_words and _vault_cword to COMP_WORDS and COMP_CWORD with the
# words bash split at ':' (COMP_WORDBREAKS) joined again as typed, so that
# git:https://github.com is one name; _vault_index[i] is the COMP_WORDS index
# where _vault_words[i] starts.
_vault_join_words() {
    local line="${COMP_LINE:0:COMP_POINT}" rest trimmed word i offset=0
    _vault_words=() _vault_index=() _vault_cword=0
    for ((i = 0; i <= COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]-}"
        rest="${line:offset}"
        trimmed="${rest#"${rest%%[![:space:]]*}"}"
        offset=$((offset + ${#rest} - ${#trimmed} + ${#word}))
        if ((i > 0 && ${#rest} == ${#trimmed})) && [[ "$word" == :* || "${_vault_words[-1]}" == *: ]]; then
            _vault_words[-1]+="$word"
        else
            _vault_words+=("$word")
            _vault_index+=("$i")
        fi
    done
    _vault_cword=$((${#_vault_words[@]} - 1))
}

# $1 quoted for the shell as the word being completed has it: inside the
# quote it opened (bash closes it), else with backslashes.
_vault_quoted() {
    local name="" c i
    case "$_vault_quote" in
        "'")
            local quote="'\''"
            printf '%s\n' "${1//\'/$quote}" ;;
        '"')
            for ((i = 0; i < ${#1}; i++)); do
                c="${1:i:1}"
                [[ "$c" == ['$`"\'] ]] && name+='\'
                name+="$c"
            done
            printf '%s\n' "$name" ;;
        *) printf '%q\n' "$1" ;;
    esac
}

# Sets COMPREPLY to the names of kind $1 that start with $2, each
# quoted for the shell; accounts only of the service on the line.
# vault reads nothing from the terminal here, so TAB never waits.
_vault_complete_names() {
    local name _vault_word _vault_quote
    _vault_dequote "$2"
    local -a arguments=("${_vault_globals[@]}" __complete "$1")
    [[ "$1" == accounts && -n "$_vault_service" ]] && arguments+=(--service "$_vault_service")
    [[ "$1" != groups && -n "$_vault_group" ]] && arguments+=(--group "$_vault_group")
    COMPREPLY=()
    while IFS= read -r name; do
        [[ "$name" == "$_vault_word"* ]] && COMPREPLY+=("$(_vault_quoted "$name")")
    done < <(vault "${arguments[@]}" 2>/dev/null </dev/null)
    # bash replaces only what follows the last ':' of an unquoted word.
    if [[ -z "$_vault_quote" && "$2" == *:* && "$COMP_WORDBREAKS" == *:* ]]; then
        local colon="${2%"${2##*:}"}"
        for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="${COMPREPLY[i]#"$colon"}"; done
    fi
}

# Sets COMPREPLY to the completions of $2 as kind $1; $3 prefixes each.
_vault_complete_kind() {
    local kind="${1%% *}" words="${1#* }" IFS=$'\n'
    case "$kind" in
        file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$2") ;;
        directory) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$2") ;;
        names) _vault_complete_names "$words" "$2" ;;
        commands) IFS=' '; mapfile -t COMPREPLY < <(compgen -W "$_vault_commands" -- "$2") ;;
        words) IFS=' '; mapfile -t COMPREPLY < <(compgen -W "$words" -- "$2") ;;
        *) COMPREPLY=() ;;
    esac
    COMPREPLY=("${COMPREPLY[@]/#/${3-}}")
}

# Completes the line from COMP_WORDS[$1] on as that command's own line:
# bash-completion's _command_offset when it is loaded, else the command's
# completion function (complete -F), else command names, then files.
_vault_complete_command() {
    if declare -F _command_offset >/dev/null; then
        _command_offset "$1"
        return
    fi
    local offset="$1" prefix="" i spec
    for ((i = 0; i < offset; i++)); do prefix+="${COMP_WORDS[i]} "; done
    COMP_WORDS=("${COMP_WORDS[@]:offset}")
    COMP_CWORD=$((COMP_CWORD - offset))
    COMP_LINE="${COMP_LINE#"$prefix"}"
    COMP_POINT=${#COMP_LINE}
    local cur="${COMP_WORDS[COMP_CWORD]}"
    if ((COMP_CWORD == 0)); then
        mapfile -t COMPREPLY < <(compgen -c -- "$cur")
    elif spec=$(complete -p -- "${COMP_WORDS[0]}" 2>/dev/null) && [[ "$spec" =~ \ -F\ ([^ ]+) ]]; then
        "${BASH_REMATCH[1]}" "${COMP_WORDS[0]}" "$cur" "${COMP_WORDS[COMP_CWORD-1]}"
    else
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}

_vault() {
    local _vault_words _vault_index _vault_cword
    _vault_join_words
    local cur="${_vault_words[_vault_cword]}" prev="${_vault_words[_vault_cword-1]-}"
    local command="" word kind i positionals=0 ended="" _vault_service="" _vault_group=""
    # Global options given so far, passed on to `vault __complete`.
    local -a _vault_globals=()
    # Find the command, skipping options and their values; bash splits
    # --class=a into "--class" "=" "a".
    for ((i = 1; i < _vault_cword; i++)); do
        word="${_vault_words[i]}"
        if [[ -n "$ended" || "$word" != -* || "$word" == - ]]; then
            if [[ -z "$command" ]]; then command="$(_vault_command_name "$word")"; else positionals=$((positionals + 1)); fi
        elif [[ "$word" == -- ]]; then
            ended=$i
        elif [[ "$word" == --*=* ]]; then
            _vault_value_kind "" "${word%%=*}" >/dev/null && _vault_globals+=("${word%%=*}=$(_vault_unquoted "${word#*=}")")
            [[ "$word" == --service=* ]] && _vault_service="$(_vault_unquoted "${word#*=}")"
            [[ "$word" == --group=* ]] && _vault_group="$(_vault_unquoted "${word#*=}")"
        elif _vault_value_kind "$command" "$word" >/dev/null; then
            [[ "${_vault_words[i+1]-}" == = ]] && i=$((i + 1))
            i=$((i + 1))
            _vault_value_kind "" "$word" >/dev/null && _vault_globals+=("$word" "$(_vault_unquoted "${_vault_words[i]-}")")
            [[ "$word" == -s || "$word" == --service ]] && _vault_service="$(_vault_unquoted "${_vault_words[i]-}")"
            [[ "$word" == --group ]] && _vault_group="$(_vault_unquoted "${_vault_words[i]-}")"
        fi
    done
    # After `vault run --`: the command to run, completed as that command.
    if [[ -n "$ended" && " $_vault_runners " == *" $command "* ]]; then
        _vault_complete_command $((_vault_index[ended] + 1))
        return
    fi
    if [[ -z "$ended" ]]; then
        if [[ "$cur" == = ]] && kind=$(_vault_value_kind "$command" "$prev"); then
            _vault_complete_kind "$kind" ""; return
        elif [[ "$prev" == = ]] && kind=$(_vault_value_kind "$command" "${_vault_words[_vault_cword-2]-}"); then
            _vault_complete_kind "$kind" "$cur"; return
        elif [[ "$cur" == --*=* ]] && kind=$(_vault_value_kind "$command" "${cur%%=*}"); then
            _vault_complete_kind "$kind" "${cur#*=}" "${cur%%=*}="; return
        elif [[ "$prev" == -* ]] && kind=$(_vault_value_kind "$command" "$prev"); then
            _vault_complete_kind "$kind" "$cur"; return
        elif [[ "$cur" == -* ]]; then
            _vault_complete_kind "words $(_vault_options "$command")" "$cur"; return
        fi
    fi
    if [[ -z "$command" ]]; then
        _vault_complete_kind commands "$cur"
    else
        _vault_complete_kind "$(_vault_positional_kind "$command" "$positionals")" "$cur"
    fi
}

complete -F _vault vault
