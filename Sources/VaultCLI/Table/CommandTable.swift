import VaultCore

/// Every command and option of `vault`, as data. The parser, `vault help`, the
/// man page and the shell completions are renderings of this table: adding an
/// option is one line here.
public enum CommandTable {
    /// The version printed by `vault --version`.
    public static let version = "0.1.0"

    /// What vault is, in the words of `vault help` and the man page's NAME.
    public static let summary = "keep secrets for shells, scripts and CI jobs in an encrypted file"

    /// Options accepted before or after any command name.
    public static let globalOptions: [OptionSpec] = [
        OptionSpec(.vault, value: "PATH",
                   help: "vault file to use",
                   default: "~/.local/share/vault/default.vault", completion: .file, environment: "VAULT_PATH"),
        OptionSpec(.passphraseFile, value: "FILE",
                   help: "read the passphrase from FILE, less one trailing newline, instead of prompting",
                   completion: .file, environment: "VAULT_PASSPHRASE_FILE"),
        OptionSpec(.keyFile, value: "FILE",
                   help: "unlock with the key file FILE instead of a passphrase",
                   completion: .file, environment: "VAULT_KEY_FILE"),
        OptionSpec(.credential, value: "FILE",
                   help: "use the scoped credential in FILE, made by 'vault grant' (the environment variable may hold a path, the credential itself or its base64)",
                   completion: .file, environment: "VAULT_CREDENTIAL"),
        OptionSpec(.identity, value: "FILE",
                   help: "unlock as a member with the age identity in FILE (its text only in the environment variable); identity show prints its recipient",
                   completion: .file, environment: "VAULT_IDENTITY", configKey: "identity"),
        OptionSpec(.trust, value: "FINGERPRINT",
                   help: "with --identity, read the vault only if its header is signed by the key with this trust fingerprint, printed by 'vault trust' (needed there; other unlocks ignore it)",
                   environment: "VAULT_TRUST", configKey: "trust"),
        OptionSpec(.backend, value: "BACKEND",
                   help: "where items live: file, the vault file, or secret-service, the desktop keyring through libsecret",
                   default: "file", completion: .values(["file", "secret-service"]), environment: "VAULT_BACKEND", configKey: "backend"),
        OptionSpec(.collection, value: "COLLECTION",
                   help: "keyring collection of the secret-service backend: default, session (in memory until logout) or a collection's name",
                   default: "default", environment: "VAULT_COLLECTION"),
        OptionSpec(.acceptRollback,
                   help: "open a vault file older than this machine has seen (a restore from a backup, say), and remember it as seen"),
        OptionSpec(.minEpoch, value: "N",
                   help: "refuse a vault file whose key epoch is below N: a rollback guard for machines that remember nothing, such as fresh CI runners",
                   environment: "VAULT_MIN_EPOCH", configKey: "min-epoch"),
        OptionSpec(.noInteraction,
                   help: "never prompt; fail with exit 36 when the vault is locked",
                   environment: "VAULT_NO_INTERACTION"),
        OptionSpec(.quiet, short: "q", help: "leave out messages that say what was done; warnings and errors still show"),
        OptionSpec(.help, short: "h", help: "show help for vault or for a command"),
        OptionSpec(.version, help: "print the version of vault"),
    ]

    /// Every environment variable vault reads, with what it does; options
    /// name theirs in `OptionSpec.environment`. `unlocks` marks what `vault run`
    /// keeps from its child.
    public static let environment: [EnvironmentSpec] = [
        EnvironmentSpec("VAULT_PATH", help: "The vault file, as with --vault."),
        EnvironmentSpec("VAULT_PASSPHRASE_FILE", unlocks: true,
                        help: "A file that holds the passphrase, as with --passphrase-file."),
        EnvironmentSpec("VAULT_KEY_FILE", unlocks: true, help: "A key file, as with --key-file."),
        EnvironmentSpec("VAULT_SESSION", unlocks: true, help: "The token of an unlock session, from vault unlock."),
        EnvironmentSpec("VAULT_CREDENTIAL", unlocks: true, help: """
            A scoped credential from vault grant, as with --credential: the path of its file, or its text \
            itself (or the base64 of it), as a CI secret variable holds it.
            """),
        EnvironmentSpec("VAULT_IDENTITY", unlocks: true, help: """
            An age identity, as with --identity: the path of an identity file, or its text itself, \
            as a CI secret variable holds it (only here: never on the command line or in the config).
            """),
        EnvironmentSpec("VAULT_GROUP", help: """
            The access group of commands that name none with --group; without it, and without group in \
            the config file, add uses default and the other commands search every group.
            """),
        EnvironmentSpec("VAULT_TRUST", help: "The vault's trust fingerprint, as with --trust: what a reader with an identity needs (vault trust prints it)."),
        EnvironmentSpec("VAULT_MIN_EPOCH", help: "The lowest key epoch accepted, as with --min-epoch (vault verify prints a vault's epoch)."),
        EnvironmentSpec("VAULT_NO_INTERACTION", help: """
            When set to anything but an empty string, 0, false or no, never prompt, as with --no-interaction.
            """),
        EnvironmentSpec("VAULT_BACKEND", help: "Where items live, as with --backend: file or secret-service."),
        EnvironmentSpec("VAULT_COLLECTION", help: "The keyring collection of the secret-service backend, as with --collection."),
        EnvironmentSpec("VAULT_MOUNT_PATH", help: "Set by vault run --mount for the command it runs: the path of the named pipe."),
        EnvironmentSpec("CI", help: """
            When set as for VAULT_NO_INTERACTION, as CI services do, never prompt: a locked vault exits with 36.
            """),
        EnvironmentSpec("GITHUB_ENV", help: "The file that env --format github appends to."),
        EnvironmentSpec("XDG_CONFIG_HOME", help: """
            The config file is $XDG_CONFIG_HOME/vault/config, or ~/.config/vault/config when it is unset.
            """),
        EnvironmentSpec("XDG_DATA_HOME", help: """
            The directory of the default vault and of the device keys is $XDG_DATA_HOME/vault, or \
            ~/.local/share/vault when it is unset.
            """),
        EnvironmentSpec("XDG_RUNTIME_DIR", help: """
            Unlock sessions and the after-first-unlock cache live in $XDG_RUNTIME_DIR/vault, or in \
            /tmp/vault-UID when it is unset.
            """),
        EnvironmentSpec("XDG_STATE_HOME", help: """
            What this machine has seen of each vault (its counters, against rollback) lives in \
            $XDG_STATE_HOME/vault/seen, or ~/.local/state/vault/seen when it is unset.
            """),
        EnvironmentSpec("NO_COLOR", help: "When set and not empty, help is printed without bold headings."),
        EnvironmentSpec("VAULT_TEST_NOW", help: """
            For tests only, and read by debug builds only: the time, in Unix seconds, for expiry and \
            session checks.
            """),
        EnvironmentSpec("VAULT_LIBSECRET_PATH", help: """
            For tests only, and read by debug builds only: load libsecret from this path instead of \
            libsecret-1.so.0.
            """),
        EnvironmentSpec("VAULT_PROGRESS_IMMEDIATE", help: """
            For tests only, and read by debug builds only: when 1, show the progress line of long \
            commands at once instead of after a second.
            """),
    ]

    /// Every environment variable that unlocks the vault, by the `unlocks`
    /// marks: what `vault run` never hands its child.
    public static var unlockingVariables: [String] {
        environment.filter(\.unlocks).map(\.name)
    }

    /// Every command, in the order `vault help` lists them.
    public static let commands: [CommandSpec] = [
        initCommand, addCommand, getCommand, otpCommand, updateCommand, editCommand, renameCommand, deleteCommand,
        listCommand, historyCommand, groupCommand, grantCommand, identityCommand, memberCommand, trustCommand, revokeCommand, unlockCommand, lockCommand, statusCommand, passwdCommand, rekeyCommand,
        syncCommand, mergeDriverCommand, conflictsCommand, resolveCommand,
        runCommand, envCommand, injectCommand, scanCommand, redactCommand,
        wipeCommand, firstRunCommand, exportCommand, importCommand, resetCommand, verifyCommand, upgradeCommand,
        gitCredentialCommand, dockerCredentialCommand, helpCommand, completeCommand, generateCommand, clipboardClearCommand,
    ]
}

// MARK: - Options shared by several commands

extension CommandTable {
    static func service(_ help: String) -> OptionSpec {
        OptionSpec(.service, short: "s", value: "SERVICE", help: help, completion: .service)
    }

    static func account(_ help: String) -> OptionSpec {
        OptionSpec(.account, short: "a", value: "ACCOUNT", help: help, completion: .account)
    }

    /// Commands that find items search one group only when one is named.
    static let searchGroupHelp = "only items of this access group; every group when none is named"

    static func group(_ help: String, default defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(.group, value: "GROUP", help: help, default: defaultValue, completion: .group,
                   environment: "VAULT_GROUP", configKey: "group")
    }

    static func label(_ help: String) -> OptionSpec {
        OptionSpec(.label, short: "l", value: "LABEL", help: help)
    }

    /// `--class`: the CLI names, or Apple's constant names.
    static func accessibility(_ help: String, default defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(.class, value: "CLASS", help: help + "; Apple's kSecAttrAccessible names work too",
                   default: defaultValue, completion: .values(Accessibility.allCases.map(\.rawValue)),
                   aliases: Accessibility.allCases.map(\.appleConstant))
    }

    static let json = OptionSpec(.json, help: "print JSON instead of text")

    /// Globs over names, for list and wipe; -s and -a stay exact, since names may hold `*`.
    static let nameGlobs: [OptionSpec] = [
        OptionSpec(.serviceGlob, value: "GLOB", help: "only items whose service matches a shell glob, e.g. 'git:*'"),
        OptionSpec(.accountGlob, value: "GLOB", help: "only items whose account matches a shell glob, e.g. 'ci-*'"),
    ]

    /// --json on a command that changes something: its result as one JSON object.
    static let resultJSON = OptionSpec(.json, help: "print what was done as one JSON object on stdout instead of a message")

    static let otp = OptionSpec(
        .otp, help: "the secret is a one-time code secret (an otpauth:// URI or a Base32 seed), for 'vault otp'; it is checked before it is stored")

    static let kdfCost = OptionSpec(
        .kdfCost, value: "COST",
        help: "scrypt cost of the passphrase keyslot; testing is for tests only: it lowers the scrypt cost",
        default: "interactive", completion: .values(["interactive", "testing"]))

    /// Attributes that `add` sets and `update` changes (and `expires`).
    static let attributeOptions: [OptionSpec] = [
        label("label shown by list"),
        OptionSpec(.comment, short: "j", value: "COMMENT", help: "free-form comment"),
        OptionSpec(.kind, short: "D", value: "KIND", help: "kind of secret, e.g. \"api token\""),
        OptionSpec(.generic, short: "G", value: "DATA", help: "application data stored beside the secret"),
        OptionSpec(.envName, value: "NAME", help: "variable name for vault env; default: SERVICE_ACCOUNT upper-cased"),
    ]

    /// `--expires` of add, and of update, where `never` removes an expiry.
    static func expires(_ more: String = "") -> OptionSpec {
        OptionSpec(.expires, value: "WHEN",
                   help: "the item expires after a duration (90m, 30d) or at a date (2027-01-31, 2027-01-31T12:00Z)" + more)
    }

    /// Where the new secret comes from; without any of these it is read from
    /// stdin, or from a no-echo prompt on a terminal.
    static let secretSourceOptions: [OptionSpec] = [
        OptionSpec(.secretFile, value: "FILE", help: "read the secret from FILE", completion: .file),
        OptionSpec(.generate, help: "generate a random secret: 32 letters and digits unless the options below say otherwise"),
        OptionSpec(.length, value: "N", help: "length of a generated secret", default: "32"),
        OptionSpec(.charset, value: "SET",
                   help: "characters of a generated secret: classes (alnum, alpha, digit, hex, lower, printable, symbol, upper) "
                       + "and literal characters in brackets, separated by commas, e.g. 'alnum,[-_.]'",
                   default: "alnum"),
        OptionSpec(.require, value: "CLASSES",
                   help: "a generated secret holds at least one character of each class named: upper, lower, digit, symbol"),
        OptionSpec(.noAmbiguous, help: "leave out the characters 0 O 1 l I | from a generated secret"),
        OptionSpec(.words, value: "N", help: "generate a passphrase of N words from the EFF large word list (7 776 words) instead"),
        OptionSpec(.separator, value: "TEXT", help: "what goes between the words of a passphrase", default: "-"),
        OptionSpec(.print, help: "show a generated secret once, on a terminal only"),
        OptionSpec(.password, short: "w", value: "VALUE",
                   help: "the secret itself; visible to other users in ps, prefer stdin"),
        OptionSpec(.trimNewline, help: "drop one trailing newline from the secret, as echo adds"),
        OptionSpec(.allowEmpty, help: "store an empty secret instead of refusing it"),
    ]
}

// MARK: - Commands

extension CommandTable {
    static let initCommand = CommandSpec(
        "init", summary: "create a new vault",
        discussion: """
            Creates an empty vault file at the vault path, in a directory created 0700. \
            It opens with a passphrase, asked twice on a terminal or read from \
            --passphrase-file, or with --key-file, with a key file; a key file that does \
            not exist yet is created with 32 random bytes. Fails if a vault already \
            exists there.
            """,
        options: [kdfCost],
        examples: [
            ExampleSpec("vault init", "create the default vault, asking for a passphrase twice"),
            ExampleSpec("vault --vault ./ci.vault --key-file ./ci.key init",
                        "create a vault for a CI job, and the key file that opens it"),
            ExampleSpec("vault init --passphrase-file pass.txt --kdf-cost testing",
                        "create a vault quickly in a test suite"),
        ],
        run: { try InitCommand.run($0) })

    static let addCommand = CommandSpec(
        "add", summary: "add a secret item",
        discussion: """
            Stores a new item under its access group, service and account. The secret \
            comes from stdin when it is not a terminal, from a no-echo prompt asked \
            twice when it is, from --secret-file, or from --generate. Adding an item \
            whose group, service and account already exist fails with exit 45 unless \
            --update is given.
            """,
        options: [
            service("service the item belongs to"),
            account("account the item belongs to"),
        ] + attributeOptions + [
            expires(),
            accessibility("when the item can be read", default: "when-unlocked"),
            group("access group of the item, created when new", default: "default"),
            OptionSpec(.createGroup, help: "create the group even when its name is one letter away from an existing group's"),
            OptionSpec(.update, short: "U", help: "replace an existing item with the same group, service and account"),
            resultJSON,
            otp,
        ] + secretSourceOptions,
        examples: [
            ExampleSpec(#"printf %s "$TOKEN" | vault add -s github -a ci-bot"#,
                        "store a token from stdin, where ps cannot see it"),
            ExampleSpec("vault add -s github -a alice",
                        "store a secret typed at a no-echo prompt"),
            ExampleSpec("vault add -s postgres -a admin --generate --length 40 --charset printable",
                        "generate and store a random 40-character password"),
            ExampleSpec("vault add -s bank -a me --generate --length 20 --require upper,lower,digit,symbol --no-ambiguous --print",
                        "generate a password that meets a site's rules, and show it once"),
            ExampleSpec("vault add -s laptop -a disk --generate --words 6 --separator ' '",
                        "generate a six-word passphrase"),
            ExampleSpec("vault add --otp -s github -a alice --secret-file otpauth-uri.txt",
                        "store the otpauth:// URI of a site's two-factor QR code, for 'vault otp'"),
            ExampleSpec("vault add -U -s backup -a cron --class after-first-unlock --secret-file backup.key",
                        "replace an item that a cron job may read after the first unlock"),
        ],
        run: { try AddCommand.run($0) })

    static let getCommand = CommandSpec(
        "get", aliases: ["show"], summary: "print the secret of one item",
        discussion: """
            Finds the one item that matches the query and writes its secret to stdout \
            exactly, adding a newline only when stdout is a terminal. No match exits \
            with 44; a query that matches several items is an error that lists them. \
            With --json it prints the item's attributes, and its secret only with \
            --show-secret. --revision N prints the secret the item held N changes ago \
            (see 'vault history'). With --clip the secret goes to the clipboard instead, and a \
            process in the background clears it after --clip-timeout if it still holds the \
            secret (with OSC 52, which cannot read the clipboard, it clears it whatever it \
            holds); --clip is refused when CI is set or no clipboard is within reach.
            """,
        options: [
            service("service of the item"),
            account("account of the item"),
            group(searchGroupHelp),
            label("label of the item"),
            json,
            OptionSpec(.showSecret, help: "include the secret in --json output"),
            OptionSpec(.field, value: "FIELD",
                       help: "print one attribute and a newline instead of the secret; an attribute the item lacks prints an empty line",
                       completion: .values(ItemField.allCases.map(\.rawValue))),
            OptionSpec(.clip, help: "copy the secret to the clipboard (wl-copy, xclip, xsel or the terminal's OSC 52) instead of printing it, and clear it later"),
            OptionSpec(.clipTimeout, value: "DURATION", help: "clear the clipboard after this long, e.g. 45s, 2m", default: "45s"),
            OptionSpec(.revision, value: "N", help: "print the secret the item held before its last N changes of secret (1 is the one before the current)"),
            OptionSpec(.theirs, help: "print the other side's secret of an item a merge left in conflict (see vault conflicts)"),
            OptionSpec(.conflict, value: "N", help: "print the other version the item's N-th conflict keeps (1 is the newest; vault conflicts counts them)"),
        ],
        examples: [
            ExampleSpec("vault get -s github -a ci-bot", "print a secret"),
            ExampleSpec(#"GITHUB_TOKEN="$(vault get -s github -a ci-bot)" ./deploy.sh"#,
                        "pass a secret to one command through its environment"),
            ExampleSpec("vault get -s github -a ci-bot --json", "show an item's attributes without its secret"),
            ExampleSpec("vault get -s github -a ci-bot --field expires", "print when an item expires, for a script"),
            ExampleSpec("vault get -s bank -a me --clip", "copy a password to the clipboard for 45 seconds"),
            ExampleSpec("vault get -s github -a ci-bot --revision 1", "print the token the item held before its last rotation"),
        ],
        run: { try GetCommand.run($0) })

    static let historyCommand = CommandSpec(
        "history", summary: "list the earlier secrets of one item, never the secrets",
        discussion: """
            Lists the secrets that update, add --update and edit replaced, newest first: each \
            revision's number (for get --revision and update --undo), when it was set and when \
            it was replaced. They are kept in the item's record, sealed like its secret, re-sealed \
            by rekey and removed with the item; update keeps 5 by default (--keep N). A vault \
            kept in git still has older ones in git's history. The file backend only.
            """,
        options: [
            service("service of the item"),
            account("account of the item"),
            group(searchGroupHelp),
            json,
        ],
        examples: [
            ExampleSpec("vault history -s github -a ci-bot", "list the tokens an item held before"),
        ],
        run: { try HistoryCommand.run($0) })

    static let otpCommand = CommandSpec(
        "otp", summary: "print the current one-time code of an item",
        discussion: """
            Prints the one-time code of an item stored with 'vault add --otp': its secret is an \
            otpauth://totp/ or otpauth://hotp/ URI (SHA1, SHA256 or SHA512; 6 to 8 digits; any \
            period) or a Base32 seed (TOTP, SHA1, 6 digits, 30 seconds). A TOTP code is for now, \
            or for --at. An HOTP item gives the code of its counter and stores the counter one \
            higher in the same write, so no code is given twice: each use changes the vault, and \
            two clones of a vault shared through git that both use one HOTP item will conflict. \
            In references of run and inject, vault://SERVICE/ACCOUNT?otp stands for the item's code.
            """,
        options: [
            service("service of the item"),
            account("account of the item"),
            group(searchGroupHelp),
            OptionSpec(.at, value: "UNIX_TIME", help: "the TOTP code at this time, in seconds since 1970, instead of now"),
        ],
        examples: [
            ExampleSpec("vault otp -s github -a alice", "print the code to type at GitHub's two-factor prompt"),
            ExampleSpec("vault otp -s github -a alice --at \"$(date -d '+30 sec' +%s)\"", "print the next code"),
        ],
        run: { try OneTimeCodeCommand.run($0) })

    static let updateCommand = CommandSpec(
        "update", summary: "change the secret or attributes of one item",
        discussion: """
            Selects the one item that matches the query, and \
            replaces its secret (read as for add) and any attributes given. With \
            --keep-secret only the attributes change and no secret is read. The secret it \
            replaces is kept (5 of them per item; --keep N, 0 for none); --undo swaps the \
            current secret with the one before it.
            """,
        options: [
            service("service of the item"),
            account("account of the item"),
            group(searchGroupHelp),
        ] + attributeOptions + [
            expires("; never removes the expiry"),
            accessibility("new accessibility class of the item"),
        ] + secretSourceOptions + [
            OptionSpec(.keepSecret, help: "change attributes only; do not read a new secret"),
            OptionSpec(.keep, value: "N", help: "keep this many of the item's earlier secrets, 0 for none (file backend)", default: "5"),
            OptionSpec(.undo, help: "make the secret the item held before the current one its secret again (file backend)"),
            resultJSON,
            otp,
        ],
        examples: [
            ExampleSpec(#"printf %s "$NEW_TOKEN" | vault update -s github -a ci-bot"#,
                        "rotate a token"),
            ExampleSpec(#"vault update -s github -a ci-bot --keep-secret -l "GitHub CI token""#,
                        "change a label and keep the secret"),
            ExampleSpec("vault update -s postgres -a admin --generate",
                        "replace a password with a new random one"),
            ExampleSpec("vault update -s github -a ci-bot --undo", "go back to the token before the last rotation"),
        ],
        run: { try UpdateCommand.run($0) })

    static let editCommand = CommandSpec(
        "edit", summary: "change the secret of one item in an editor",
        discussion: """
            Opens the secret of the one item that matches in $VISUAL, else $EDITOR, else vi (run \
            through sh -c, as git does), and stores what the editor saved. The file is created 0600 \
            in a new 0700 directory in $XDG_RUNTIME_DIR when that is a tmpfs, else in /dev/shm; with \
            neither, edit refuses rather than write the secret to a disk. The file, and anything the \
            editor left beside it, is overwritten with zeros and removed afterwards, also when the \
            editor fails or vault gets TERM or HUP; VIMINIT turns off vim's swap, undo, backup and \
            viminfo files. A newline the editor added at the end is dropped when the secret had none. \
            An unchanged or emptied buffer changes nothing and says so; an editor that fails changes \
            nothing. Refused when CI, VAULT_NO_INTERACTION or --no-interaction is set.
            """,
        options: [
            service("service of the item"),
            account("account of the item"),
            group(searchGroupHelp),
        ],
        examples: [
            ExampleSpec("vault edit -s postgres -a admin", "change a password in the editor"),
            ExampleSpec("EDITOR=nano vault edit -s notes -a recovery-codes", "edit a multi-line secret in nano"),
        ],
        run: { try EditCommand.run($0) })

    static let deleteCommand = CommandSpec(
        "delete", aliases: ["rm"], summary: "delete items",
        discussion: """
            Deletes the one item that matches the query. A query that matches several \
            items is an error that lists them, unless --all-matching is given.
            """,
        options: [
            service("service of the item"),
            account("account of the item"),
            group(searchGroupHelp),
            label("label of the item"),
            OptionSpec(.allMatching, help: "delete every item that matches instead of exactly one"),
            resultJSON,
        ],
        examples: [
            ExampleSpec("vault delete -s github -a ci-bot", "delete one item"),
            ExampleSpec("vault delete --group ci --all-matching", "delete every item of the group ci"),
        ],
        destructive: true,
        run: { try DeleteCommand.run($0) })

    static let renameCommand = CommandSpec(
        "rename", aliases: ["mv"], summary: "give one item a new service, account or group",
        discussion: """
            Selects the one item that matches the query and gives it a new service, \
            account and/or group, keeping its secret, attributes and created date, in \
            one atomic write. Refused (exit 45) when an item already has the new name. \
            A new group is created, as with add.
            """,
        options: [
            service("service of the item"),
            account("account of the item"),
            group(searchGroupHelp),
            OptionSpec(.toService, value: "SERVICE", help: "the new service", completion: .service),
            OptionSpec(.toAccount, value: "ACCOUNT", help: "the new account", completion: .account),
            OptionSpec(.toGroup, value: "GROUP", help: "the group to move the item to", completion: .group),
            OptionSpec(.createGroup, help: "create the new group even when its name is one letter away from an existing group's"),
            resultJSON,
        ],
        examples: [
            ExampleSpec("vault rename -s github -a ci-bot --to-account deploy-bot", "rename an item's account"),
            ExampleSpec("vault rename -s github -a ci-bot --to-group ci", "move an item to the group ci"),
        ],
        run: { try RenameCommand.run($0) })

    static let listCommand = CommandSpec(
        "list", aliases: ["ls"], summary: "list items, never their secrets",
        discussion: """
            Prints the group, service, account, class and label of every item that \
            matches the filters, sorted by group, service and account, \
            one per line, or as JSON with --json. Secrets are \
            never printed.
            """,
        options: [
            service("only items of this service"),
            account("only items of this account"),
            group(searchGroupHelp),
            accessibility("only items of this accessibility class"),
            OptionSpec(.search, value: "TEXT", help: "only items whose service, account or label contains TEXT, in any case"),
        ] + nameGlobs + [
            json,
        ],
        examples: [
            ExampleSpec("vault list", "list every item"),
            ExampleSpec("vault list --search github", "find items by part of a name or label"),
            ExampleSpec("vault list --service github", "list the accounts stored for one service"),
            ExampleSpec("vault list --group ci --json", "list one group's items as JSON"),
        ],
        run: { try ListCommand.run($0) })

    static let passwdCommand = CommandSpec(
        "passwd", summary: "change how the vault is unlocked",
        discussion: """
            Unlocks the vault with the current passphrase or key file, then makes one \
            change to its keyslots: sets a new passphrase (asked twice, or read from \
            --new-passphrase-file), adds or removes a key file or a desktop-keyring \
            key, or removes the passphrase. Each change also rotates the master key (every item \
            re-sealed, as rekey does) when every keyslot left opens with the key file or passphrase \
            given or a new one; otherwise it says so, and an old copy of the file still opens with the \
            old secret until 'vault rekey'. Removing the passphrase destroys \
            the items of class when-passcode-set-this-device-only.
            """,
        options: [
            OptionSpec(.newPassphraseFile, value: "FILE",
                       help: "read the new passphrase from FILE instead of prompting", completion: .file),
            OptionSpec(.addKeyFile, value: "FILE",
                       help: "also unlock with the key in FILE, created if missing", completion: .file),
            OptionSpec(.removeKeyFile, value: "FILE",
                       help: "no longer unlock with the key in FILE", completion: .file),
            OptionSpec(.removePassphrase, help: "no longer unlock with a passphrase"),
            OptionSpec(.addKeyringSlot, help: "also unlock with a random key kept in the desktop keyring, so a logged-in desktop needs no passphrase"),
            OptionSpec(.removeKeyringSlot, help: "no longer unlock with the desktop keyring, and delete its key there"),
            kdfCost,
            OptionSpec(.yes, short: "y", help: "confirm destroying items without asking (needed without a terminal)"),
        ],
        examples: [
            ExampleSpec("vault passwd", "change the passphrase"),
            ExampleSpec("vault passwd --add-key-file ~/.config/vault/laptop.key",
                        "also unlock with a key file"),
            ExampleSpec("vault passwd --add-keyring-slot", "unlock without a prompt while logged in to the desktop"),
            ExampleSpec("vault --key-file ./ci.key passwd --remove-passphrase",
                        "keep only the key file"),
        ],
        run: { try PasswdCommand.run($0) })

    static let rekeyCommand = CommandSpec(
        "rekey", summary: "replace every key of the vault",
        discussion: """
            Makes a new master key, class keys and group keys, re-seals every item under them \
            and raises the key epoch, so an old copy of the file with an old passphrase, key \
            file or session token opens nothing written afterwards. Every unlock session, \
            after-first-unlock cache and scoped credential ends (grant credentials again); the \
            vault id stays, and this machine's device key is replaced too, so a stolen device key \
            opens nothing afterwards. The keyslot of the passphrase or key file given is kept; other \
            keyslots, items bound to another machine (-this-device-only) and, without a passphrase \
            keyslot, when-passcode-set-this-device-only items cannot be carried over: they are \
            listed and dropped after a yes (--yes without a terminal). One atomic write.
            """,
        options: [
            kdfCost,
            OptionSpec(.yes, short: "y", help: "confirm dropping keyslots or other machines' items without asking"),
            resultJSON,
        ],
        examples: [
            ExampleSpec("vault rekey", "after a passphrase, key file or session token may have leaked"),
            ExampleSpec("vault --key-file ci.key rekey --yes", "re-key a CI vault from a script"),
        ],
        run: { try RekeyCommand.run($0) })

    static let unlockCommand = CommandSpec(
        "unlock", summary: "start an unlock session and print its token",
        discussion: """
            With a live session in VAULT_SESSION, gives it a fresh idle timeout and prints \
            the same token, asking nothing. Otherwise asks for the passphrase (three tries) \
            or uses the key file, and starts a session: the \
            unwrapped keys are kept in the runtime directory, sealed under a token that is \
            printed. With VAULT_SESSION set to the token, commands need no passphrase until \
            the session is idle for longer than its timeout or is locked. Sessions live side \
            by side: a new one never ends another. Any unlock also opens after-first-unlock \
            items until the next reboot.
            """,
        options: [
            OptionSpec(.timeout, value: "DURATION",
                       help: "end the session after this long without use, e.g. 90s, 15m, 2h",
                       default: "15m", configKey: "session-timeout"),
            OptionSpec(.raw, help: "print only the token"),
            OptionSpec(.export, help: "print 'export VAULT_SESSION=…' for eval"),
            OptionSpec(.json, help: "print the token, whether an existing session was extended, and the timeout as JSON"),
        ],
        examples: [
            ExampleSpec("eval \"$(vault unlock --export)\"", "unlock this shell for 15 minutes of idle time"),
            ExampleSpec("export VAULT_SESSION=\"$(vault unlock --raw --timeout 2h)\"", "keep the token for a long job"),
        ],
        run: { try UnlockCommand.run($0) })

    static let lockCommand = CommandSpec(
        "lock", summary: "end unlock sessions",
        discussion: """
            Ends the session in VAULT_SESSION and wipes its cache; other sessions go on. \
            --all ends every session of the vault and the after-first-unlock cache too; \
            otherwise after-first-unlock items stay readable until a reboot.
            """,
        options: [
            OptionSpec(.all, help: "end every session and the after-first-unlock cache too"),
        ],
        examples: [
            ExampleSpec("vault lock", "end the session in VAULT_SESSION; other sessions go on"),
            ExampleSpec("vault lock --all", "end every session and the after-first-unlock state"),
        ],
        run: { try LockCommand.run($0) })

    static let statusCommand = CommandSpec(
        "status", summary: "show whether the vault is locked, and what it holds",
        discussion: """
            Shows, without unlocking: the vault path and backend, the scoped credential in use \
            (its groups, read-only or not, expiry), whether the session in \
            VAULT_SESSION is live and when it ends, whether after-first-unlock items are \
            open, whether this is the vault's device, its keyslots, and item counts by group \
            and class.
            """,
        options: [json],
        examples: [
            ExampleSpec("vault status", "show the state of the default vault"),
            ExampleSpec("vault status --json", "the same for a script"),
        ],
        run: { try StatusCommand.run($0) })

    static let helpCommand = CommandSpec(
        "help", summary: "show help for vault or for a command",
        discussion: "Shows the commands of vault, or the options and examples of one command.",
        positionals: [
            PositionalSpec("COMMAND", help: "command to describe", optional: true, completion: .command),
        ],
        examples: [
            ExampleSpec("vault help add", "show the options and examples of add"),
        ],
        run: { try HelpCommand.run($0) })

    static let completeCommand = CommandSpec(
        "__complete", summary: "print names for shell completion",
        discussion: "Prints one name per line from what opens at once, and nothing when the vault is locked.",
        options: [service("only accounts of this service")],
        positionals: [
            PositionalSpec("KIND", help: "names to print",
                           completion: .values(["groups", "services", "accounts"])),
        ],
        hidden: true,
        run: { try CompleteCommand.run($0) })

    static let generateCommand = CommandSpec(
        "__generate", summary: "print a file generated from this table",
        discussion: "Prints the man page or a shell completion script; make generate writes them.",
        positionals: [
            PositionalSpec("FILE", help: "file to print",
                           completion: .values(GeneratedFile.allCases.map(\.rawValue))),
        ],
        hidden: true,
        run: { try GenerateCommand.run($0) })

    static let clipboardClearCommand = CommandSpec(
        ClipboardClearCommand.name, summary: "clear the clipboard later, for get --clip",
        discussion: "Started by vault get --clip in a session of its own; reads the secret's HMAC on stdin.",
        positionals: [
            PositionalSpec("METHOD", help: "how the clipboard was reached",
                           completion: .values(ClipboardMethod.allCases.map(\.rawValue))),
            PositionalSpec("SECONDS", help: "how long to wait"),
            PositionalSpec("PLACE", help: "the display or terminal"),
        ],
        hidden: true,
        run: { try ClipboardClearCommand.run($0) })
}
