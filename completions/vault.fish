# Generated from CommandTable.swift by `make generate`; do not edit

# The command on the line: the first word that is not an option or the
# value of a global option.
function __vault_command
    set -l words (commandline -opc)
    set -e words[1]
    while set -q words[1]
        if contains -- $words[1] --vault --passphrase-file --key-file --credential --identity --trust --backend --collection --accept-member --min-epoch
            set -e words[1]
        else if not string match -q -- '-*' $words[1]
            __vault_command_name $words[1]
            return 0
        end
        set -e words[1]
    end
    return 1
end

# The command that $argv[1] names: the command an alias stands for, or itself.
function __vault_command_name
    switch $argv[1]
        case show
            echo get
        case mv
            echo rename
        case rm
            echo delete
        case ls
            echo list
        case '*'
            echo $argv[1]
    end
end

function __vault_using
    set -l command (__vault_command)
    and test "$command" = $argv[1]
end

function __vault_no_command
    not __vault_command >/dev/null
end

# The value given on the line to option $argv[1] (or its short form $argv[2]), if any.
function __vault_option_value
    set -l words (commandline -opc)
    for i in (seq (count $words))
        if contains -- $words[$i] $argv
            set -l next (math $i + 1)
            if set -q words[$next]
                echo $words[$next]
                return 0
            end
        else if string match -q -- "$argv[1]=*" $words[$i]
            string replace -- "$argv[1]=" '' $words[$i]
            return 0
        end
    end
    return 1
end

# Names read from the vault, for --group, --service and --account;
# accounts only of the service on the line, names only of the group on
# it. vault reads nothing from the terminal here, so TAB never waits.
function __vault_names
    set -l request __complete $argv[1]
    if test "$argv[1]" = accounts; and set -l service (__vault_option_value --service -s)
        set request $request --service $service
    end
    if test "$argv[1]" != groups; and set -l group (__vault_option_value --group)
        set request $request --group $group
    end
    vault $request 2>/dev/null </dev/null
end

# Whether the line has `--`: what follows is a command to run.
function __vault_after_dashdash
    contains -- -- (commandline -opc)
end

# The completions of the command line after `--`, as fish completes any command.
function __vault_command_after_dashdash
    set -l words (commandline -opc)
    set -l at (contains -i -- -- $words)
    set -l rest $words[(math $at + 1)..-1]
    complete -C (string join ' ' -- (string escape -- $rest) (commandline -ct))
end

complete -c vault -f
complete -c vault -n __vault_no_command -a init -d 'create a new vault'
complete -c vault -n __vault_no_command -a add -d 'add a secret item'
complete -c vault -n __vault_no_command -a get -d 'print the secret of one item'
complete -c vault -n __vault_no_command -a otp -d 'print the current one-time code of an item'
complete -c vault -n __vault_no_command -a update -d 'change the secret or attributes of one item'
complete -c vault -n __vault_no_command -a edit -d 'change the secret of one item in an editor'
complete -c vault -n __vault_no_command -a rename -d 'give one item a new service, account or group'
complete -c vault -n __vault_no_command -a delete -d 'delete items'
complete -c vault -n __vault_no_command -a trash -d 'list deleted items that can still be brought back'
complete -c vault -n __vault_no_command -a undelete -d 'bring back a deleted item from the trash'
complete -c vault -n __vault_no_command -a list -d 'list items, never their secrets'
complete -c vault -n __vault_no_command -a history -d 'list the earlier secrets of one item, never the secrets'
complete -c vault -n __vault_no_command -a run -d 'run a command with secrets in its environment, masked in its output'
complete -c vault -n __vault_no_command -a env -d 'print items as environment variable assignments'
complete -c vault -n __vault_no_command -a inject -d 'fill a template\'s secret references'
complete -c vault -n __vault_no_command -a scan -d 'find leaked secrets in files or git history'
complete -c vault -n __vault_no_command -a redact -d 'copy stdin to stdout with every secret concealed'
complete -c vault -n __vault_no_command -a group -d 'list, create or delete access groups, or set the variable names their items may set'
complete -c vault -n __vault_no_command -a grant -d 'write a scoped credential that opens some groups only'
complete -c vault -n __vault_no_command -a revoke -d 'end every credential granted for a group'
complete -c vault -n __vault_no_command -a identity -d 'make an age identity, or print the recipient of one'
complete -c vault -n __vault_no_command -a member -d 'add, list or remove members: age recipients the vault is sealed to'
complete -c vault -n __vault_no_command -a trust -d 'print the vault\'s trust fingerprint, for members and CI jobs to pin'
complete -c vault -n __vault_no_command -a sync -d 'share the vault through git: commit, fetch, merge record by record, push'
complete -c vault -n __vault_no_command -a check-history -d 'refuse commits whose vault file drops team log entries (for hooks and CI)'
complete -c vault -n __vault_no_command -a exposure -d 'list every value a member, a credential or a group\'s keys could open, through the file\'s git history'
complete -c vault -n __vault_no_command -a conflicts -d 'list the items a merge left in conflict'
complete -c vault -n __vault_no_command -a resolve -d 'settle an item\'s conflict with one side\'s version'
complete -c vault -n __vault_no_command -a export -d 'write items to an encrypted bundle, or in the clear to take them elsewhere'
complete -c vault -n __vault_no_command -a import -d 'add the items of an export bundle, a plaintext export, or another password manager\'s export'
complete -c vault -n __vault_no_command -a unlock -d 'start an unlock session for this login, or print its token'
complete -c vault -n __vault_no_command -a lock -d 'end unlock sessions'
complete -c vault -n __vault_no_command -a status -d 'show whether the vault is locked, and what it holds'
complete -c vault -n __vault_no_command -a passwd -d 'change how the vault is unlocked'
complete -c vault -n __vault_no_command -a rekey -d 'replace every key of the vault'
complete -c vault -n __vault_no_command -a device-key -d 'seal this machine\'s device key by its TPM, or show how it is kept'
complete -c vault -n __vault_no_command -a verify -d 'check the vault\'s files, format and records'
complete -c vault -n __vault_no_command -a upgrade -d 'convert a vault file to the current format (v3)'
complete -c vault -n __vault_no_command -a copy -d 'make an independent copy of the vault to experiment on'
complete -c vault -n __vault_no_command -a wipe -d 'remove the items that match filters'
complete -c vault -n __vault_no_command -a first-run -d 'wipe what an earlier install or owner left, once'
complete -c vault -n __vault_no_command -a reset -d 'remove the vault and everything kept for it'
complete -c vault -n __vault_no_command -a secret-service -d 'serve the desktop\'s Secret Service (org.freedesktop.secrets) from a vault group'
complete -c vault -n __vault_no_command -a help -d 'show help for vault or for a command'

complete -c vault -l vault -r -F -d 'vault file to use'
complete -c vault -l passphrase-file -r -F -d 'read the passphrase from FILE, less one trailing newline, instead of prompting'
complete -c vault -l key-file -r -F -d 'unlock with the key file FILE instead of a passphrase'
complete -c vault -l credential -r -F -d 'use the scoped credential in FILE, made by \'vault grant\' (the environment variable may hold a path, the credential itself or its base64)'
complete -c vault -l identity -r -F -d 'unlock as a member with the age identity in FILE (its text only in the environment variable); identity show prints its recipient'
complete -c vault -l trust -x -d 'with --identity, read the vault only if its header is signed by the key with this trust fingerprint, printed by \'vault trust\' (needed there; other unlocks ignore it)'
complete -c vault -l backend -x -a 'file secret-service' -d 'where items live: file, the vault file, or secret-service, the desktop keyring through libsecret'
complete -c vault -l collection -x -d 'keyring collection of the secret-service backend: default, session (in memory until logout) or a collection\'s name'
complete -c vault -l accept-rollback -d 'open a vault file older than this machine has seen (a restore from a backup, say), and remember it as seen'
complete -c vault -l accept-log -d 'as the owner, sign unasked the team log entries a write did not make here: the other branch when a merge joins two, the members of a file converted to the team log (those not as this machine last wrote them only when named with --accept-member)'
complete -c vault -l accept-member -x -d 'with --accept-log, sign also this member of a file converted to the team log, which differs from the roster this machine last wrote (repeat it, or NAME,NAME)'
complete -c vault -l min-epoch -x -d 'refuse a vault file whose key epoch is below N: a rollback guard for machines that remember nothing, such as fresh CI runners'
complete -c vault -l no-interaction -d 'never prompt; fail with exit 36 when the vault is locked'
complete -c vault -l no-keyring -d 'keep unlock sessions out of the login\'s kernel keyring: unlock and init keep none there, and no command looks there (as under CI)'
complete -c vault -s q -l quiet -d 'leave out messages that say what was done; warnings and errors still show'
complete -c vault -s h -l help -d 'show help for vault or for a command'
complete -c vault -l version -d 'print the version of vault'

complete -c vault -n '__vault_using init' -l kdf-cost -x -a 'interactive testing' -d 'scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost'

complete -c vault -n '__vault_using add' -s s -l service -x -a '(__vault_names services)' -d 'service the item belongs to'
complete -c vault -n '__vault_using add' -s a -l account -x -a '(__vault_names accounts)' -d 'account the item belongs to'
complete -c vault -n '__vault_using add' -s l -l label -x -d 'label shown by list'
complete -c vault -n '__vault_using add' -s j -l comment -x -d 'free-form comment'
complete -c vault -n '__vault_using add' -s D -l kind -x -d 'kind of secret, e.g. "api token"'
complete -c vault -n '__vault_using add' -s G -l generic -x -d 'application data stored beside the secret'
complete -c vault -n '__vault_using add' -l env-name -x -d 'variable name for vault env; default: SERVICE_ACCOUNT upper-cased'
complete -c vault -n '__vault_using add' -l expires -x -d 'the item expires after a duration (90m, 30d) or at a date (2027-01-31, 2027-01-31T12:00Z)'
complete -c vault -n '__vault_using add' -l class -x -a 'when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only' -d 'when the item can be read; Apple\'s kSecAttrAccessible names work too'
complete -c vault -n '__vault_using add' -l group -x -a '(__vault_names groups)' -d 'access group of the item, created when new'
complete -c vault -n '__vault_using add' -l create-group -d 'create the group even when its name is one letter away from an existing group\'s'
complete -c vault -n '__vault_using add' -s U -l update -d 'replace an existing item with the same group, service and account'
complete -c vault -n '__vault_using add' -l json -d 'print what was done as one JSON object on stdout instead of a message'
complete -c vault -n '__vault_using add' -l otp -d 'the secret is a one-time code secret (an otpauth:// URI or a Base32 seed), for \'vault otp\'; it is checked before it is stored'
complete -c vault -n '__vault_using add' -l notes-file -r -F -d 'keep the text of FILE as the item\'s notes, beside the secret (get --field notes)'
complete -c vault -n '__vault_using add' -l otp-file -r -F -d 'keep the one-time code secret in FILE (an otpauth:// URI or a Base32 seed) beside the secret, for \'vault otp\'; it is checked first'
complete -c vault -n '__vault_using add' -l secret-file -r -F -d 'read the secret from FILE'
complete -c vault -n '__vault_using add' -l generate -d 'generate a random secret: 32 letters and digits unless the options below say otherwise'
complete -c vault -n '__vault_using add' -l length -x -d 'length of a generated secret'
complete -c vault -n '__vault_using add' -l charset -x -d 'characters of a generated secret: classes (alnum, alpha, digit, hex, lower, printable, symbol, upper) and literal characters in brackets, separated by commas, e.g. \'alnum,[-_.]\''
complete -c vault -n '__vault_using add' -l require -x -d 'a generated secret holds at least one character of each class named (upper, lower, digit, symbol), which is drawn from too, whatever --charset says'
complete -c vault -n '__vault_using add' -l no-ambiguous -d 'leave out the characters 0 O 1 l I | from a generated secret'
complete -c vault -n '__vault_using add' -l words -x -d 'generate a passphrase of N words from the EFF large word list (7 776 words) instead'
complete -c vault -n '__vault_using add' -l separator -x -d 'what goes between the words of a passphrase'
complete -c vault -n '__vault_using add' -l print -d 'show a generated secret once, on a terminal only'
complete -c vault -n '__vault_using add' -s w -l password -x -d 'the secret itself; visible to other users in ps, prefer stdin'
complete -c vault -n '__vault_using add' -l trim-newline -d 'drop one trailing newline from the secret, as echo adds'
complete -c vault -n '__vault_using add' -l allow-empty -d 'store an empty secret instead of refusing it'
complete -c vault -n '__vault_using add' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using get' -s s -l service -x -a '(__vault_names services)' -d 'service of the item'
complete -c vault -n '__vault_using get' -s a -l account -x -a '(__vault_names accounts)' -d 'account of the item'
complete -c vault -n '__vault_using get' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using get' -s l -l label -x -d 'label of the item'
complete -c vault -n '__vault_using get' -l json -d 'print JSON instead of text'
complete -c vault -n '__vault_using get' -l show-secret -d 'include the secret in --json output'
complete -c vault -n '__vault_using get' -l field -x -a 'service account group class label comment kind generic env_name created modified expires expired notes otp' -d 'print one attribute (any key --json shows) and a newline instead of the secret; an attribute the item lacks prints an empty line; notes or otp print that sealed field exactly, as the secret is printed'
complete -c vault -n '__vault_using get' -l clip -d 'copy the secret to the clipboard (wl-copy, xclip, xsel or the terminal\'s OSC 52) instead of printing it, and clear it later'
complete -c vault -n '__vault_using get' -l clip-timeout -x -d 'clear the clipboard after this long, e.g. 45s, 2m'
complete -c vault -n '__vault_using get' -l revision -x -d 'print the secret the item held before its last N changes of secret (1 is the one before the current)'
complete -c vault -n '__vault_using get' -l theirs -d 'print the other side\'s secret of an item a merge left in conflict (see vault conflicts)'
complete -c vault -n '__vault_using get' -l conflict -x -d 'print the other version the item\'s N-th conflict keeps (1 is the newest; vault conflicts counts them)'
complete -c vault -n '__vault_using get' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using otp' -s s -l service -x -a '(__vault_names services)' -d 'service of the item'
complete -c vault -n '__vault_using otp' -s a -l account -x -a '(__vault_names accounts)' -d 'account of the item'
complete -c vault -n '__vault_using otp' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using otp' -l at -x -d 'the TOTP code at this time, in seconds since 1970, instead of now'
complete -c vault -n '__vault_using otp' -l remaining -d 'print the seconds the TOTP code of now (or --at) stays valid instead of the code; gives no code, so an HOTP counter never moves'
complete -c vault -n '__vault_using otp' -l json -d 'print the code, its kind, and a TOTP code\'s period and seconds left as one JSON object'
complete -c vault -n '__vault_using otp' -l clip -d 'copy the code to the clipboard instead of printing it, and clear it later, as get --clip does'
complete -c vault -n '__vault_using otp' -l clip-timeout -x -d 'clear the clipboard after this long, e.g. 45s, 2m'
complete -c vault -n '__vault_using otp' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using update' -s s -l service -x -a '(__vault_names services)' -d 'service of the item'
complete -c vault -n '__vault_using update' -s a -l account -x -a '(__vault_names accounts)' -d 'account of the item'
complete -c vault -n '__vault_using update' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using update' -s l -l label -x -d 'label shown by list'
complete -c vault -n '__vault_using update' -s j -l comment -x -d 'free-form comment'
complete -c vault -n '__vault_using update' -s D -l kind -x -d 'kind of secret, e.g. "api token"'
complete -c vault -n '__vault_using update' -s G -l generic -x -d 'application data stored beside the secret'
complete -c vault -n '__vault_using update' -l env-name -x -d 'variable name for vault env; default: SERVICE_ACCOUNT upper-cased'
complete -c vault -n '__vault_using update' -l expires -x -d 'the item expires after a duration (90m, 30d) or at a date (2027-01-31, 2027-01-31T12:00Z); never removes the expiry'
complete -c vault -n '__vault_using update' -l class -x -a 'when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only' -d 'new accessibility class of the item; Apple\'s kSecAttrAccessible names work too'
complete -c vault -n '__vault_using update' -l secret-file -r -F -d 'read the secret from FILE'
complete -c vault -n '__vault_using update' -l generate -d 'generate a random secret: 32 letters and digits unless the options below say otherwise'
complete -c vault -n '__vault_using update' -l length -x -d 'length of a generated secret'
complete -c vault -n '__vault_using update' -l charset -x -d 'characters of a generated secret: classes (alnum, alpha, digit, hex, lower, printable, symbol, upper) and literal characters in brackets, separated by commas, e.g. \'alnum,[-_.]\''
complete -c vault -n '__vault_using update' -l require -x -d 'a generated secret holds at least one character of each class named (upper, lower, digit, symbol), which is drawn from too, whatever --charset says'
complete -c vault -n '__vault_using update' -l no-ambiguous -d 'leave out the characters 0 O 1 l I | from a generated secret'
complete -c vault -n '__vault_using update' -l words -x -d 'generate a passphrase of N words from the EFF large word list (7 776 words) instead'
complete -c vault -n '__vault_using update' -l separator -x -d 'what goes between the words of a passphrase'
complete -c vault -n '__vault_using update' -l print -d 'show a generated secret once, on a terminal only'
complete -c vault -n '__vault_using update' -s w -l password -x -d 'the secret itself; visible to other users in ps, prefer stdin'
complete -c vault -n '__vault_using update' -l trim-newline -d 'drop one trailing newline from the secret, as echo adds'
complete -c vault -n '__vault_using update' -l allow-empty -d 'store an empty secret instead of refusing it'
complete -c vault -n '__vault_using update' -l keep-secret -d 'change attributes only; do not read a new secret'
complete -c vault -n '__vault_using update' -l keep -x -d 'keep this many of the item\'s earlier secrets, 0 for none (file backend)'
complete -c vault -n '__vault_using update' -l undo -d 'make the secret the item held before the current one its secret again (file backend)'
complete -c vault -n '__vault_using update' -l json -d 'print what was done as one JSON object on stdout instead of a message'
complete -c vault -n '__vault_using update' -l otp -d 'the secret is a one-time code secret (an otpauth:// URI or a Base32 seed), for \'vault otp\'; it is checked before it is stored'
complete -c vault -n '__vault_using update' -l notes-file -r -F -d 'keep the text of FILE as the item\'s notes, beside the secret (get --field notes)'
complete -c vault -n '__vault_using update' -l otp-file -r -F -d 'keep the one-time code secret in FILE (an otpauth:// URI or a Base32 seed) beside the secret, for \'vault otp\'; it is checked first'
complete -c vault -n '__vault_using update' -l clear-notes -d 'remove the item\'s notes'
complete -c vault -n '__vault_using update' -l clear-otp -d 'remove the one-time code secret kept beside the secret'
complete -c vault -n '__vault_using update' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using edit' -s s -l service -x -a '(__vault_names services)' -d 'service of the item'
complete -c vault -n '__vault_using edit' -s a -l account -x -a '(__vault_names accounts)' -d 'account of the item'
complete -c vault -n '__vault_using edit' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using edit' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using rename' -s s -l service -x -a '(__vault_names services)' -d 'service of the item'
complete -c vault -n '__vault_using rename' -s a -l account -x -a '(__vault_names accounts)' -d 'account of the item'
complete -c vault -n '__vault_using rename' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using rename' -l to-service -x -a '(__vault_names services)' -d 'the new service'
complete -c vault -n '__vault_using rename' -l to-account -x -a '(__vault_names accounts)' -d 'the new account'
complete -c vault -n '__vault_using rename' -l to-group -x -a '(__vault_names groups)' -d 'the group to move the item to'
complete -c vault -n '__vault_using rename' -l create-group -d 'create the new group even when its name is one letter away from an existing group\'s'
complete -c vault -n '__vault_using rename' -l keep-history -d 'carry the item\'s earlier secrets into the new group too'
complete -c vault -n '__vault_using rename' -l json -d 'print what was done as one JSON object on stdout instead of a message'
complete -c vault -n '__vault_using rename' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using delete' -s s -l service -x -a '(__vault_names services)' -d 'service of the item'
complete -c vault -n '__vault_using delete' -s a -l account -x -a '(__vault_names accounts)' -d 'account of the item'
complete -c vault -n '__vault_using delete' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using delete' -s l -l label -x -d 'label of the item'
complete -c vault -n '__vault_using delete' -l all-matching -d 'delete every item that matches instead of exactly one'
complete -c vault -n '__vault_using delete' -s y -l yes -d 'delete without asking on a terminal'
complete -c vault -n '__vault_using delete' -l json -d 'print what was done as one JSON object on stdout instead of a message'
complete -c vault -n '__vault_using delete' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using trash' -s s -l service -x -a '(__vault_names services)' -d 'only items of this service'
complete -c vault -n '__vault_using trash' -s a -l account -x -a '(__vault_names accounts)' -d 'only items of this account'
complete -c vault -n '__vault_using trash' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using trash' -l json -d 'print JSON instead of text'

complete -c vault -n '__vault_using undelete' -s s -l service -x -a '(__vault_names services)' -d 'service of the item'
complete -c vault -n '__vault_using undelete' -s a -l account -x -a '(__vault_names accounts)' -d 'account of the item'
complete -c vault -n '__vault_using undelete' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using undelete' -l json -d 'print what was done as one JSON object on stdout instead of a message'
complete -c vault -n '__vault_using undelete' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using list' -s s -l service -x -a '(__vault_names services)' -d 'only items of this service'
complete -c vault -n '__vault_using list' -s a -l account -x -a '(__vault_names accounts)' -d 'only items of this account'
complete -c vault -n '__vault_using list' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using list' -l class -x -a 'when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only' -d 'only items of this accessibility class; Apple\'s kSecAttrAccessible names work too'
complete -c vault -n '__vault_using list' -l search -x -d 'only items whose service, account or label contains TEXT, in any case'
complete -c vault -n '__vault_using list' -l service-glob -x -d 'only items whose service matches a shell glob, e.g. \'git:*\''
complete -c vault -n '__vault_using list' -l account-glob -x -d 'only items whose account matches a shell glob, e.g. \'ci-*\''
complete -c vault -n '__vault_using list' -l json -d 'print JSON instead of text'
complete -c vault -n '__vault_using list' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using history' -s s -l service -x -a '(__vault_names services)' -d 'service of the item'
complete -c vault -n '__vault_using history' -s a -l account -x -a '(__vault_names accounts)' -d 'account of the item'
complete -c vault -n '__vault_using history' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using history' -l json -d 'print JSON instead of text'
complete -c vault -n '__vault_using history' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using group' -l json -d 'print JSON instead of text'
complete -c vault -n '__vault_using group' -s y -l yes -d 'delete a group that holds items without asking (needed without a terminal)'
complete -c vault -n '__vault_using group' -a 'list create delete allow-env' -d 'list, create, delete or allow-env'
complete -c vault -n '__vault_using group' -a '(__vault_names groups)' -d 'the group to create, delete or set allowed names of'
complete -c vault -n '__vault_using group' -d 'allow-env: the names its items may set, NAME,PREFIX*,… (\'\' for none)'

complete -c vault -n '__vault_using grant' -l list -d 'list every credential granted, with its id and state (live, revoked, expired)'
complete -c vault -n '__vault_using grant' -l group -x -a '(__vault_names groups)' -d 'a group the credential opens; repeat it for several'
complete -c vault -n '__vault_using grant' -l read-only -d 'the credential can read items but not change them'
complete -c vault -n '__vault_using grant' -l fresh-history -d 're-key the groups and drop their revisions and trash first, so the credential opens nothing written before; ends their other credentials'
complete -c vault -n '__vault_using grant' -l expires -x -d 'stop working after a duration (90m, 30d) or at a date (2027-01-31, 2027-01-31T12:00Z)'
complete -c vault -n '__vault_using grant' -s o -l out -r -F -d 'the new file to write the credential to; - writes it to stdout'
complete -c vault -n '__vault_using grant' -l json -d 'print what was done as one JSON object on stdout instead of a message'

complete -c vault -n '__vault_using identity' -s o -l out -r -F -d 'new: the new file to write the identity to; - writes it to stdout'
complete -c vault -n '__vault_using identity' -l json -d 'print JSON instead of text'
complete -c vault -n '__vault_using identity' -a 'new show' -d 'new or show'
complete -c vault -n '__vault_using identity' -F -d 'show: the identity file (instead of --identity)'

complete -c vault -n '__vault_using member' -l group -x -a '(__vault_names groups)' -d 'add: a group the member opens; repeat it for several; none makes a full member'
complete -c vault -n '__vault_using member' -l read-only -d 'add: the member reads its groups but cannot change them (needs --group)'
complete -c vault -n '__vault_using member' -l fresh-history -d 'add: re-key what the member opens and drop its revisions and trash first, so it reads nothing written before; ends those keys\' credentials'
complete -c vault -n '__vault_using member' -l kdf-cost -x -a 'interactive testing' -d 'scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost'
complete -c vault -n '__vault_using member' -s y -l yes -d 'add (re-keying) and remove: confirm dropping what the re-key cannot carry over without asking'
complete -c vault -n '__vault_using member' -l json -d 'print JSON instead of text'
complete -c vault -n '__vault_using member' -a 'add list remove' -d 'add, list or remove'
complete -c vault -n '__vault_using member' -d 'the member to add or remove'
complete -c vault -n '__vault_using member' -d 'add: the member\'s age recipient, age1'

complete -c vault -n '__vault_using trust' -l pin -x -d 'write FINGERPRINT to the config file as the trust to pin, instead of printing the vault\'s'
complete -c vault -n '__vault_using trust' -l json -d 'print JSON instead of text'

complete -c vault -n '__vault_using revoke' -l group -x -a '(__vault_names groups)' -d 'a group whose credentials end; repeat it for several'
complete -c vault -n '__vault_using revoke' -l json -d 'print what was done as one JSON object on stdout instead of a message'

complete -c vault -n '__vault_using unlock' -l timeout -x -d 'end the session after this long without use, e.g. 90s, 15m, 2h'
complete -c vault -n '__vault_using unlock' -l raw -d 'print only the token'
complete -c vault -n '__vault_using unlock' -l export -d 'print \'export VAULT_SESSION=…\' for eval'
complete -c vault -n '__vault_using unlock' -l json -d 'print the token, whether an existing session was extended, the timeout, and whether the kernel keyring keeps it, as JSON'

complete -c vault -n '__vault_using lock' -l all -d 'end every session and the after-first-unlock cache too'

complete -c vault -n '__vault_using status' -l json -d 'print JSON instead of text'

complete -c vault -n '__vault_using passwd' -l new-passphrase-file -r -F -d 'read the new passphrase from FILE instead of prompting'
complete -c vault -n '__vault_using passwd' -l add-key-file -r -F -d 'also unlock with the key in FILE, created if missing'
complete -c vault -n '__vault_using passwd' -l remove-key-file -r -F -d 'no longer unlock with the key in FILE'
complete -c vault -n '__vault_using passwd' -l remove-passphrase -d 'no longer unlock with a passphrase'
complete -c vault -n '__vault_using passwd' -l add-keyring-slot -d 'also unlock with a random key kept in the desktop keyring, so a logged-in desktop needs no passphrase'
complete -c vault -n '__vault_using passwd' -l remove-keyring-slot -d 'no longer unlock with the desktop keyring, and delete its key there'
complete -c vault -n '__vault_using passwd' -l kdf-cost -x -a 'interactive testing' -d 'scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost'
complete -c vault -n '__vault_using passwd' -s y -l yes -d 'confirm destroying items without asking (needed without a terminal)'

complete -c vault -n '__vault_using rekey' -l kdf-cost -x -a 'interactive testing' -d 'scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost'
complete -c vault -n '__vault_using rekey' -s y -l yes -d 'confirm dropping keyslots or other machines\' items without asking'
complete -c vault -n '__vault_using rekey' -l json -d 'print what was done as one JSON object on stdout instead of a message'

complete -c vault -n '__vault_using device-key' -l tpm -d 'seal the device key by the TPM, and wipe its file (needs an unlock)'
complete -c vault -n '__vault_using device-key' -l reseal -d 'with --tpm, seal a sealed key again, under the PCRs\' values now (needs an unlock; recovers from a PCR change)'
complete -c vault -n '__vault_using device-key' -l pin -d 'with --tpm, also guard the seal with a PIN: from VAULT_TPM_PIN_FILE, or asked twice'
complete -c vault -n '__vault_using device-key' -l no-tpm -d 'keep the device key in a 0600 file again, not sealed (needs an unlock)'

complete -c vault -n '__vault_using sync' -l setup -d 'commit \'*.vault merge=vault diff=vault -text\' to .gitattributes and set the merge and diff drivers in this clone\'s git config, then stop'
complete -c vault -n '__vault_using sync' -l remote -x -d 'the remote to fetch from and push to'
complete -c vault -n '__vault_using sync' -l branch -x -d 'commit and push to the remote\'s branch NAME instead of merging, for an owner to merge (a scoped writer\'s way)'
complete -c vault -n '__vault_using sync' -l kdf-cost -x -a 'interactive testing' -d 'scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost'
complete -c vault -n '__vault_using sync' -s y -l yes -d 'confirm what a re-key made by the merge drops, without asking'
complete -c vault -n '__vault_using sync' -l json -d 'print what was done as one JSON object on stdout instead of a message'

complete -c vault -n '__vault_using check-history' -l file -r -F -d 'a vault file\'s path in the repository'
complete -c vault -n '__vault_using check-history' -d 'the commits to walk'

complete -c vault -n '__vault_using exposure' -l member -x -d 'the member whose exposure to list, present or removed'
complete -c vault -n '__vault_using exposure' -l group -x -a '(__vault_names groups)' -d 'the group whose keys\' exposure to list (what its credentials could open)'
complete -c vault -n '__vault_using exposure' -l grant -x -d 'the credential whose exposure to list, by its id in \'vault grant --list\' (or a prefix of it)'
complete -c vault -n '__vault_using exposure' -l reason -x -d 'accept: why the item\'s exposed values stay (kept in clear beside the vault)'
complete -c vault -n '__vault_using exposure' -l json -d 'print JSON instead of text'
complete -c vault -n '__vault_using exposure' -a 'check accept' -d 'check: exit 1 while a value of a removed member or an ended credential is live; accept: sign that an item\'s values stay'
complete -c vault -n '__vault_using exposure' -d 'accept: the item, as GROUP/SERVICE/ACCOUNT or SERVICE/ACCOUNT'

complete -c vault -n '__vault_using merge-driver' -F -d 'the merge base\'s version (git\'s %O)'
complete -c vault -n '__vault_using merge-driver' -F -d 'this side\'s version, where the result goes (%A)'
complete -c vault -n '__vault_using merge-driver' -F -d 'the other side\'s version (%B)'
complete -c vault -n '__vault_using merge-driver' -F -d 'the file\'s path in the repository (%P), for messages'

complete -c vault -n '__vault_using textconv' -F -d 'the version of the vault file git wrote to a temporary file'

complete -c vault -n '__vault_using conflicts' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using conflicts' -l json -d 'print JSON instead of text'

complete -c vault -n '__vault_using resolve' -s s -l service -x -a '(__vault_names services)' -d 'service of the item'
complete -c vault -n '__vault_using resolve' -s a -l account -x -a '(__vault_names accounts)' -d 'account of the item'
complete -c vault -n '__vault_using resolve' -l group -x -a '(__vault_names groups)' -d 'only items of this access group; every group when none is named'
complete -c vault -n '__vault_using resolve' -l ours -d 'keep the version of the side that merged'
complete -c vault -n '__vault_using resolve' -l theirs -d 'keep the other side\'s version'
complete -c vault -n '__vault_using resolve' -l json -d 'print what was done as one JSON object on stdout instead of a message'
complete -c vault -n '__vault_using resolve' -a '(__vault_names items)' -d 'the item, instead of -s and -a: SERVICE/ACCOUNT or GROUP/SERVICE/ACCOUNT, with or without vault:// (as vault run reads it); \'/\', \'%\', \'?\', \'#\' and spaces in a name are percent-encoded, e.g. %2F'

complete -c vault -n '__vault_using run' -l env -x -d 'set NAME for the command; VALUE may be a reference'
complete -c vault -n '__vault_using run' -l env-file -r -F -d 'read NAME=VALUE lines from FILE (dotenv syntax)'
complete -c vault -n '__vault_using run' -l group -x -a '(__vault_names groups)' -d 'group of references that name none, and of the items env prints; every group when none is named'
complete -c vault -n '__vault_using run' -l env-group -x -a '(__vault_names groups)' -d 'set every item of GROUP you can read as a variable named by its env name, masked like references (as envchain does)'
complete -c vault -n '__vault_using run' -l only -x -d 'take the items whose variable name is NAME; the job must name what it accepts with --only or --prefix, since an item\'s writer chooses its name'
complete -c vault -n '__vault_using run' -l prefix -x -d 'take the items whose variable name begins with PREFIX (e.g. APP_)'
complete -c vault -n '__vault_using run' -l allow-env-name -x -d 'let an item set NAME though it is protected (PATH, BASH_ENV, LD_*, GIT_*, GITHUB_ENV and the rest of docs/RUN.md); without it such an item is skipped and the command exits 1'
complete -c vault -n '__vault_using run' -l no-masking -d 'pass the command\'s output through unmasked'
complete -c vault -n '__vault_using run' -l keep-vault-env -d 'hand the command the variables that unlock vault (VAULT_SESSION, VAULT_CREDENTIAL, VAULT_KEY_FILE, VAULT_PASSPHRASE_FILE) and the login\'s kernel keyring, which run keeps from it by default; the command can then read every item you can'
complete -c vault -n '__vault_using run' -l allow-trace -d 'let the command trace other processes and gain privileges: without it, it runs with no-new-privs (sudo, ping and other setuid or file-capability programs do not gain theirs) and cannot ptrace, read the memory of or take descriptors from a process outside it (debuggers, strace, rr and LeakSanitizer fail); see docs/RUN.md'
complete -c vault -n '__vault_using run' -l mount -r -F -d 'serve the referenced variables (or TEMPLATE filled in) on a named pipe at PATH instead of the environment; a bare name goes in a private directory under $XDG_RUNTIME_DIR'
complete -c vault -n '__vault_using run' -l mount-format -x -a 'dotenv json' -d 'how the variables are written on the pipe without a template'
complete -c vault -n '__vault_using run' -l mount-max-reads -x -d 'remove the pipe after N readers; 0 serves until the command exits'
complete -c vault -n '__vault_using run; and __vault_after_dashdash' -a '(__vault_command_after_dashdash)'

complete -c vault -n '__vault_using env' -l group -x -a '(__vault_names groups)' -d 'group of references that name none, and of the items env prints; every group when none is named'
complete -c vault -n '__vault_using env' -l only -x -d 'take the items whose variable name is NAME; the job must name what it accepts with --only or --prefix, since an item\'s writer chooses its name'
complete -c vault -n '__vault_using env' -l prefix -x -d 'take the items whose variable name begins with PREFIX (e.g. APP_)'
complete -c vault -n '__vault_using env' -l allow-env-name -x -d 'let an item set NAME though it is protected (PATH, BASH_ENV, LD_*, GIT_*, GITHUB_ENV and the rest of docs/RUN.md); without it such an item is skipped and the command exits 1'
complete -c vault -n '__vault_using env' -l format -x -a 'dotenv shell json github' -d 'how to print the assignments'

complete -c vault -n '__vault_using inject' -s i -l in -r -F -d 'the template to fill; - or none: stdin'
complete -c vault -n '__vault_using inject' -s o -l out -r -F -d 'write to FILE (mode 0600) instead of stdout; - is stdout'
complete -c vault -n '__vault_using inject' -l group -x -a '(__vault_names groups)' -d 'group of references that name none, and of the items env prints; every group when none is named'

complete -c vault -n '__vault_using scan' -l git-history -d 'search every blob of the repository\'s history instead of the files'
complete -c vault -n '__vault_using scan' -l group -x -a '(__vault_names groups)' -d 'only the items of this access group (repeat for several); every group the caller can open when none is named'
complete -c vault -n '__vault_using scan' -l ref -x -d 'also the value of this reference (openbao://MOUNT/PATH#FIELD or vault://…), fetched once (repeat for several); with --ref and no --group, only the references\' values'
complete -c vault -n '__vault_using scan' -l skip-ignored -d 'search only files git would track, not those .gitignore ignores'
complete -c vault -n '__vault_using scan' -l baseline -r -F -d 'hits listed in FILE are accepted and do not fail the scan'
complete -c vault -n '__vault_using scan' -l update-baseline -d 'write every current hit to the --baseline FILE as accepted, and exit 0'
complete -c vault -n '__vault_using scan' -l exit-code -x -d 'exit status when a leak is found'
complete -c vault -n '__vault_using scan' -l json -d 'print JSON instead of text'
complete -c vault -n '__vault_using scan' -F -d 'files or directories to search, or the repository with --git-history (default .)'

complete -c vault -n '__vault_using redact' -l group -x -a '(__vault_names groups)' -d 'only the items of this access group (repeat for several); every group the caller can open when none is named'
complete -c vault -n '__vault_using redact' -l ref -x -d 'also the value of this reference (openbao://MOUNT/PATH#FIELD or vault://…), fetched once (repeat for several); with --ref and no --group, only the references\' values'

complete -c vault -n '__vault_using wipe' -l group -x -a '(__vault_names groups)' -d 'only items of this group'
complete -c vault -n '__vault_using wipe' -s s -l service -x -a '(__vault_names services)' -d 'only items of this service'
complete -c vault -n '__vault_using wipe' -s a -l account -x -a '(__vault_names accounts)' -d 'only items of this account'
complete -c vault -n '__vault_using wipe' -l service-glob -x -d 'only items whose service matches a shell glob, e.g. \'git:*\''
complete -c vault -n '__vault_using wipe' -l account-glob -x -d 'only items whose account matches a shell glob, e.g. \'ci-*\''
complete -c vault -n '__vault_using wipe' -l expired -d 'only items whose expiry date has come'
complete -c vault -n '__vault_using wipe' -l older-than -x -d 'only items last changed longer ago than a duration (90d, 12h) or before a date (2026-01-31)'
complete -c vault -n '__vault_using wipe' -l all -d 'every item of the vault'
complete -c vault -n '__vault_using wipe' -l trash -d 'empty the trash (what delete kept) instead; takes only --group'
complete -c vault -n '__vault_using wipe' -s n -l dry-run -d 'show what would be removed, and change nothing'
complete -c vault -n '__vault_using wipe' -s y -l yes -d 'confirm without asking (needed without a terminal)'
complete -c vault -n '__vault_using wipe' -l json -d 'print what was done as one JSON object on stdout instead of a message'

complete -c vault -n '__vault_using first-run' -l marker -r -F -d 'the marker file; created 0600 after the wipe'
complete -c vault -n '__vault_using first-run' -l group -x -a '(__vault_names groups)' -d 'a group to wipe; repeat it for several'
complete -c vault -n '__vault_using first-run' -s n -l dry-run -d 'show what would be removed, and change nothing'
complete -c vault -n '__vault_using first-run' -s y -l yes -d 'confirm without asking (needed without a terminal)'

complete -c vault -n '__vault_using export' -s o -l out -r -F -d 'the new file; - writes it to stdout (where a plaintext export goes without --out)'
complete -c vault -n '__vault_using export' -l format -x -a 'bundle csv json' -d 'bundle (encrypted), or csv or json (in the clear, with --plaintext)'
complete -c vault -n '__vault_using export' -l plaintext -d 'with --format csv or json: write the secrets in the clear, as asked'
complete -c vault -n '__vault_using export' -l group -x -a '(__vault_names groups)' -d 'only items of this group (from --group only, never VAULT_GROUP or the config: a backup takes every group)'
complete -c vault -n '__vault_using export' -s s -l service -x -a '(__vault_names services)' -d 'only items of this service'
complete -c vault -n '__vault_using export' -s a -l account -x -a '(__vault_names accounts)' -d 'only items of this account'
complete -c vault -n '__vault_using export' -l class -x -a 'when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only' -d 'only items of this accessibility class; Apple\'s kSecAttrAccessible names work too'
complete -c vault -n '__vault_using export' -l search -x -d 'only items whose service, account or label contains TEXT, in any case'
complete -c vault -n '__vault_using export' -l service-glob -x -d 'only items whose service matches a shell glob, e.g. \'git:*\''
complete -c vault -n '__vault_using export' -l account-glob -x -d 'only items whose account matches a shell glob, e.g. \'ci-*\''
complete -c vault -n '__vault_using export' -l bundle-passphrase-file -r -F -d 'read the bundle\'s passphrase from FILE'
complete -c vault -n '__vault_using export' -l bundle-key-file -r -F -d 'seal the bundle with the key file FILE, created if missing'
complete -c vault -n '__vault_using export' -l kdf-cost -x -a 'interactive testing' -d 'scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost'
complete -c vault -n '__vault_using export' -l json -d 'print what was done as one JSON object on stdout instead of a message'

complete -c vault -n '__vault_using import' -l from -x -a 'vault-csv vault-json pass gopass keepassxc-csv kdbx bitwarden-json 1password-csv csv openbao' -d 'what SOURCE is, when not a bundle: vault-csv or vault-json (a plaintext export), or another password manager\'s export'
complete -c vault -n '__vault_using import' -l columns -x -d 'for --from csv: which column gives what, as ROLE=COLUMN pairs joined by commas, e.g. service=Title,account=Username,secret=Password (roles: service, account, secret, notes, url, otp, folder, tags, archived)'
complete -c vault -n '__vault_using import' -l group -x -a '(__vault_names groups)' -d 'put every imported item in this group, created as add creates one'
complete -c vault -n '__vault_using import' -l folders-as-groups -d 'make each entry\'s folder its group (an entry without one goes to --group)'
complete -c vault -n '__vault_using import' -l create-group -d 'create the --group even when its name is one letter away from an existing group\'s'
complete -c vault -n '__vault_using import' -s n -l dry-run -d 'print the names of the items that would be imported, and change nothing'
complete -c vault -n '__vault_using import' -l partial -d 'import the entries that were read even when others are bad input or share a name'
complete -c vault -n '__vault_using import' -l max-entries -x -d 'take up to N entries (default 100000); a source with more imports nothing. An export over 256 MiB is never read (docs/IMPORT.md)'
complete -c vault -n '__vault_using import' -l kdbx-password-file -r -F -d 'for --from kdbx: read the database\'s password from FILE (else it is asked for)'
complete -c vault -n '__vault_using import' -l kdbx-key-file -r -F -d 'for --from kdbx: the database\'s key file'
complete -c vault -n '__vault_using import' -l bundle-passphrase-file -r -F -d 'read the bundle\'s passphrase from FILE'
complete -c vault -n '__vault_using import' -l bundle-key-file -r -F -d 'open the bundle with the key file FILE'
complete -c vault -n '__vault_using import' -l on-conflict -x -a 'skip replace fail' -d 'what to do with an item that exists'
complete -c vault -n '__vault_using import' -l json -d 'print what was done as one JSON object on stdout instead of a message'
complete -c vault -n '__vault_using import' -F -d 'the bundle, or the export (a file, - for stdin, a password store\'s directory, an OpenBao MOUNT/PREFIX)'

complete -c vault -n '__vault_using reset' -s y -l yes -d 'confirm without asking (needed without a terminal)'

complete -c vault -n '__vault_using verify' -l quarantine -d 'set aside the items of damaged groups, after a yes, keeping the file as it was in the state directory'
complete -c vault -n '__vault_using verify' -s y -l yes -d 'confirm without asking (needed without a terminal)'
complete -c vault -n '__vault_using verify' -l json -d 'print what was done as one JSON object on stdout instead of a message'

complete -c vault -n '__vault_using upgrade' -l json -d 'print what was done as one JSON object on stdout instead of a message'

complete -c vault -n '__vault_using copy' -l to -r -F -d 'where to write the copy (a file that does not exist)'
complete -c vault -n '__vault_using copy' -l kdf-cost -x -a 'interactive testing' -d 'scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost'
complete -c vault -n '__vault_using copy' -l json -d 'print what was done as one JSON object on stdout instead of a message'

complete -c vault -n '__vault_using git-credential' -l group -x -a '(__vault_names groups)' -d 'access group of the credentials'
complete -c vault -n '__vault_using git-credential' -l class -x -a 'when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only' -d 'class of credentials stored from now on; a replaced one keeps its class; Apple\'s kSecAttrAccessible names work too'
complete -c vault -n '__vault_using git-credential' -a 'get store erase' -d 'what git asks for'

complete -c vault -n '__vault_using docker-credential' -l group -x -a '(__vault_names groups)' -d 'access group of the credentials'
complete -c vault -n '__vault_using docker-credential' -l class -x -a 'when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only' -d 'class of credentials stored from now on; a replaced one keeps its class; Apple\'s kSecAttrAccessible names work too'
complete -c vault -n '__vault_using docker-credential' -a 'store get erase list version' -d 'what docker asks for'

complete -c vault -n '__vault_using kube-credential' -l group -x -a '(__vault_names groups)' -d 'access group of the credentials'

complete -c vault -n '__vault_using aws-credential' -l group -x -a '(__vault_names groups)' -d 'access group of the credentials'
complete -c vault -n '__vault_using aws-credential' -d 'the profile whose keys to print: the item aws:PROFILE'

complete -c vault -n '__vault_using cargo-credential' -l cargo-plugin -d 'speak cargo\'s protocol on stdin and stdout (cargo passes it)'
complete -c vault -n '__vault_using cargo-credential' -l group -x -a '(__vault_names groups)' -d 'access group of the credentials'
complete -c vault -n '__vault_using cargo-credential' -l class -x -a 'when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only' -d 'class of credentials stored from now on; a replaced one keeps its class; Apple\'s kSecAttrAccessible names work too'

complete -c vault -n '__vault_using terraform-credential' -l group -x -a '(__vault_names groups)' -d 'access group of the credentials'
complete -c vault -n '__vault_using terraform-credential' -l class -x -a 'when-unlocked after-first-unlock always when-unlocked-this-device-only after-first-unlock-this-device-only always-this-device-only when-passcode-set-this-device-only' -d 'class of credentials stored from now on; a replaced one keeps its class; Apple\'s kSecAttrAccessible names work too'
complete -c vault -n '__vault_using terraform-credential' -a 'get store forget' -d 'what Terraform asks for'
complete -c vault -n '__vault_using terraform-credential' -d 'the host of the Terraform service, e.g. app.terraform.io'

complete -c vault -n '__vault_using secret-service' -a 'serve enable disable status' -d 'serve, enable, disable or status'

complete -c vault -n '__vault_using help' -l all -d 'also list the plumbing commands other programs run'
complete -c vault -n '__vault_using help' -a 'init add get otp update edit rename delete trash undelete list history run env inject scan redact group grant revoke identity member trust sync check-history exposure conflicts resolve export import unlock lock status passwd rekey device-key verify upgrade copy wipe first-run reset secret-service help' -d 'command to describe'
